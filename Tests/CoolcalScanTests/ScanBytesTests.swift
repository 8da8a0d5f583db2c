import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalScan

/// The line loop's byte searches (`ScanLine+Bytes`) compare 16 bytes at a time and then
/// go byte by byte; a time is read as words (`ScanTime`). Each is checked here against its
/// byte-by-byte definition wherever the byte sought lies against those steps, and the lone
/// CR — the one answer of the line loop that depends on a search's result alone — through
/// the filter itself, fed whole and in small pieces.
@Suite struct ScanBytesTests {
    /// SplitMix64: `PreFilterTests`' seeded generator.
    typealias Seeded = PreFilterTests.Seeded

    /// Random lines of 1…70 bytes, mostly letters, with a few of `specials`.
    static func lines(_ specials: [UInt8], seed: UInt64) -> [[UInt8]] {
        var rng = Seeded(state: seed)
        return (0..<3000).map { _ in
            (0..<Int.random(in: 1...70, using: &rng)).map { _ in
                Int.random(in: 0..<12, using: &rng) == 0 ? specials.randomElement(using: &rng) ?? 0x61 : 0x61
            }
        }
    }

    @Test func theLineEndAndItsLoneCRAreTheByteByByteOnes() {
        for line in Self.lines([0x0A, 0x0D, 0x09, 0x00], seed: 1) {
            let expected: (Int, Bool)? = line.firstIndex(of: 0x0A).map { lf in
                // The definition the loop had: a CR before the content's end (the LF, and a CR before it, taken off).
                let contentEnd = lf > 0 && line[lf - 1] == 0x0D ? lf - 1 : lf
                return (lf, line[..<contentEnd].contains(0x0D))
            }
            let found = line.withUnsafeBufferPointer { ScanLine.lineEnd($0.baseAddress!, from: 0, count: $0.count) }
            #expect(found?.lf == expected?.0 && found?.loneCR == expected?.1, "\(line)")
        }
    }

    @Test func theNameEndParameterEndAndValueStartAreTheByteByByteOnes() {
        for line in Self.lines([0x3A, 0x3B, 0x22], seed: 2) {
            line.withUnsafeBufferPointer { b in
                let p = b.baseAddress!
                #expect(ScanLine.nameEnd(p, b.count) == (line.firstIndex { $0 == 0x3A || $0 == 0x3B } ?? b.count))
                #expect(ScanLine.semicolon(p, 0, b.count) == (line.firstIndex(of: 0x3B) ?? b.count))
                var quoted = false
                var start: Int?
                for (i, c) in line.enumerated() where start == nil {
                    if c == 0x22 { quoted.toggle() }
                    if c == 0x3A && !quoted { start = i + 1 }
                }
                #expect(ScanLine.valueStart(p, 0, b.count) == start, "\(line)")
            }
        }
    }

    @Test func aWordIsUpperCasedAsEachOfItsBytes() {
        for byte in UInt8.min...UInt8.max {
            for at in 0..<8 {
                // The byte among neighbours on both sides that are letters or not.
                for fill: UInt8 in [0x61, 0x7B, 0x40, 0xE1] {
                    var bytes = [UInt8](repeating: fill, count: 8)
                    bytes[at] = byte
                    let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
                    let upper = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64(ContentLines.upper($1.element)) << (8 * UInt64($1.offset)) }
                    #expect(ScanLine.upper(word) == upper, "\(bytes)")
                }
            }
        }
    }

    /// The hash as its definition reads, byte by byte: each byte upper-cased and put in
    /// its place in a word of eight (the last word padded with zeros), each word mixed in
    /// by a multiply and a fold, the length, MurmurHash3's finalizer.
    static func nameHashByBytes(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15
        for start in stride(from: 0, to: bytes.count, by: 8) {
            var word: UInt64 = 0
            for (k, b) in bytes[start..<min(start + 8, bytes.count)].enumerated() { word |= UInt64(ContentLines.upper(b)) << (8 * UInt64(k)) }
            let m = (h ^ word) &* 0xFF51_AFD7_ED55_8CCD
            h = m ^ (m >> 32)
        }
        var x = h ^ UInt64(bytes.count)
        x = (x ^ (x >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        x = (x ^ (x >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return x ^ (x >> 33)
    }

    /// A UID's survey, eight bytes a step, against a byte-by-byte reading: bytes at and
    /// around each limit (0x20, 0x5C, 0x7F, 0x80) and those whose low seven bits are them,
    /// in every position of a word and in the bytes after the last word.
    @Test func aUIDSurveyIsTheByteByByteOne() {
        var rng = Seeded(state: 9)
        let edges: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x41, 0x5B, 0x5C, 0x5D, 0x61, 0x7E, 0x7F, 0x80, 0x81,
                              0x9F, 0xA0, 0xDC, 0xFF, 0xE2]
        let common: [UInt8] = Array("abcdefXYZ0123456789-@.".utf8)
        for _ in 0..<20_000 {
            let n = Int.random(in: 0...40, using: &rng)
            var bytes = (0..<n).map { _ in common.randomElement(using: &rng) ?? 0x61 }
            for _ in 0..<Int.random(in: 0...2, using: &rng) where n > 0 {
                bytes[Int.random(in: 0..<n, using: &rng)] = edges.randomElement(using: &rng) ?? 0
            }
            let special = bytes.contains { $0 < 0x20 || $0 == 0x5C || $0 == 0x7F }
            let high = bytes.contains { $0 >= 0x80 }
            let found = bytes.withUnsafeBufferPointer { UIDBytes.survey($0) }
            #expect(found.special == special && found.high == high, "\(bytes)")
        }
    }

    /// Every length from 0 to 40 (words whole, short, and a last word read overlapping
    /// the one before), the bytes at the end of their buffer.
    @Test func aNameHashIsTheByteByByteOne() {
        var rng = Seeded(state: 4)
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let hashed = bytes.withUnsafeBufferPointer { ScanLine.nameHash($0) }
            #expect(hashed == Self.nameHashByBytes(bytes), "\(bytes)")
        }
        // Case does not count; a byte more, a byte less or another byte does.
        let uid = Array("0123456789abcdef-XYZ@example.com".utf8)
        let hash = { (b: [UInt8]) in b.withUnsafeBufferPointer { ScanLine.nameHash($0) } }
        #expect(hash(uid) == hash(Array("0123456789ABCDEF-xyz@EXAMPLE.COM".utf8)))
        #expect(hash(uid) != hash(uid + [0]) && hash(uid) != hash(Array(uid.dropLast())) && hash(uid) != hash(uid.map { $0 == 0x40 ? 0x41 : $0 }))
    }

    /// Each name `PropertyKind.of` knows, and names one byte or one letter off, in lines
    /// long enough to be read as words and too short for it: the same kind either way.
    @Test func aPropertyNameIsKnownAlikeAsWordsAndByteByByte() {
        let kinds: [(String, ScanLine.PropertyKind)] = [
            ("DTSTART", .dtstart), ("DTSTAMP", .dtstamp), ("DTEND", .dtend), ("DURATION", .duration), ("RRULE", .rrule),
            ("RDATE", .keep), ("RECURRENCE-ID", .recurrenceID), ("SEQUENCE", .sequence), ("LAST-MODIFIED", .lastModified),
            ("UID", .keep), ("EXDATE", .exdate), ("EXRULE", .keep),
        ]
        var rng = Seeded(state: 3)
        for (name, kind) in kinds {
            let mixed = String(name.map { Bool.random(using: &rng) ? Character($0.lowercased()) : $0 })
            let variants: [(String, ScanLine.PropertyKind?)] = [
                (name, kind), (mixed, kind), (name + "X", nil), (String(name.dropLast()), nil), ("X" + name.dropFirst(), nil),
                (name.replacingOccurrences(of: "-", with: "\r"), name.contains("-") ? nil : kind),
                (String(name.dropLast()) + "\u{00}", nil),
            ]
            for (written, expected) in variants {
                for value in [":1", ":20240101T000000Z", ";X=1:20240101T000000Z"] {
                    let line = Array((written + value).utf8)
                    let n = Array(written.utf8).count
                    let found = line.withUnsafeBufferPointer { ScanLine.PropertyKind.of($0.baseAddress!, 0, n, $0.count) }
                    #expect(found == expected, "\(written + value)")
                }
            }
        }
    }

    @Test func aTimeIsReadOnlyWhenEveryDigitIsOne() {
        // Leap days and month ends (every 4th year, not every 100th, every 400th), the
        // first and last years; each byte replaced by each byte around the digits, T and Z.
        let values = ["20240229T235960Z", "21000229T000000Z", "20000229T120000Z", "19000228T000000Z", "00010101T000000Z",
                      "00000101T000000Z", "99991231T235959Z", "20230131T000000Z", "20230430T000000Z"]
        for valid in values.map({ Array($0.utf8) }) {
            for at in valid.indices {
                for byte in UInt8(0x20)...UInt8(0x5B) {
                    var value = valid
                    value[at] = byte
                    for given in [8, 15, 16] {
                        let t = value.withUnsafeBufferPointer { ScanTime(UnsafeBufferPointer(rebasing: $0[..<given])) }
                        // A trailing space is not the value's.
                        let length = given == 16 && value[15] == 0x20 ? 15 : given
                        let text = String(decoding: value[..<length], as: UTF8.self)
                        let digits = [0..<8, 9..<15].flatMap { $0 }.filter { $0 < length }
                        let plain = digits.allSatisfy { value[$0] >= 0x30 && value[$0] <= 0x39 }
                            && (length < 15 || value[8] == 0x54) && (length < 16 || value[15] == 0x5A)
                        guard plain, let y = Int(text.prefix(4)), let mo = Int(text.dropFirst(4).prefix(2)), let d = Int(text.dropFirst(6).prefix(2)) else {
                            #expect(t == nil, "\(text)")
                            continue
                        }
                        let (h, mi, s) = length < 15 ? (0, 0, 0)
                            : (Int(text.dropFirst(9).prefix(2)) ?? -1, Int(text.dropFirst(11).prefix(2)) ?? -1, Int(text.dropFirst(13).prefix(2)) ?? -1)
                        let fields = CivilDateTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
                        #expect(t?.seconds == (fields.isValid && y >= 1 ? fields.secondsAsUTC : nil), "\(text)")
                    }
                }
            }
        }
    }

    /// An event outside the window whose SUMMARY has a CR at `at` (nil: none) before its
    /// line end `end` ("\r\n" or "\n").
    static func calendar(summary: Int, cr at: Int?, end: String) -> [UInt8] {
        var text = Array(String(repeating: "s", count: summary).utf8)
        if let at { text.insert(0x0D, at: at) }
        return Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20200101T100000Z\r\nDTEND:20200101T110000Z\r\nSUMMARY:".utf8)
            + text + Array((end + "END:VEVENT\r\nEND:VCALENDAR\r\n").utf8)
    }

    @Test func anEventWithALoneCRIsKeptWhereverTheCRIsAndHoweverTheFileIsCut() {
        let window = TimeWindow(start: 1_704_067_200, end: 1_704_153_600) // 2024-01-01
        for end in ["\r\n", "\n"] {
            for summary in [0, 5, 20, 40] {
                for at in [nil] + (0...summary).map(Optional.some) {
                    let bytes = Self.calendar(summary: summary, cr: at, end: end)
                    for piece in [bytes.count, 1, 7, 16, 33] {
                        var filter = ICalPreFilter(window: window)
                        var from = 0
                        bytes.withUnsafeBytes { raw in
                            while from < raw.count {
                                filter.feed(UnsafeRawBufferPointer(rebasing: raw[from..<min(from + piece, raw.count)]))
                                from += piece
                            }
                        }
                        let kept = filter.finish().map { String(decoding: $0, as: UTF8.self) }
                        // A CR at the summary's end is lone before "\r\n" (CR CR LF), not before "\n" (CR LF).
                        let lone = at != nil && !(end == "\n" && at == summary)
                        #expect(kept?.contains("UID:x") == lone, "summary \(summary), CR at \(String(describing: at)), end \(Array(end.utf8)), pieces of \(piece)")
                    }
                }
            }
        }
    }
}
