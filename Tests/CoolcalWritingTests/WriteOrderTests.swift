import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalICal
@testable import CoolcalWriting
@testable import CoolcalTestSupport

/// The order of the system calls that make a calendar write durable, read from the
/// funnel's trace (`SystemCalls.recording`) around the call `accept` makes
/// (`CalendarWriter.write(change:to:window:check:)`): under the lock, the temp file
/// (beside the target) is written, then fsynced and closed on one thread while it is
/// read back on another, renamed over the target only after both, and the directory
/// fsynced; the lock is released last.
@Suite struct WriteOrderTests {
    /// The steps that matter, each once: the fsync and the read-back in either order
    /// (they overlap), every other step in this order.
    static let expected = ["flock lock", "write temp", "fsync temp", "read temp", "close temp", "rename temp", "fsync directory",
                           "close lock"]

    @Test func anICSFileIsReplacedInOrder() throws {
        let dir = try Self.scratch("file")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/cal.ics"
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + vevent("old@t", "DTSTART:20240101T100000Z")
            + "END:VCALENDAR\r\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let calls = try SystemCalls.recording {
            _ = try CalendarWriter(lockTimeout: 5).write(change: Self.event("new@t"), to: .file(file), window: Self.window)
        }
        try Self.checkOrder(calls, target: file, lock: dir + "/.cal.ics.coolcal-lock", directory: dir)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("UID:new@t"))
    }

    @Test func aVdirEventFileIsWrittenInOrder() throws {
        let dir = try Self.scratch("vdir")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let other = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + vevent("other@t", "DTSTART:20240101T100000Z")
            + "END:VCALENDAR\r\n"
        try Data(other.utf8).write(to: URL(fileURLWithPath: dir + "/other.ics"))
        let calls = try SystemCalls.recording {
            _ = try CalendarWriter(lockTimeout: 5).write(change: Self.event("new@t"), to: .vdir(dir), window: Self.window)
        }
        let file = dir + "/new@t.ics"
        try Self.checkOrder(calls, target: file, lock: dir + "/.coolcal-lock", directory: dir)
        #expect(FileManager.default.fileExists(atPath: file))
    }

    /// A failed call is a `SystemCallError` naming the call, the path and the errno,
    /// whose text is the errno's alone (what messages showed before the funnel).
    @Test func aFailedCallNamesItsCallAndPath() throws {
        let missing = "/nonexistent-\(UUID().uuidString)/cal.ics"
        var caught: SystemCallError?
        let calls = SystemCalls.recording {
            do throws(SystemCallError) { _ = try SystemCalls.open(missing, O_RDONLY) } catch { caught = error }
        }
        let error = try #require(caught)
        #expect(error.call == "open" && error.path == missing && error.errno == .noSuchFileOrDirectory)
        #expect(error.description == "No such file or directory")
        #expect(calls.contains(SystemCalls.Call("open", missing)))
    }

    /// Picks the calls on the lock, the temp file and the directory out of `calls`
    /// (other tests' calls are in the trace too) and checks their order. The trace
    /// notes a call as it is made: the temp file's close, made on the fsync's thread
    /// once the fsync returned, is what shows that the fsync was over before the rename.
    static func checkOrder(_ calls: [SystemCalls.Call], target: String, lock: String, directory: String,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let name = URL(fileURLWithPath: target).lastPathComponent
        let tempPrefix = directory + "/." + name + ".coolcal-"
        func isTemp(_ path: String?) -> Bool { path.map { $0.hasPrefix(tempPrefix) && $0.hasSuffix(".tmp") } ?? false }
        var steps: [String] = []
        for call in calls {
            var step: String?
            if call.path == lock && (call.name == "flock" || call.name == "close") {
                step = call.name + " lock"
            } else if isTemp(call.path) && ["write", "fsync", "read", "close"].contains(call.name) {
                step = call.name + " temp"
            } else if isTemp(call.path) && call.name == "rename" {
                #expect(call.target == target, "the temp file is renamed over the target", sourceLocation: sourceLocation)
                step = "rename temp"
            } else if call.path == directory && call.name == "fsync" {
                step = "fsync directory"
            }
            // A run of the same step (write(2) a piece at a time) is one step.
            if let step, steps.last != step { steps.append(step) }
        }
        let temps = Set(calls.compactMap { isTemp($0.path) ? $0.path : nil })
        #expect(temps.count == 1, "one temp file, beside the target: \(temps.sorted())", sourceLocation: sourceLocation)
        func expectBefore(_ first: String, _ then: String, _ why: String) {
            // Every `first` before any `then` (a read-back's reads may be split by the fsync).
            guard let a = steps.lastIndex(of: first), let b = steps.firstIndex(of: then) else {
                Issue.record("\(why): no '\(steps.contains(first) ? then : first)' in \(steps)", sourceLocation: sourceLocation)
                return
            }
            #expect(a < b, "\(why): '\(first)' must come before '\(then)' in \(steps)", sourceLocation: sourceLocation)
        }
        expectBefore("flock lock", "write temp", "the lock is taken before the temp file is written")
        expectBefore("write temp", "fsync temp", "the temp file is fsynced after it is written")
        expectBefore("write temp", "read temp", "the temp file is read back once it is written")
        // Two closes of the temp file: the read-back's and, after the fsync, the writer's;
        // both before the rename (without the wait for the fsync's thread, the writer's
        // close comes after it).
        let closes = calls.filter { isTemp($0.path) && $0.name == "close" }.count
        #expect(closes == 2, "the read-back's close and the writer's: \(steps)", sourceLocation: sourceLocation)
        if let fsync = steps.lastIndex(of: "fsync temp"), let close = steps.lastIndex(of: "close temp") {
            #expect(fsync < close, "the temp file is closed after its fsync: \(steps)", sourceLocation: sourceLocation)
        }
        expectBefore("close temp", "rename temp", "the fsync is over before the temp file replaces the target")
        expectBefore("read temp", "rename temp", "the temp file is read back before it replaces the target")
        expectBefore("rename temp", "fsync directory", "the directory is fsynced after the rename")
        expectBefore("rename temp", "close lock", "the lock is released after the rename")
        expectBefore("fsync directory", "close lock", "the lock is released after the directory is fsynced")
        #expect(calls.filter { isTemp($0.path) && $0.name == "fsync" }.count == 1, "one fsync: \(steps)",
                sourceLocation: sourceLocation)
        #expect(Set(steps) == Set(expected), "the write's steps: \(steps)", sourceLocation: sourceLocation)
    }

    static let window = TimeWindow(start: 0, end: 1)

    static func event(_ uid: String) -> NewEvent {
        NewEvent(uid: uid, summary: "Order", start: .instant(1_704_103_200), end: .instant(1_704_106_800),
                 sequence: 0, stamp: Date(timeIntervalSince1970: 0), inviteID: uid)
    }

    /// A new directory, by its real path (the writer resolves symbolic links).
    static func scratch(_ name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-order-\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return try SystemCalls.realpath(dir)
    }
}
