import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalWriting
@testable import CoolcalTestSupport

/// A writer killed between its temp file and the rename leaves `.NAME.coolcal-PID-N.tmp`
/// beside the calendar; the next write removes it while it holds the lock (no live writer
/// owns one then), and nothing else beside the calendar (SECURITY.md, AtomicFile).
@Suite struct StaleTemporaryTests {
    @Test func theNextWriteRemovesAKilledWritersTempFileAndNothingElse() throws {
        let dir = try WriteOrderTests.scratch("stale")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/cal.ics"
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + vevent("old@t", "DTSTART:20240101T100000Z")
            + "END:VCALENDAR\r\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let stale = dir + "/.cal.ics.coolcal-4242-0.tmp"
        // Not a temp file of this calendar's writers: another calendar's, and other names.
        let kept = [dir + "/.other.ics.coolcal-4242-0.tmp", dir + "/.cal.ics.coolcal-notes.txt", dir + "/cal.ics.coolcal-1-0.tmp"]
        for path in [stale] + kept { try Data("half a calendar".utf8).write(to: URL(fileURLWithPath: path)) }
        let calls = try SystemCalls.recording {
            _ = try CalendarWriter(lockTimeout: 5).write(change: WriteOrderTests.event("new@t"), to: .file(file),
                                                          window: WriteOrderTests.window)
        }
        #expect(!FileManager.default.fileExists(atPath: stale), "the killed writer's temp file is still there")
        for path in kept { #expect(FileManager.default.fileExists(atPath: path), "\(path) was removed") }
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("UID:new@t"))
        // Removed under the lock: after it is taken, before it is released.
        let lock = dir + "/.cal.ics.coolcal-lock"
        let taken = calls.firstIndex { $0.name == "flock" && $0.path == lock }
        let removed = calls.firstIndex { $0.name == "unlink" && $0.path == stale }
        let released = calls.lastIndex { $0.name == "close" && $0.path == lock }
        #expect(taken != nil && removed != nil && released != nil, "\(calls)")
        if let taken, let removed, let released { #expect(taken < removed && removed < released, "\(calls)") }
    }
}
