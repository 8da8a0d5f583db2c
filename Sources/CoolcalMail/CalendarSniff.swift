import Foundation

/// The byte-level look that tells a message that cannot hold an invitation before any
/// MIME walk. The rule (issue #30, settled): a message is skipped unparsed only when its
/// bytes contain none of `text/calendar`, `application/ics`, `.ics` and `BEGIN:VCALENDAR`,
/// in any case, anywhere — headers or body. `MessageReader` takes a `text/calendar`,
/// `application/ics` or `application/x-ics` part or an attachment named `*.ics`/`*.ical`,
/// and every one of those says so in clear text in its part's headers (a MIME part's
/// headers are never encoded; only an RFC 2047 word `=?…?=` may hide a name, so `=?`
/// counts too).
///
/// The scan looks for anchors each of those words contains — `/calendar`, `/ics`,
/// `/x-ics`, `.ics`, `.ical`, `:vcalendar`, `=?` — so whatever holds a word holds an
/// anchor: it skips fewer messages than the rule allows, never more.
package enum CalendarSniff {
    /// The anchors (ASCII, lower case), each starting with one of `/ . : =`.
    private static let anchors: [[UInt8]] = ["/calendar", "/ics", "/x-ics", ".ics", ".ical", ":vcalendar", "=?"]
        .map { Array($0.utf8) }

    /// False only when the message surely holds no invitation.
    package static func mayHoldCalendar(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            contains(raw.bindMemory(to: UInt8.self))
        }
    }

    /// Whether any anchor appears, ASCII letters in any case.
    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = bytes.count
        var i = 0
        while i < n {
            let c = bytes[i]
            if c == 0x2F || c == 0x2E || c == 0x3A || c == 0x3D {
                for anchor in anchors where anchor[0] == c && anchor.count <= n - i {
                    var k = 1
                    while k < anchor.count && lower(bytes[i + k]) == anchor[k] { k += 1 }
                    if k == anchor.count { return true }
                }
            }
            i += 1
        }
        return false
    }

    private static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }
}
