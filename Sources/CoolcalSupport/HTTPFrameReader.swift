import Foundation
import Glibc

/// Reads `HTTPWire`'s frames from a pipe, one at a time, by a deadline or without one
/// (the helper waits for its next request as long as coolcal runs).
package struct HTTPFrameReader: Sendable {
    package enum Next: Sendable, Equatable {
        /// A frame's fields (its header line gone).
        case frame(Data)
        /// The deadline passed first.
        case timedOut
        /// The pipe's end, an error, or what is not a frame's header.
        case ended
    }

    /// What was read past the last frame.
    private var pending = Data()

    package init() {}

    package mutating func next(from fd: Int32, until deadline: ContinuousClock.Instant? = nil) -> Next {
        var length: Int?
        var fieldsStart = 0
        while true {
            if length == nil, let newline = pending.firstIndex(of: 0x0A) {
                guard let count = HTTPWire.frameLength(pending[pending.startIndex..<newline]) else { return .ended }
                length = count
                fieldsStart = newline + 1 - pending.startIndex
            }
            // A header line longer than any frame's is not one.
            if length == nil && pending.count > 64 { return .ended }
            if let length, pending.count - fieldsStart >= length {
                let start = pending.startIndex + fieldsStart
                let fields = Data(pending[start..<(start + length)])
                pending = Data(pending[(start + length)...])
                return .frame(fields)
            }
            switch readMore(fd, until: deadline) {
            case .frame: continue
            case let other: return other
            }
        }
    }

    /// Appends what the pipe has (`.frame` standing for "read some").
    private mutating func readMore(_ fd: Int32, until deadline: ContinuousClock.Instant?) -> Next {
        if let deadline {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .timedOut }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard let ready = try? SystemCalls.poll(fd, events: Int16(POLLIN), timeout: milliseconds) else { return .ended }
            if ready == 0 { return .timedOut }
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let n = buffer.withUnsafeMutableBytes { (try? SystemCalls.read(fd, into: $0)) ?? 0 }
        guard n > 0 else { return .ended }
        pending.append(contentsOf: buffer[0..<n])
        return .frame(Data())
    }
}
