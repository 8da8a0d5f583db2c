import CoolcalKit
import Foundation

/// Invitation decoding (push-payload JSON and iTIP iCalendar): any bytes must give an
/// `Invite` or a thrown error, never a crash.
private let floatingZone = TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: 0)!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(bytes: data, count: size)
    if let invite = try? InviteLoader.parse(input, name: "fuzz.json", floatingZone: floatingZone) {
        // Touch what the CLI prints, so lazy formatting runs too.
        _ = invite.id.text
        _ = invite.start.jsonString
        _ = invite.end.jsonString
        _ = invite.allDay
    }
    return 0
}
