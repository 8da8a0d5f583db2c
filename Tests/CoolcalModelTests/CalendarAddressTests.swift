import Testing
@testable import CoolcalModel

/// Model/CalendarAddress: how addresses are compared.
@Suite struct CalendarAddressTests {
    @Test func normalizedDropsMailtoAndCase() {
        #expect(CalendarAddress.normalized(" MAILTO:Alice@Example.ORG ") == "alice@example.org")
        #expect(CalendarAddress.normalized("alice@example.org") == "alice@example.org")
        // A parameter that lost its semicolon (a rail company's ORGANIZER): the address is after mailto:.
        #expect(CalendarAddress.normalized("CN=ORGANIZER:mailto:webmaster@trenitalia.it") == "webmaster@trenitalia.it")
    }

    @Test func ofHeaderTakesTheAngleAddress() {
        #expect(CalendarAddress.ofHeader("\"Alice\" <Alice@Example.com>") == "alice@example.com")
        #expect(CalendarAddress.ofHeader("bob@example.com") == "bob@example.com")
        #expect(CalendarAddress.ofHeader("undisclosed-recipients:;") == nil)
        #expect(CalendarAddress.ofHeader("\"alice@corp.example (boss)\" <mallory@evil.example>") == "mallory@evil.example")
        // More than one mailbox names none (a forger lists the organizer beside himself).
        #expect(CalendarAddress.ofHeader("mallory@evil.example, Alice <alice@corp.example>") == nil)
        #expect(CalendarAddress.ofHeader("Friends: alice@corp.example; <mallory@evil.example>") == nil)
        #expect(CalendarAddress.sender(of: nil) == nil)
        #expect(CalendarAddress.sender(of: MailHeaders(from: "a@x.example, b@y.example")) == "")
    }
}
