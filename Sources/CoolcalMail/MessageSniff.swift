import Foundation

/// The cheap byte-level look that decides "treat these bytes as an e-mail message"
/// (RFC 5322, optionally after an mbox `From ` line). It only decides; GMime parses.
package enum MessageSniff {
    /// Header names of which at least one must appear in the header block: every real
    /// message has several, and a JSON or iCalendar text has none of them as a field.
    private static let telling: Set<String> = [
        "from", "to", "cc", "subject", "date", "message-id", "mime-version", "received", "return-path",
        "content-type", "delivered-to", "reply-to", "sender", "x-mailer", "user-agent", "in-reply-to",
        "references", "dkim-signature", "arc-seal", "authentication-results", "thread-topic",
    ]

    /// How many header lines are looked at before deciding (a header block is longer
    /// only with many `Received:` lines, and one telling name is found well before).
    private static let maxLines = 400

    /// Where a leading mbox `From ` line ends (after its line feed); 0 when there is none,
    /// nil when the bytes are that line alone.
    package static func mboxLineEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        guard n >= 5, bytes[0] == 0x46, bytes[1] == 0x72, bytes[2] == 0x6F, bytes[3] == 0x6D, bytes[4] == 0x20 else { return 0 }
        var i = 0
        while i < n && bytes[i] != 0x0A { i += 1 }
        return i < n ? i + 1 : nil
    }

    /// The offset where the message starts: after a leading mbox `From ` line, else 0;
    /// nil when the bytes do not start like a message.
    package static func messageStart(_ data: Data) -> Int? {
        data.withUnsafeBytes { raw -> Int? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let n = bytes.count
            // "From " then the rest of the line: the mbox separator, not a header.
            guard var i = mboxLineEnd(bytes) else { return nil }
            let start = i
            var sawTelling = false
            var lines = 0
            var first = true
            while i < n && lines < maxLines {
                // One line: [i, end).
                var end = i
                while end < n && bytes[end] != 0x0A { end += 1 }
                var lineEnd = end
                if lineEnd > i && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                if lineEnd == i {
                    // The blank line that ends the header block.
                    return sawTelling && !first ? start : nil
                }
                let c = bytes[i]
                if c == 0x20 || c == 0x09 {
                    // A folded continuation; never the first line.
                    if first { return nil }
                } else {
                    var j = i
                    while j < lineEnd, isNameByte(bytes[j]) { j += 1 }
                    // `Name:` (RFC 5322 allows spaces before the colon in obsolete syntax).
                    var k = j
                    while k < lineEnd && (bytes[k] == 0x20 || bytes[k] == 0x09) { k += 1 }
                    guard j > i, k < lineEnd, bytes[k] == 0x3A else { return nil }
                    if !sawTelling {
                        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<j]), as: UTF8.self).lowercased()
                        if telling.contains(name) { sawTelling = true }
                    }
                }
                first = false
                lines += 1
                i = end + 1
            }
            // A message without a body, or a header block longer than we look at.
            return sawTelling && !first ? start : nil
        }
    }

    /// Letters, digits and `-`/`_`: what header names are in practice (RFC 5322 allows
    /// more, but a first line like `{"title":` must not count as a field).
    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x5F
    }
}
