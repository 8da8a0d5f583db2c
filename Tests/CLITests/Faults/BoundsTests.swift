import Foundation
import Testing

/// Issue #45: a message coolcal does not read past a bound says which bound and what the
/// person can do, through `process` as a delivery agent runs it; exit 0 and the outcome
/// words unchanged: a calendar part nested deeper than 32 multiparts is `no_action`, a
/// message over 32 MiB is `error`.
@Suite struct BoundsTests {
    typealias T = OrganizerBindingTests

    /// Alice's invitation as the innermost part of `levels` nested multiparts.
    static func nested(_ levels: Int, uid: String) -> String {
        var inner = "Content-Type: text/calendar; charset=UTF-8; method=REQUEST\r\n\r\n" + T.message(uid: uid) + "\r\n"
        for i in 0..<levels {
            inner = "Content-Type: multipart/mixed; boundary=b\(i)\r\n\r\n--b\(i)\r\n" + inner + "--b\(i)--\r\n"
        }
        return "From: \(FaultDesk.alice)\r\nTo: \(T.me)\r\nSubject: Invitation\r\nMessage-ID: <\(uid)>\r\nMIME-Version: 1.0\r\n" + inner
    }

    @Test func aCalendarPartNestedTooDeepSaysSo() throws {
        let d = try FaultDesk()
        let deep = try d.deliver(Self.nested(40, uid: "deep@example.org"))
        #expect(deep.status == 0 && deep.stdout == "no_action (calendar part nested deeper than 32 levels; save the .ics and run coolcal accept FILE)\n",
                "\(deep.stdout)\(deep.stderr)")
        // Within the bound it is answered; a deep message with no calendar part is no invitation.
        let shallow = try d.deliver(Self.nested(20, uid: "shallow@example.org"))
        #expect(shallow.stdout == "added (accepted)\n", "\(shallow.stdout)\(shallow.stderr)")
        let plain = Self.nested(40, uid: "plain@example.org").replacingOccurrences(of: "text/calendar", with: "text/plain")
        #expect(try d.deliver(plain).stdout == "no_action (no invitation)\n")
    }

    @Test func aMessageOverTheSizeBoundSaysSo() throws {
        let d = try FaultDesk()
        let filler = String(repeating: String(repeating: "QUFB", count: 19) + "\r\n", count: 52_000_000 / 78)
        let message = "From: \(FaultDesk.alice)\r\nTo: \(T.me)\r\nSubject: Invitation\r\nMessage-ID: <big@example.org>\r\n"
            + "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n--B\r\n"
            + "Content-Type: text/calendar; charset=UTF-8; method=REQUEST\r\n\r\n" + T.message(uid: "big@example.org")
            + "\r\n--B\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n" + filler + "--B--\r\n"
        let run = try d.deliver(message)
        #expect(run.status == 0 && run.stdout == "error (too large: 52 MB, at most 32 MiB; save the .ics and run coolcal accept FILE)\n",
                "\(run.stdout)\(run.stderr.prefix(500))")
    }
}
