import Foundation

/// The byte-level look that tells a message that cannot hold an invitation before any
/// MIME walk: `MessageReader` takes only a `text/calendar`, `application/ics` or
/// `application/x-ics` part, or an attachment named `*.ics`/`*.ical`, and every one of
/// those says so in clear text in its part's headers (a MIME part's headers are never
/// encoded, only an RFC 2047 word `=?…?=` may hide a name). So a single-part message
/// whose own `Content-Type` and `Content-Disposition` say none of it, or a multipart one
/// in whose bytes after the headers none of these words (nor `=?`) appears, has no
/// invitation; anything else is for GMime to read.
package enum CalendarSniff {
    /// What a part's headers say when it may be the invitation (ASCII, lower case).
    private static let words: [[UInt8]] = ["text/calendar", "application/ics", "application/x-ics", ".ics", ".ical", "=?"]
        .map { Array($0.utf8) }

    /// False only when the message surely holds no invitation.
    package static func mayHoldCalendar(_ data: Data) -> Bool {
        guard let start = MessageSniff.messageStart(data) else { return true }
        return data.withUnsafeBytes { raw -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            let (contentType, disposition, bodyStart) = headers(bytes, from: start)
            let type = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if type.hasPrefix("multipart/") || type.hasPrefix("message/") {
                return contains(bytes, from: bodyStart)
            }
            let said = Array((contentType + " " + disposition).utf8)
            return said.withUnsafeBufferPointer { contains($0, from: 0) }
        }
    }

    /// The top-level `Content-Type` and `Content-Disposition` values (unfolded, lower
    /// case; empty when absent) and the offset of the body.
    private static func headers(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (String, String, Int) {
        enum Field { case contentType, disposition, other }
        var contentType = "", disposition = ""
        var field = Field.other
        var i = start
        let n = bytes.count
        while i < n {
            var end = i
            while end < n && bytes[end] != 0x0A { end += 1 }
            var lineEnd = end
            if lineEnd > i && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            if lineEnd == i { return (contentType, disposition, min(n, end + 1)) }
            let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<lineEnd]), as: UTF8.self).lowercased()
            if line.first == " " || line.first == "\t" {
                switch field {
                case .contentType: contentType += line
                case .disposition: disposition += line
                case .other: break
                }
            } else if line.hasPrefix("content-type:") {
                field = .contentType
                contentType = String(line.dropFirst("content-type:".count))
            } else if line.hasPrefix("content-disposition:") {
                field = .disposition
                disposition = String(line.dropFirst("content-disposition:".count))
            } else {
                field = .other
            }
            i = end + 1
        }
        return (contentType, disposition, n)
    }

    /// Whether any of `words` appears from `offset` on, ASCII letters in any case.
    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Bool {
        let n = bytes.count
        var i = offset
        while i < n {
            let c = bytes[i]
            if c == 0x2E || c == 0x3D || c == 0x74 || c == 0x54 || c == 0x61 || c == 0x41 {
                for word in words where word.count <= n - i {
                    var k = 0
                    while k < word.count && lower(bytes[i + k]) == word[k] { k += 1 }
                    if k == word.count { return true }
                }
            }
            i += 1
        }
        return false
    }

    private static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }
}
