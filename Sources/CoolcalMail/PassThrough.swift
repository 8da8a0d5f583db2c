import Foundation

/// The bytes `process --pass-through` hands back to the mail server: the message as
/// delivered, with `X-Coolcal-Outcome: OUTCOME` as its first header field (after an mbox
/// `From ` line, which stays first) and every `X-Coolcal-Outcome` field it arrived with
/// taken out (a sender cannot forge the outcome a filter files by). Nothing else
/// changes: not a byte of the body, nor the other fields' order or line ends.
package enum PassThrough {
    package static let field = "X-Coolcal-Outcome"

    /// `message` with the outcome field; `outcome` is cut to printable ASCII on one line.
    package static func message(_ message: Data, outcome: String) -> Data {
        let bytes = [UInt8](message)
        let fromLine = mboxLineEnd(bytes)
        let crlf = usesCRLF(bytes, from: fromLine)
        var out = Data(bytes[0..<fromLine])
        out.append(contentsOf: Array("\(field): \(printable(outcome))".utf8) + (crlf ? [0x0D, 0x0A] : [0x0A]))
        var i = fromLine
        var dropping = false
        // Header fields until the first empty line; each field with its folded lines.
        while i < bytes.count {
            var end = i
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let next = min(end + 1, bytes.count)
            let line = bytes[i..<end]
            let empty = line.isEmpty || line == [0x0D]
            if empty { break }
            let folded = line.first == 0x20 || line.first == 0x09
            if !folded { dropping = isOutcomeField(line) }
            if !dropping { out.append(contentsOf: bytes[i..<next]) }
            i = next
        }
        out.append(contentsOf: bytes[i...])
        return out
    }

    /// The message without an mbox `From ` first line, for reading.
    package static func withoutMboxLine(_ message: Data) -> Data {
        let end = mboxLineEnd([UInt8](message.prefix(4096)))
        return end == 0 ? message : message.dropFirst(end)
    }

    /// Where an mbox `From ` first line ends (`MessageSniff`'s reading); 0 when there is none.
    private static func mboxLineEnd(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { MessageSniff.mboxLineEnd($0) ?? 0 }
    }

    private static func usesCRLF(_ bytes: [UInt8], from start: Int) -> Bool {
        guard let lf = bytes[start...].firstIndex(of: 0x0A) else { return false }
        return lf > start && bytes[lf - 1] == 0x0D
    }

    private static func isOutcomeField(_ line: ArraySlice<UInt8>) -> Bool {
        let name = Array((field + ":").lowercased().utf8)
        guard line.count >= name.count else { return false }
        // The name, then optional white space before the colon (RFC 5322's obsolete syntax).
        var k = 0
        for b in line {
            let lower = b >= 0x41 && b <= 0x5A ? b + 0x20 : b
            if k == name.count - 1 && (b == 0x20 || b == 0x09) { continue }
            guard lower == name[k] else { return false }
            k += 1
            if k == name.count { return true }
        }
        return false
    }

    private static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(900).map { $0.value >= 0x20 && $0.value < 0x7F ? $0 : "?" }))
    }
}
