import CoolcalInvite
import CoolcalWriting
import Foundation

/// Invitation decoding (push-payload JSON and iTIP iCalendar): any bytes must give an
/// `Invite` or a thrown error, never a crash. For an iTIP message, what coolcal writes
/// from it through libical (the stored copy, a REPLY, cancelled overrides) is built too.
private let floatingZone = TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: 0)!
private let me = ["mailto:me@example.com", "me@example.org"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(bytes: data, count: size)
    // The cancellation's line edit must take any bytes as a block.
    _ = BlockEdit.cancel(block: Array(input), sequence: 2)
    guard let file = try? InviteLoader.open(input, name: "fuzz.ics", floatingZone: floatingZone) else { return 0 }
    let invite = file.invite
    // Touch what the CLI prints, so lazy formatting runs too.
    _ = invite.id.text
    _ = invite.start.jsonString
    _ = invite.end.jsonString
    _ = invite.allDay
    if let message = file.message {
        let copy = message.storedCopy(me: me, partstat: "ACCEPTED")
        _ = message.reply(me: me, partstat: "TENTATIVE", comment: "fuzz, comment", now: Date(timeIntervalSince1970: 1_660_000_000))
        _ = message.cancelledOverrides()
        _ = message.attendees
        for event in copy.events { _ = BlockEdit.cancel(block: Array(event.utf8), sequence: 3) }
    }
    return 0
}
