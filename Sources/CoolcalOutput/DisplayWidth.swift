/// The columns a terminal gives text: two for East Asian wide and fullwidth
/// characters and for emoji shown as emoji, one for anything else (a combining mark
/// belongs to its character). Enough for the day view to keep its lanes aligned.
package enum DisplayWidth {
    package static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    package static func of(_ c: Character) -> Int {
        let scalars = c.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.properties.isEmojiPresentation { return 2 }
        if first.properties.isEmoji && scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return wide.contains { $0.contains(first.value) } ? 2 : 1
    }

    /// The longest start of `text` that fits in `columns`.
    package static func prefix(_ text: some StringProtocol, _ columns: Int) -> String {
        var out = ""
        var used = 0
        for c in text {
            let w = of(c)
            guard used + w <= columns else { break }
            out.append(c)
            used += w
        }
        return out
    }

    /// East Asian Wide and Fullwidth blocks (Hangul Jamo, CJK, kana, Hangul syllables,
    /// compatibility ideographs and forms, fullwidth forms, the supplementary ideographs).
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x20000...0x3FFFD,
    ]
}
