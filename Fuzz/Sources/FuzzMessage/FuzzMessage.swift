import CoolcalInvite
import CoolcalMail
import Foundation

/// E-mail messages: any bytes through the message sniff, GMime's parse and the search
/// for the invitation part, then the calendar part found through the invitation parse,
/// must give an invitation or a thrown error, never a crash or a leak.
private let floatingZone = TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: 0)!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(bytes: data, count: size)
    // The sniff alone, and the reader even when the sniff says no (it must refuse cleanly).
    _ = MessageReader.isMessage(input)
    if let found = try? MessageReader.read(input) {
        _ = found.headers.from
        _ = found.headers.subject
        _ = found.headers.messageID
        _ = found.headers.date
        _ = try? InviteLoader.parse(found.calendar, name: "fuzz.ics", floatingZone: floatingZone)
    }
    // The whole path an INVITE operand takes.
    if let file = try? InviteLoader.open(input, name: "fuzz.eml", floatingZone: floatingZone) {
        _ = file.invite.mail
        _ = file.invite.id.text
    }
    _ = MessageReader.sha256(input)
    return 0
}
