import Foundation
import Testing
@testable import CoolcalWriting

/// The owner's PARTSTAT set on the bytes of a stored block: only that line changes,
/// quoted parameters are respected, a long line is folded at 75 octets.
struct AttendeeEditTests {
    func block(_ lines: [String]) -> [UInt8] { Array((["BEGIN:VEVENT"] + lines + ["END:VEVENT"]).map { $0 + "\r\n" }.joined().utf8) }

    @Test func onlyTheOwnersLineChanges() {
        let before = block([
            "UID:x@example.org",
            "ATTENDEE;CN=\"Doe; Jane: the boss\";PARTSTAT=ACCEPTED:mailto:jane@example.org",
            "ATTENDEE;RSVP=TRUE;PARTSTAT=ACCEPTED;CN=Me:MAILTO:Me@Example.com",
            "BEGIN:VALARM", "ATTENDEE:mailto:me@example.com", "END:VALARM",
        ])
        let after = block([
            "UID:x@example.org",
            "ATTENDEE;CN=\"Doe; Jane: the boss\";PARTSTAT=ACCEPTED:mailto:jane@example.org",
            "ATTENDEE;PARTSTAT=DECLINED;RSVP=TRUE;CN=Me:MAILTO:Me@Example.com",
            "BEGIN:VALARM", "ATTENDEE:mailto:me@example.com", "END:VALARM",
        ])
        #expect(AttendeeEdit.setting(partstat: "DECLINED", for: ["me@example.com"], in: before) == .edited(after))
        #expect(AttendeeEdit.setting(partstat: "DECLINED", for: ["me@example.com"], in: after) == .unchanged)
        #expect(AttendeeEdit.setting(partstat: "DECLINED", for: ["nobody@example.com"], in: before) == .notAnAttendee)
    }

    @Test func aLongLineIsUnfoldedAndFoldedAgain() {
        let before = block([
            "ATTENDEE;CN=Maximiliane Mustermann-Überlänge von und zu Irgendwo im Sch",
            " warzwald;PARTSTAT=NEEDS-ACTION:mailto:me@example.com",
        ])
        // 75 octets, then 74 after the fold's space; "Ü" (2 octets) is never cut.
        let after = block([
            "ATTENDEE;PARTSTAT=DECLINED;CN=Maximiliane Mustermann-Überlänge von und zu",
            "  Irgendwo im Schwarzwald:mailto:me@example.com",
        ])
        #expect(AttendeeEdit.setting(partstat: "DECLINED", for: ["me@example.com"], in: before) == .edited(after))
    }
}
