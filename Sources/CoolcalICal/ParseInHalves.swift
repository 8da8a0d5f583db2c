internal import CLibical
import Dispatch
import Foundation

/// A large checked text parsed by libical in two halves, one per core (`ICalReader.parsed`).
enum ParseInHalves {
    /// From this many bytes on, a checked text is parsed in two halves, one per core.
    static let from = 256 << 10
    /// About the most bytes of VEVENTs one libical parse takes: each half is parsed in
    /// slices of this size, one after the other, each slice's tree freed once its events
    /// are read, so that libical's trees (some 12 times their text) stay a few MB however
    /// much of a large file is kept (issue #48: 25 MB for the 2 MB kept of 1M events).
    static let sliceBytes = 64 << 10

    /// What `halves` gives: the first half's tree (its head: the calendar's
    /// properties and zones, which the second half repeats) and the events of both
    /// halves, in the text's order.
    struct Halves {
        let head: OwnedComponent
        let events: [ICalEvent]
        let answering: Bool
    }

    /// `text` parsed by libical in two halves on two threads, each the text's head
    /// (all before its first VEVENT) with half of its VEVENTs and its end (in slices of
    /// about `sliceBytes` of VEVENTs, each with the head and the end), and each half's
    /// events read on its thread. nil — the caller parses the text whole, which
    /// also says what is wrong with it — when it is shorter than `from`,
    /// is not one VCALENDAR whose VEVENTs follow all else in it (`HalvesCut`), or a half
    /// does not parse as one VCALENDAR.
    static func halves(_ text: Data, file: String) -> Halves? {
        guard text.count >= from else { return nil }
        guard let cut = text.withUnsafeBytes({ HalvesCut($0) }) else { return nil }
        let work = HalfParses(text: text, cut: cut, file: file)
        defer { work.free() }
        DispatchQueue.concurrentPerform(iterations: 2) { work.parse($0) }
        guard let first = work.slots[0], let second = work.slots[1], let head = first.root,
              first.answering == second.answering else { return nil }
        var events = first.events
        events.reserveCapacity(first.events.count + second.events.count)
        events += second.events
        return Halves(head: head, events: events, answering: first.answering)
    }
}

/// Each half's parse, on its own thread, into a slot of its own, read by the caller
/// once `concurrentPerform` has returned (which orders the writes before the reads).
/// The second half's tree is freed on its thread: only its events are kept.
private final class HalfParses: @unchecked Sendable {
    struct Parsed {
        let root: OwnedComponent?
        let events: [ICalEvent]
        let answering: Bool
    }

    let text: Data
    let cut: HalvesCut
    /// Each half's slices of VEVENTs.
    let slices: [[Range<Int>]]
    let file: String
    /// One slot a thread: written by that thread only.
    let slots = UnsafeMutableBufferPointer<Parsed?>.allocate(capacity: 2)

    init(text: Data, cut: HalvesCut, file: String) {
        self.text = text
        self.cut = cut
        slices = [cut.slices(cut.events..<cut.middle, most: ParseInHalves.sliceBytes),
                  cut.slices(cut.middle..<cut.end, most: ParseInHalves.sliceBytes)]
        self.file = file
        slots.initialize(repeating: nil)
    }

    func free() {
        slots.deinitialize()
        slots.deallocate()
    }

    /// Half `i`, slice by slice: the first half's first tree is kept (the calendar's head),
    /// every other one freed once its events are read.
    func parse(_ i: Int) {
        var head: OwnedComponent?, events: [ICalEvent] = [], answering: Bool?
        if let first = slices[i].first, let last = slices[i].last {
            events.reserveCapacity(cut.starts.count { $0 >= first.lowerBound && $0 < last.upperBound })
        }
        for (k, slice) in slices[i].enumerated() {
            let part = text.withUnsafeBytes { raw in Data(raw[..<cut.events]) + Data(raw[slice]) + Data(raw[cut.end...]) }
            guard let root = try? OwnedComponent.checked(part, file: file),
                  icalcomponent_isa(root.pointer) == ICAL_VCALENDAR_COMPONENT else { return }
            let answers = ICalWalk.answers(root.pointer)
            guard answering == nil || answering == answers else { return }
            answering = answers
            events += ICalWalk.children(of: root.pointer, kind: ICAL_VEVENT_COMPONENT).map(ICalEventReader.event(from:))
            if i == 0 && k == 0 { head = root }
        }
        slots[i] = Parsed(root: head, events: events, answering: answering ?? false)
    }
}

/// Where a checked text can be cut in two for `ParseInHalves`: `events`, the
/// start of its first VEVENT line; `middle`, the start of the first VEVENT line from
/// halfway through its events on; `end`, the start of its `END:VCALENDAR` line. Only
/// for one VCALENDAR in which nothing but VEVENTs follows the first VEVENT, every
/// BEGIN closed by its END, and nothing but blank lines after it; nil otherwise.
struct HalvesCut {
    let events: Int
    let middle: Int
    let end: Int
    /// Where each VEVENT starts.
    let starts: [Int]

    /// `range` (from an event's start to another's or the end) in slices that start at
    /// events, each ending at the first event start `most` bytes or more past its own.
    func slices(_ range: Range<Int>, most: Int) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var low = range.lowerBound
        for s in starts where s > low && s < range.upperBound && s - low >= most {
            found.append(low..<s)
            low = s
        }
        found.append(low..<range.upperBound)
        return found
    }

    init?(_ raw: UnsafeRawBufferPointer) {
        guard let base = raw.baseAddress else { return nil }
        let bytes = raw.bindMemory(to: UInt8.self)
        let (begin, endLine) = (Array("BEGIN:".utf8), Array("END:".utf8))
        let (vevent, vcalendar) = (Array("VEVENT".utf8), Array("VCALENDAR".utf8))
        var stack: [[UInt8]] = []
        var firstEvent: Int?, eventStarts: [Int] = [], end: Int?
        var at = 0
        while at < bytes.count {
            let lineEnd = memchr(base + at, 0x0A, bytes.count - at).map { base.distance(to: UnsafeRawPointer($0)) } ?? bytes.count
            var content = bytes[at..<lineEnd]
            if content.last == 0x0D { content = content.dropLast() }
            defer { at = lineEnd + 1 }
            if end != nil {
                // After END:VCALENDAR: blank lines only.
                guard content.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return nil }
                continue
            }
            // Only a line that starts with B or E can open or close a component.
            let initial = content.first.map { $0 | 0x20 }
            let line = initial == 0x62 || initial == 0x65 ? content.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 } : []
            if line.starts(with: begin) {
                let name = Array(line.dropFirst(begin.count))
                if stack.count == 1 && name == vevent {
                    if firstEvent == nil { firstEvent = at }
                    eventStarts.append(at)
                } else if firstEvent != nil && stack.count == 1 {
                    return nil
                }
                guard !stack.isEmpty || name == vcalendar else { return nil }
                stack.append(name)
            } else if line.starts(with: endLine) {
                guard let open = stack.popLast(), open == Array(line.dropFirst(endLine.count)) else { return nil }
                if stack.isEmpty { end = at }
            } else if firstEvent != nil && stack.count == 1 {
                // Between the VEVENTs: nothing else.
                return nil
            } else if stack.isEmpty && !content.isEmpty {
                return nil
            }
        }
        guard let firstEvent, let end, eventStarts.count >= 2 else { return nil }
        let half = firstEvent + (end - firstEvent) / 2
        guard let middle = eventStarts.first(where: { $0 >= half }) ?? eventStarts.last, middle > firstEvent else { return nil }
        (events, self.middle, self.end, starts) = (firstEvent, middle, end, eventStarts)
    }
}
