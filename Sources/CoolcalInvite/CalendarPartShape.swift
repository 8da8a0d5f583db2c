import Foundation

/// Two things about an invitation's bytes settled before libical reads them: bare CRs
/// that a mail system left before a fold are dropped with it, and a second VCALENDAR is
/// refused rather than silently dropped (issue #44).
package enum CalendarPartShape {
    /// The bytes with each run of CRs that stands immediately before a CRLF fold
    /// (`\r+\r\n[ \t]`) removed, so that the fold unfolds as RFC 5545 §3.1 says (a real
    /// Fastmail UID arrives so). A CR anywhere else is left as it is.
    package static func droppingCRsBeforeFolds(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        guard bytes.indices.dropLast().contains(where: { bytes[$0] == 0x0D && bytes[$0 + 1] == 0x0D }) else { return data }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x0D else { out.append(bytes[i]); i += 1; continue }
            var j = i
            while j < bytes.count, bytes[j] == 0x0D { j += 1 }
            // bytes[i..<j] are CRs; a fold is the last of them, LF, then a space or tab.
            let fold = j - i >= 2 && j + 1 < bytes.count && bytes[j] == 0x0A && (bytes[j + 1] == 0x20 || bytes[j + 1] == 0x09)
            out += fold ? [0x0D] : bytes[i..<j]
            i = j
        }
        return Data(out)
    }

    /// How many lines open a VCALENDAR (`BEGIN:VCALENDAR`, any case, at a line's start).
    package static func calendars(in data: Data) -> Int {
        let begin = Array("BEGIN:VCALENDAR".utf8)
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int in
            var count = 0
            var lineStart = true
            for (n, b) in raw.enumerated() {
                if lineStart, b == 0x42 || b == 0x62, n + begin.count <= raw.count,
                   (0..<begin.count).allSatisfy({ raw[n + $0] & 0xDF == begin[$0] & 0xDF }) {
                    count += 1
                }
                lineStart = b == 0x0A || b == 0x0D
            }
            return count
        }
    }
}
