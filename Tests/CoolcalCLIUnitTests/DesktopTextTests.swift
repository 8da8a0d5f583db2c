@testable import CoolcalDesktop
@testable import CoolcalCLI
import Testing

/// What a desktop notification carries, before any bus is involved.
@Suite struct DesktopTextTests {
    @Test func markupCharactersBecomeEntities() {
        #expect(DesktopNotification.markupEscaped(#"Tom & Jerry's <b>"party"</b>"#)
                == "Tom &amp; Jerry&apos;s &lt;b&gt;&quot;party&quot;&lt;/b&gt;")
        #expect(DesktopNotification.markupEscaped("Grüße 🎉 plain") == "Grüße 🎉 plain")
    }

    @Test func actionsAreTheSpecificationsFlatList() {
        let n = DesktopNotification(title: "t", body: "b", actions: [.init(key: "accept", label: "Accept"), .init(key: "decline", label: "Decline")])
        #expect(n.actionList == ["accept", "Accept", "decline", "Decline"])
    }

    @Test func waitTakesWholeSecondsFromOneToADay() {
        #expect(WaitSeconds(argument: "1")?.seconds == 1)
        #expect(WaitSeconds(argument: "86400")?.seconds == 86_400)
        #expect(WaitSeconds(argument: "0") == nil && WaitSeconds(argument: "86401") == nil && WaitSeconds(argument: "1.5") == nil)
    }
}
