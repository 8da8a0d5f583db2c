import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalState
@testable import CoolcalOutput
@testable import CoolcalCLI

/// `review`'s screen as text, without a terminal: what it shows, cut to the size.
@Suite struct ReviewScreenTests {
    struct Unreadable: Error, CustomStringConvertible { var description: String { "cal.ics: not a readable iCalendar file" } }

    static var style: TextStyle { TextStyle(locale: Locale(identifier: "en_US_POSIX"), zone: TimeZone(identifier: "UTC")!,
                                 color: false, unicode: false, terminal: true) }
    static let entry = InboxEntry(id: "12", title: .event("Family\u{1B}[31m Reunion"), start: .instant(1_661_011_200), end: .instant(1_661_025_600),
                                  allDay: false, payload: "{}", receivedAt: Date(timeIntervalSince1970: 0), read: false, number: 3,
                                  mail: MailHeaders(from: "Sam <sam@example.com>", subject: "Reunion!"))

    @Test func aScreenNamesTheInvitationAndTheKeys() {
        let text = ReviewScreen(style: Self.style, width: 40, height: 24)
            .render(entry: Self.entry, position: (1, 2), report: .failure(Unreadable()), given: nil,
                    message: ["accepted: Other (id 13): added to work.ics"], prompt: nil)
        let lines = text.dropFirst(ReviewScreen.clear.count).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(text.hasPrefix("\u{1B}[H\u{1B}[2J"))
        #expect(lines == [
            "1 of 2 (inbox 3, id 12)",  // the short form: the long one does not fit
            "Family [31m Reunion",  // the escape character made harmless (PrintableText)
            "  Aug 20, 2022, 4:00 - 8:00 PM",
            "  times in UTC",
            "  from: Sam <sam@example.com>",
            "  subject: Reunion!",
            "",
            "cannot show the day view: cal.ics: n...",
            "",
            "accepted: Other (id 13): added to wo...",
            "a accept d decline t tent. x dismiss",  // the keys on two lines, close-set below 41 columns
            "s new time c comment n/p move q quit",
        ])
    }

    @Test func thePromptTakesTheLastLine() {
        let text = ReviewScreen(style: Self.style, width: 80, height: 24)
            .render(entry: Self.entry, position: (2, 2), report: .failure(Unreadable()), given: "commented",
                    message: [], prompt: "comment (Enter sends, Esc cancels): Running la")
        #expect(text.hasSuffix("\nanswered: commented\ncomment (Enter sends, Esc cancels): Running la"))
    }
}
