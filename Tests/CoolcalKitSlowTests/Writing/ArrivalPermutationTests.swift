import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalInvite
@testable import CoolcalWriting
@testable import CoolcalTestSupport

/// Issue #28, per-instance versions: Outlook's `cmp__test-17` chain (a weekly series,
/// two moved instances updated twice each, two cancelled instances, a series update
/// with EXDATEs) applied to a calendar in every order of its eight messages ends in the
/// same events as the chronological order — in process, on text. The corpus lives beside
/// the checkout (`../shared/corpora/mail-real`); without it the test says so and passes.
@Suite struct ArrivalPermutationTests {
    static let names = (0...7).map { "cmp__test-17-\($0).eml" }
    static let empty = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nEND:VCALENDAR\r\n"

    struct Message {
        let change: ITIPChange
        let version: (Int, Int64)
    }

    static func messages() throws -> [Message]? {
        guard let corpus = Checkout.corpus("mail-real") else { return nil }
        let utc = TimeZone(identifier: "UTC") ?? .current
        return try names.map { name in
            let file = try InviteLoader.open(Data(contentsOf: corpus.appendingPathComponent(name)), name: name, floatingZone: utc)
            guard let message = file.message else { throw CocoaError(.fileReadCorruptFile) }
            let stamp = message.versions.compactMap { $0.stamp?.fields.secondsAsUTC }.max() ?? 0
            return Message(change: ITIPChange(message: message, cancel: file.invite.isCancellation, me: ["brechtel@med.uni-frankfurt.de"]),
                           version: (message.version.sequence, stamp))
        }
    }

    /// `text` with message `i` applied.
    static func applying(_ i: Int, to text: [UInt8], _ messages: [Message]) throws -> [UInt8] {
        let calendar = try ICalReader.read(Data(text), file: "cal.ics")
        let (data, _) = try messages[i].change.apply(to: CalendarText(bytes: text), calendar: calendar, file: "cal.ics")
        return data.map(Array.init) ?? text
    }

    /// A calendar's VEVENT blocks, sorted (the order of blocks in the file is not what
    /// the user sees).
    static func events(_ text: [UInt8]) -> [String] {
        String(decoding: text, as: UTF8.self).components(separatedBy: "BEGIN:VEVENT").dropFirst()
            .map { "BEGIN:VEVENT" + ($0.components(separatedBy: "END:VEVENT").first ?? "") }.sorted()
    }

    /// Every order of the eight (40,320): walked as paths through the states they reach
    /// (which messages are applied, and the calendar text), each state once — every
    /// order is one such path, so every order's end is among the final states.
    @Test func everyOrderEndsAsTheChronologicalOne() throws {
        guard let messages = try Self.messages() else {
            print("note: ../shared/corpora/mail-real is absent; the cmp__test-17 permutations are not checked")
            return
        }
        let chronological = messages.indices.sorted { messages[$0].version < messages[$1].version }
        var text = Array(Self.empty.utf8)
        for i in chronological { text = try Self.applying(i, to: text, messages) }
        let expected = Self.events(text)
        // The chronological result: the series (SEQUENCE 5, two EXDATEs) and the two newest moves.
        #expect(expected.count == 3, "\(expected)")
        #expect(expected.contains { $0.contains("SEQUENCE:5") && $0.contains("EXDATE") })
        #expect(expected.contains { $0.contains("SEQUENCE:6") && $0.contains("20250509T150000") })
        #expect(expected.contains { $0.contains("SEQUENCE:7") && $0.contains("20250516T150000") })
        // Layer by layer: the distinct (applied set, text) states, and how many orders reach each.
        struct State: Hashable { let applied: Int; let text: [UInt8] }
        var layer: [State: Int] = [State(applied: 0, text: Array(Self.empty.utf8)): 1]
        var applies = 0
        for _ in messages.indices {
            var next: [State: Int] = [:]
            for (state, orders) in layer {
                for i in messages.indices where state.applied & (1 << i) == 0 {
                    applies += 1
                    next[State(applied: state.applied | (1 << i), text: try Self.applying(i, to: state.text, messages)), default: 0] += orders
                }
            }
            layer = next
        }
        #expect(layer.values.reduce(0, +) == 40_320, "every order is counted once")
        let differing = layer.filter { Self.events($0.key.text) != expected }
        let orders = differing.values.reduce(0, +)
        #expect(orders == 0, "\(orders) of 40,320 orders end differently; one ends in \(differing.keys.map { Self.events($0.text) }.first ?? [])")
        print("note: 40,320 orders of cmp__test-17 through \(applies) applications; \(layer.count) final state(s)")
    }
}
