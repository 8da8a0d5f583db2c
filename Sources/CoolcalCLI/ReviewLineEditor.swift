import CoolcalSupport

/// `review`'s one-line editor for a comment, on the screen's last line: printable
/// characters (UTF-8) are typed in, Backspace deletes a character, C-u the line,
/// Enter ends it, Esc cancels, C-c interrupts; a resize draws the screen again.
package struct ReviewLineEditor {
    package enum Outcome: Equatable {
        case text(String)
        case cancelled
        case interrupted
    }

    package let terminal: TerminalMode
    /// Draws the screen with this prompt line (what has been typed so far).
    package let redraw: (String) throws -> Void

    package static let prompt = "comment (Enter sends, Esc cancels): "

    package func read() throws -> Outcome {
        var bytes: [UInt8] = []
        try redraw(Self.prompt)
        while true {
            switch terminal.key() {
            case .end: return .cancelled
            case .resized: break
            case .byte(let b):
                switch b {
                case 13, 10: return .text(String(decoding: bytes, as: UTF8.self).trimmingSpaces)
                case 27: return .cancelled
                case 3: return .interrupted
                case 127, 8:
                    // One character: its continuation bytes (10xxxxxx), then its lead byte.
                    while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
                    if !bytes.isEmpty { bytes.removeLast() }
                case 21: bytes.removeAll()
                case 0..<32: break
                default: bytes.append(b)
                }
            }
            try redraw(Self.prompt + String(decoding: bytes, as: UTF8.self))
        }
    }
}

private extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
