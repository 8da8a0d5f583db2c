import Foundation
import Testing
@testable import CLITests

/// The last window before `rename` (hardening II, class 5): an editor that saves by
/// atomic rename in the moment coolcal's temporary file appears. coolcal compares the
/// calendar with what it read right before its own rename, after the fsync, so the
/// editor's change is never lost: coolcal reads again and includes it, or gives up (75).
@Suite(.serialized) struct RenameRaceTests {
    static let trials = 20

    /// Polls the directory as fast as it can; when a `.NAME.coolcal-*.tmp` appears,
    /// renames its own prepared version over NAME (once) and says so.
    static let editor = """
    import os, sys, time
    directory, name, prepared = sys.argv[1], sys.argv[2], sys.argv[3]
    prefix = "." + name + ".coolcal-"
    print("ready", flush=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if any(e.startswith(prefix) and e.endswith(".tmp") for e in os.listdir(directory)):
            os.rename(prepared, os.path.join(directory, name))
            print("renamed", flush=True)
            sys.exit(0)
    print("no temporary file seen", flush=True)
    sys.exit(1)
    """

    /// A ~20 MB calendar (CRLF), and the same with the editor's event added.
    static func calendars() -> (original: Data, edited: (Int) -> Data) {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//race//EN\r\n"
        var i = 0
        var body = ""
        while text.utf8.count + body.utf8.count < 20 << 20 {
            let stamp = String(format: "2021%02d%02dT%02d", 1 + i % 12, 1 + i % 28, i % 24)
            body += "BEGIN:VEVENT\r\nUID:event-\(i)@race\r\nSUMMARY:Event \(i) of the big calendar\r\n"
                + "DTSTART:\(stamp)0000Z\r\nDTEND:\(stamp)3000Z\r\nEND:VEVENT\r\n"
            i += 1
            if body.utf8.count > 1 << 20 { text += body; body = "" }
        }
        text += body
        let head = text
        return (Data((head + "END:VCALENDAR\r\n").utf8), { trial in
            Data((head + "BEGIN:VEVENT\r\nUID:editor-\(trial)@race\r\nSUMMARY:Saved by the editor \(trial)\r\n"
                  + "DTSTART:20300101T090000Z\r\nDTEND:20300101T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").utf8)
        })
    }

    /// `accept -v INVITE DIR/NAME` while the editor (`editor`, written to `script`) watches
    /// that file to save `prepared` over it by rename: what coolcal did, and what the editor said.
    static func acceptDuringEditorSave(python: String, script: String, dir: String, name: String, prepared: String,
                                       invite: String) throws -> (run: Spawned, editorSaid: String) {
        let editor = Process()
        editor.executableURL = URL(fileURLWithPath: python)
        editor.arguments = [script, dir, name, prepared]
        let said = Pipe()
        editor.standardOutput = said
        try editor.run()
        // Wait for "ready" so the editor watches before coolcal starts.
        _ = said.fileHandleForReading.availableData
        let run = try Spawn.run(["accept", "-v", invite, dir + "/" + name], env: ["COOLCAL_STATE": dir + "/state"],
                                cpuLimit: 60, watchdog: 120)
        editor.waitUntilExit()
        return (run, String(decoding: said.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test func anEditorsRenameDuringTheWriteSurvives() throws {
        // python3 is part of the build (make deps): without it this drill fails, never passes unseen.
        let python = try #require(["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile),
                                  "no python3 to run the editor")
        let dir = try Spawn.directory()
        let cal = dir + "/work.ics", prepared = dir + "/.editor-version", script = dir + "/editor.py"
        try Data(Self.editor.utf8).write(to: URL(fileURLWithPath: script))
        let invite = dir + "/invite.json"
        try Data(#"{"title": "Race", "start": "2030-01-02T10:00:00Z", "end": "2030-01-02T11:00:00Z", "id": 77}"#.utf8)
            .write(to: URL(fileURLWithPath: invite))
        let (original, edited) = Self.calendars()
        var survived = 0, retried = 0, merged = 0, gaveUp = 0, renamed = 0
        var cpu: [Double] = []
        for trial in 0..<Self.trials {
            try original.write(to: URL(fileURLWithPath: cal))
            try edited(trial).write(to: URL(fileURLWithPath: prepared))
            let (run, editorSaid) = try Self.acceptDuringEditorSave(python: python, script: script, dir: dir, name: "work.ics",
                                                                    prepared: prepared, invite: invite)
            if editorSaid.contains("renamed") { renamed += 1 }
            cpu.append(run.cpuSeconds)
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: cal)), as: UTF8.self)
            let editorsEvent = text.contains("UID:editor-\(trial)@race\r\n")
            if editorsEvent { survived += 1 }
            if run.stderr.contains("changed by another program while being edited") { retried += 1 }
            if run.status == 0 && editorsEvent && text.contains("X-COOLCAL-INVITE-ID:77\r\n") { merged += 1 }
            if run.status == 75 { gaveUp += 1 }
            #expect(editorsEvent, "trial \(trial): the editor's save was lost (coolcal exit \(run.status)); \(run.stderr.suffix(400))")
            #expect(run.status == 0 || run.status == 75, "trial \(trial): exit \(run.status): \(run.stderr.suffix(400))")
            #expect(!run.hung)
        }
        print("rename race: \(Self.trials) trials, editor renamed in \(renamed), its change survived \(survived), "
              + "coolcal retried \(retried), merged both \(merged), gave up (75) \(gaveUp); "
              + "CPU per accept \(String(format: "%.2f", cpu.min() ?? 0))–\(String(format: "%.2f", cpu.max() ?? 0)) s")
        #expect(renamed == Self.trials, "the editor did not always get its rename in")
        #expect(survived == Self.trials)
    }
}
