import Foundation
import Testing
@testable import CLITests

/// The kill -9, concurrent-writer and changed-behind-its-back drills of DurabilityTests
/// and RenameRaceTests on a 100,000-event calendar (~20 MB), where an edit is written as
/// a splice of the file as read and read back from the temporary file in pieces.
@Suite(.serialized) struct LargeCalendarDrillTests {
    static let events = 100_000
    static let end = Array("END:VCALENDAR\r\n".utf8)

    /// The calendar's bytes up to (not including) its `END:VCALENDAR` line, CRLF.
    static let head: [UInt8] = {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//drill//EN\r\n".utf8)
        text.reserveCapacity(events * 210)
        for i in 0..<events {
            let stamp = "\(2000 + (i / 336) % 30)\(two(1 + (i / 28) % 12))\(two(1 + i % 28))T\(two(8 + i % 9))0000Z"
            text += Array(("BEGIN:VEVENT\r\nUID:event-\(i)@drill\r\nDTSTAMP:20240101T000000Z\r\nDTSTART:\(stamp)\r\n"
                + "DURATION:PT45M\r\nSUMMARY:Meeting \(i)\r\nDESCRIPTION:agenda item \(i); minutes\r\nEND:VEVENT\r\n").utf8)
        }
        return text
    }()

    static var original: Data { Data(head + end) }

    /// A fresh directory holding the calendar as `big.ics`.
    static func calendar() throws -> (dir: String, cal: String) {
        let dir = try Spawn.directory()
        try original.write(to: URL(fileURLWithPath: dir + "/big.ics"))
        return (dir, dir + "/big.ics")
    }

    static func invite(_ id: Int, in dir: String) throws -> String {
        let path = dir + "/invite-\(id).json"
        try Data(DurabilityTests.inviteJSON(id).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func contents(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Whether `bytes` are the calendar with exactly the events of `ids` added before
    /// its `END:VCALENDAR`, in any order, each one whole VEVENT block.
    static func isOriginalPlus(_ bytes: [UInt8], _ ids: Set<Int>) -> Bool {
        guard bytes.count > head.count + end.count, bytes.starts(with: head), bytes.suffix(end.count).elementsEqual(end) else {
            return false
        }
        let added = String(decoding: bytes[head.count..<(bytes.count - end.count)], as: UTF8.self)
        let blocks = added.components(separatedBy: "END:VEVENT\r\n").dropLast()
        guard added.hasSuffix("END:VEVENT\r\n"), blocks.count == ids.count else { return false }
        let found = blocks.compactMap { block -> Int? in
            guard block.hasPrefix("BEGIN:VEVENT\r\n"), block.components(separatedBy: "BEGIN:VEVENT").count == 2,
                  let line = block.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("X-COOLCAL-INVITE-ID:") }) else { return nil }
            return Int(line.dropFirst("X-COOLCAL-INVITE-ID:".count))
        }
        return Set(found) == ids && found.count == ids.count
    }

    static let env = ["XDG_CONFIG_HOME": "/nonexistent", "HOME": Binary.home, "COOLCAL_LOCK_TIMEOUT": "120"]

    /// Killed where the new calendar is complete in its temporary file (before fsync and
    /// rename): the calendar is the old one byte for byte; the next accept lands whole.
    @Test func killedMidWriteLeavesTheOldCalendar() throws {
        let (dir, cal) = try Self.calendar()
        let path = try Self.invite(99, in: dir)
        let (p, said) = try Spawn.pausedAt("after-temp-write", ["accept", path, cal],
                                           env: Self.env.merging(["COOLCAL_STATE": dir + "/state"]) { $1 })
        #expect(said == "coolcal: test hook: paused at after-temp-write\n", "the writer never reached the crash point")
        // The kill lands mid-write: the temporary file is the whole new calendar, not yet renamed.
        let temps = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".tmp") }
        #expect(temps.count == 1 && temps.first?.hasPrefix(".big.ics.coolcal-") == true, "temporary files: \(temps)")
        let pending = try temps.first.map { try Self.contents(dir + "/" + $0) } ?? []
        #expect(Self.isOriginalPlus(pending, [99]), "the temporary file is not the complete new calendar")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGKILL)
        #expect(try Self.contents(cal) == Self.head + Self.end, "the calendar is not the old one, byte for byte")

        let next = try Spawn.run(["accept", path, cal], env: ["COOLCAL_STATE": dir + "/state"], cpuLimit: 60, watchdog: 120)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(Self.isOriginalPlus(try Self.contents(cal), [99]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    /// Two accepts at once into the same large file: the second waits for the lock,
    /// reads what the first wrote, and both land, every byte before them kept.
    @Test func concurrentAcceptsAllLand() throws {
        let (dir, cal) = try Self.calendar()
        var processes: [Process] = []
        for id in 1...2 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Binary.path)
            p.arguments = ["accept", try Self.invite(id, in: dir), cal]
            p.environment = Self.env.merging(["COOLCAL_STATE": dir + "/state"]) { $1 }
            p.standardOutput = FileHandle.nullDevice
            processes.append(p)
        }
        for p in processes { try p.run() }
        for p in processes { p.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationReason == .exit && $0.terminationStatus == 0 })
        #expect(Self.isOriginalPlus(try Self.contents(cal), [1, 2]), "not the calendar plus the two events")
    }

    /// An editor's save (its own rename over the calendar) as soon as coolcal's temporary
    /// file appears: coolcal sees the change before its rename, reads the file again and
    /// writes both; the editor's save is never lost.
    @Test func aChangeBehindItsBackIsDetected() throws {
        // python3 is part of the build (make deps): without it this drill fails, never passes unseen.
        let python = try #require(["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile),
                                  "no python3 to run the editor")
        let (dir, cal) = try Self.calendar()
        let script = dir + "/editor.py", prepared = dir + "/.editor-version"
        try Data(RenameRaceTests.editor.utf8).write(to: URL(fileURLWithPath: script))
        let editorsEvent = Array("BEGIN:VEVENT\r\nUID:editor@drill\r\nSUMMARY:Saved by the editor\r\nDTSTART:20300101T090000Z\r\nDTEND:20300101T100000Z\r\nEND:VEVENT\r\n".utf8)
        try Data(Self.head + editorsEvent + Self.end).write(to: URL(fileURLWithPath: prepared))
        let path = try Self.invite(77, in: dir)
        let (run, editorSaid) = try RenameRaceTests.acceptDuringEditorSave(python: python, script: script, dir: dir, name: "big.ics",
                                                                           prepared: prepared, invite: path)
        #expect(editorSaid.contains("renamed"))
        #expect(run.status == 0, "exit \(run.status): \(run.stderr.suffix(400))")
        #expect(run.stderr.contains("changed by another program while being edited; reading it again"), "\(run.stderr.suffix(400))")
        let now = try Self.contents(cal)
        let both = Self.head + editorsEvent
        #expect(now.starts(with: both) && Self.isOriginalPlus(Array(now[..<Self.head.count]) + Array(now[both.count...]), [77]),
                "not the editor's save plus the accepted event")
    }
}
