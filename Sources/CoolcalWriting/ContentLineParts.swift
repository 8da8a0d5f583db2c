import Foundation

/// An unfolded content line's bytes as RFC 5545 §3.1 reads them: the name and each
/// parameter, split at `;` outside a quoted parameter value, and the value, after the
/// first `:` outside quotes. What the edits of an ATTENDEE line (`AttendeeEdit`,
/// `PendingAnswerEdit`) take apart and put back together.
struct ContentLineParts {
    /// The name, then each parameter (`NAME=value`), as the bytes were.
    var pieces: [[UInt8]]
    /// Where the `:` before the value is.
    var colon: Int
    var value: String

    /// nil for a line with no `:` outside quotes.
    init?(_ line: [UInt8]) {
        var quoted = false
        var found: Int?
        for (n, b) in line.enumerated() {
            if b == 0x22 { quoted.toggle() } else if b == 0x3A && !quoted { found = n; break }
        }
        guard let found else { return nil }
        colon = found
        value = String(decoding: line[(found + 1)...], as: UTF8.self)
        pieces = [[]]
        quoted = false
        for b in line[..<found] {
            if b == 0x22 { quoted.toggle() }
            if b == 0x3B && !quoted { pieces.append([]) } else { pieces[pieces.count - 1].append(b) }
        }
    }

    /// A parameter's name, uppercased.
    static func name(_ piece: [UInt8]) -> String {
        String(decoding: piece.prefix { $0 != 0x3D }, as: UTF8.self).uppercased()
    }

    /// A parameter's value as written.
    static func value(_ piece: [UInt8]) -> String {
        String(decoding: piece.drop { $0 != 0x3D }.dropFirst(), as: UTF8.self)
    }

    /// The line with its name, then `parameters`, then the value part of `line` as it was.
    func line(_ line: [UInt8], parameters: [[UInt8]]) -> [UInt8] {
        pieces[0] + parameters.flatMap { [0x3B] + $0 } + line[colon...]
    }
}
