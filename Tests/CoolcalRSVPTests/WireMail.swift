import Foundation

/// A rendered message taken apart as a receiver does: its header lines (unfolded), and
/// each leaf part's header lines and its body *bytes* after the transfer encoding is
/// undone (quoted-printable, base64, or none). For checks on what goes over the wire,
/// never a parse that would forgive the wrong charset.
struct WireMail: CustomStringConvertible {
    struct Part {
        var headers: [String]
        /// The raw lines of the part's body, as sent.
        var rawLines: [Substring]
        /// The body after the transfer encoding is undone.
        var bytes: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
        }

        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    let raw: String
    var description: String { raw }
    var headers: [String]
    var parts: [Part] = []

    init(_ raw: String) {
        self.raw = raw
        let (head, body) = Self.split(raw)
        headers = head
        parts = Self.leaves(headers: head, body: body)
    }

    func header(_ name: String) -> String? {
        headers.first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
    }

    func part(_ type: String) -> Part? {
        parts.first { $0.header("Content-Type")?.lowercased().contains(type) == true }
    }

    /// Every physical line of the message (LF line ends).
    var lines: [Substring] { raw.split(separator: "\n", omittingEmptySubsequences: false) }

    /// Headers unfolded, and the rest.
    static func split(_ text: String) -> ([String], String) {
        guard let end = text.range(of: "\n\n") else { return (unfold(text), "") }
        return (unfold(String(text[..<end.lowerBound])), String(text[end.upperBound...]))
    }

    static func unfold(_ head: String) -> [String] {
        var out: [String] = []
        for line in head.split(separator: "\n") {
            if line.first == " " || line.first == "\t", let last = out.popLast() {
                out.append(last + String(line))
            } else {
                out.append(String(line))
            }
        }
        return out
    }

    static func leaves(headers: [String], body: String) -> [Part] {
        let type = headers.first { $0.lowercased().hasPrefix("content-type:") } ?? ""
        if type.lowercased().contains("multipart/"), let boundary = parameter("boundary", of: type) {
            var result: [Part] = []
            let chunks = ("\n" + body).components(separatedBy: "\n--" + boundary)
            for chunk in chunks.dropFirst() where !chunk.hasPrefix("--") {
                let inner = chunk.hasPrefix("\n") ? String(chunk.dropFirst()) : chunk
                let (h, b) = split(inner)
                result += leaves(headers: h, body: b)
            }
            return result
        }
        let encoding = (headers.first { $0.lowercased().hasPrefix("content-transfer-encoding:") } ?? "")
            .dropFirst("content-transfer-encoding:".count).trimmingCharacters(in: .whitespaces).lowercased()
        let raw = body.split(separator: "\n", omittingEmptySubsequences: false)
        let bytes: [UInt8]
        switch encoding {
        case "quoted-printable": bytes = quotedPrintable(body)
        case "base64": bytes = Array(Data(base64Encoded: body.filter { !$0.isWhitespace }) ?? Data())
        default: bytes = Array(body.utf8)
        }
        return [Part(headers: headers, rawLines: raw, bytes: bytes)]
    }

    static func parameter(_ name: String, of header: String) -> String? {
        guard let range = header.range(of: name + "=", options: .caseInsensitive) else { return nil }
        var value = header[range.upperBound...]
        if value.first == "\"" {
            value = value.dropFirst()
            return String(value.prefix { $0 != "\"" })
        }
        return String(value.prefix { $0 != ";" && !$0.isWhitespace })
    }

    /// RFC 2045 §6.7: `=XX` is a byte, `=` at a line's end a soft break.
    static func quotedPrintable(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "=") {
                if i + 1 < bytes.count, bytes[i + 1] == 0x0A {
                    i += 2
                    continue
                }
                if i + 2 < bytes.count, let value = UInt8(String(decoding: bytes[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
                    out.append(value)
                    i += 3
                    continue
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return out
    }

    /// The RFC 2047 encoded-words of a header value: (charset, decoded bytes).
    static func encodedWords(_ value: String) -> [(charset: String, bytes: [UInt8])] {
        var words: [(String, [UInt8])] = []
        var rest = Substring(value)
        while let start = rest.range(of: "=?") {
            let after = rest[start.upperBound...]
            let pieces = after.split(separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
            guard pieces.count == 4, pieces[3].hasPrefix("=") || pieces[3].contains("?=") else { break }
            let charset = String(pieces[0]).lowercased()
            let encoding = pieces[1].uppercased()
            guard let end = after.range(of: "?=", range: after.index(after.startIndex, offsetBy: pieces[0].count + pieces[1].count + 2)..<after.endIndex)
            else { break }
            let payload = after[after.index(after.startIndex, offsetBy: pieces[0].count + pieces[1].count + 2)..<end.lowerBound]
            if encoding == "B" {
                words.append((charset, Array(Data(base64Encoded: String(payload)) ?? Data())))
            } else {
                words.append((charset, quotedPrintable(payload.replacingOccurrences(of: "_", with: " "))))
            }
            rest = after[end.upperBound...]
        }
        return words
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in these bytes.
    func contains(bytes needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
