import Foundation
import Testing
@testable import CoolcalInvite

/// Issue #44: bare CRs a mail system left before a fold are dropped with the fold (the
/// real Fastmail UID of Cyrus' `imip_invite_funky_uid`); a CR anywhere else stays, and
/// the UID check still refuses it. A second VCALENDAR in the calendar part is an error.
@Suite struct CalendarPartShapeTests {
    static func ics(uid: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20310101T000000Z\r\n"
            + "DTSTART:20310301T100000Z\r\nSUMMARY:x\r\nORGANIZER:mailto:o@example.org\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    @Test func crsBeforeAFoldGoWithIt() throws {
        let folded = Data(Self.ics(uid: "abc\r\r\r\n def\r\r\n\tghi").utf8)
        let cleaned = CalendarPartShape.droppingCRsBeforeFolds(folded)
        #expect(String(decoding: cleaned, as: UTF8.self) == Self.ics(uid: "abc\r\n def\r\n\tghi"))
        let invite = try InviteLoader.parse(folded, name: "funky.ics", floatingZone: TimeZone(identifier: "UTC") ?? .current)
        #expect(invite.id == .uid("abcdefghi"))
    }

    @Test func aCRElsewhereKeepsTodaysRule() throws {
        let plain = Data(Self.ics(uid: "abc\r\rdef").utf8)
        #expect(CalendarPartShape.droppingCRsBeforeFolds(plain) == plain, "no fold after the CRs")
        let single = Data(Self.ics(uid: "abc\r\n def").utf8)
        #expect(CalendarPartShape.droppingCRsBeforeFolds(single) == single, "a plain fold is untouched")
        #expect(throws: InviteError.self) {
            try InviteLoader.parse(Data(Self.ics(uid: "abc\rdef\r\r").utf8), name: "cr.ics", floatingZone: .current)
        }
    }

    @Test func aSecondVCALENDARIsAnError() throws {
        let two = Data((Self.ics(uid: "one") + Self.ics(uid: "two").lowercased()).utf8)
        #expect(CalendarPartShape.calendars(in: two) == 2)
        #expect(CalendarPartShape.calendars(in: Data(Self.ics(uid: "BEGIN:VCALENDAR").utf8)) == 1, "not at a line's start")
        do {
            _ = try InviteLoader.parse(two, name: "two.ics", floatingZone: .current)
            Issue.record("two VCALENDARs were read")
        } catch let error as InviteError {
            #expect(error.message == "a second VCALENDAR in the invitation")
        }
    }
}
