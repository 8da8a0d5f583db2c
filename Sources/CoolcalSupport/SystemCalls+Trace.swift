#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The trace of the funnel's calls, for tests (after swift-system's `Mocking.swift`):
/// `recording { ... }` returns every call the process made through `SystemCalls`
/// while `body` ran, in order. Off (no recording running), a call costs one relaxed
/// atomic load; on, each call takes a lock.
///
/// The trace is process-wide: calls other threads make meanwhile (tests running in
/// parallel) are in it too, so a test picks out the paths of its own directory.
extension SystemCalls {
    /// One call: the C function's name and the path it was given, or the path the
    /// descriptor was opened with (while recording; nil when it was opened before);
    /// `rename` and `link` also name their second path, `target`.
    package struct Call: Equatable, Hashable, Sendable, CustomStringConvertible {
        package let name: String
        package let path: String?
        package let target: String?

        package init(_ name: String, _ path: String?, target: String? = nil) {
            self.name = name
            self.path = path
            self.target = target
        }

        /// `fsync /tmp/x/.cal.ics.coolcal-12-0.tmp`, `rename A -> B`.
        package var description: String {
            [name, path ?? "?"].joined(separator: " ") + (target.map { " -> " + $0 } ?? "")
        }
    }

    /// The recordings running, and the path of each descriptor opened meanwhile.
    private struct Trace {
        var next = 0
        var sessions: [Int: [Call]] = [:]
        var files: [Int32: String] = [:]
    }

    /// How many recordings run: the one check a call makes when tracing is off.
    private static let recorders = Atomic<Int>(0)
    private static let trace = Mutex(Trace())

    /// Runs `body` and returns the calls made through the funnel meanwhile (by any
    /// thread), in order. Recordings may nest or overlap: each sees every call.
    package static func recording<E: Error>(_ body: () throws(E) -> Void) throws(E) -> [Call] {
        let id = trace.withLock { trace in
            let id = trace.next
            trace.next += 1
            trace.sessions[id] = []
            return id
        }
        recorders.wrappingAdd(1, ordering: .sequentiallyConsistent)
        let result = Result<Void, E>(catching: body)
        recorders.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        let calls = trace.withLock { trace in
            let calls = trace.sessions.removeValue(forKey: id) ?? []
            if trace.sessions.isEmpty { trace.files = [:] }
            return calls
        }
        try result.get()
        return calls
    }

    /// Whether a recording runs (a relaxed load: a call racing with the start or end
    /// of a recording may or may not be in it).
    @inline(__always)
    static var isRecording: Bool { recorders.load(ordering: .relaxed) > 0 }

    /// Records `name` on `path`, or on the file `fd` was opened as.
    @inline(__always)
    static func note(_ name: String, _ path: String?, fd: Int32? = nil, target: String? = nil) {
        guard isRecording else { return }
        trace.withLock { trace in
            guard !trace.sessions.isEmpty else { return }
            let call = Call(name, path ?? fd.flatMap { trace.files[$0] }, target: target)
            for id in trace.sessions.keys { trace.sessions[id]?.append(call) }
        }
    }

    /// While recording: `fd` is now `path` (an open), or nothing (`path` nil: a close).
    @inline(__always)
    static func remember(_ fd: Int32, as path: String?) {
        guard isRecording else { return }
        trace.withLock { trace in
            guard !trace.sessions.isEmpty else { return }
            trace.files[fd] = path
        }
    }
}
