import Foundation
import Testing

/// Issue #46 item 8: the man page's EXAMPLES, run as written — each `.Bd -literal` block
/// that starts with `$ ` is one shell script, run in a temporary HOME holding a copy of
/// samples/ (TZ=UTC, LC_ALL=C, no config, the built coolcal first on PATH); what each
/// command prints (standard error, then standard output) must be the lines under it.
/// The blocks that need more than that (the FILES config, an inviting server, the inbox a
/// merge filled, systemd, cron, jq) are listed in `needsMore`, by their first command.
@Suite struct ManExamplesTests {
    struct Step {
        var command: String
        var expected: String
    }

    /// The runnable blocks' first commands that are not run here, and why.
    static let needsMore: [String: String] = [
        "coolcal conflicts --json --me me@example.com samples/invite.json samples/work.ics samples/family.ics samples/vdir |":
            "jq",
        "coolcal conflicts --json --buffer 30m - samples/work.ics samples/family.ics < samples/invite.json | jq -c '.window'": "jq",
        "coolcal conflicts --json --suggest 2 --weekends --hours 08:30-24:00 --me me@example.com samples/invite.json samples/work.ics samples/family.ics samples/vdir | jq -c '.suggestions[]'": "jq",
        "coolcal events --json --from 2022-08-20T07:00:00Z --to 2022-08-21T07:00:00Z samples/work.ics samples/family.ics": "output not shown",
    ]

    /// The blocks of EXAMPLES that start with a command, each as its steps.
    static func blocks() throws -> [[Step]] {
        let man = try ManPageTests.manPage().components(separatedBy: "\n")
        guard let start = man.firstIndex(of: ".Sh EXAMPLES"),
              let end = man[(start + 1)...].firstIndex(where: { $0.hasPrefix(".Sh ") }) else { return [] }
        var blocks: [[String]] = []
        var current: [String]?
        for line in man[start..<end] {
            if line.hasPrefix(".Bd -literal") { current = []; continue }
            if line == ".Ed", let block = current { blocks.append(block); current = nil; continue }
            current?.append(line.replacingOccurrences(of: "\\e", with: "\\"))
        }
        return blocks.filter { $0.first?.hasPrefix("$ ") == true }.map(steps)
    }

    /// `$ ` lines (continued after a trailing `\` or `|`), each with the lines under it.
    static func steps(_ lines: [String]) -> [Step] {
        var steps: [Step] = []
        var i = 0
        while i < lines.count {
            var command = String(lines[i].dropFirst(2))
            i += 1
            while i < lines.count, command.hasSuffix("\\") || command.hasSuffix("|") {
                command = command.hasSuffix("\\") ? String(command.dropLast()) + " " + lines[i].trimmingCharacters(in: .whitespaces)
                    : command + "\n" + lines[i]
                i += 1
            }
            var output: [String] = []
            while i < lines.count, !lines[i].hasPrefix("$ ") { output.append(lines[i]); i += 1 }
            steps.append(Step(command: command.replacingOccurrences(of: "  ", with: " "), expected: output.joined(separator: "\n")))
        }
        return steps
    }

    /// Whether this block can run with samples/ alone: only coolcal, echo, mkdir, cp, ls.
    static func runnable(_ block: [Step]) -> Bool {
        guard let first = block.first, needsMore[first.command.components(separatedBy: "\n")[0]] == nil,
              needsMore[first.command] == nil else { return false }
        let programs: Set<String> = ["coolcal", "echo", "mkdir", "cp", "ls"]
        // Commands that need a config file, a state other blocks filled, or a server.
        let needing: Set<String> = ["inbox", "review", "outbox", "responses", "comment", "config", "help", "merge", "process", "notify",
                                    "accept", "decline", "reply", "known"]
        return block.allSatisfy { step in
            let words = step.command.split(separator: " ").map(String.init)
            guard let program = words.first, programs.contains(program) else { return false }
            if program == "coolcal", words.count > 1, needing.contains(words[1]) { return false }
            return !step.command.contains("| ") && !step.command.contains("~")
        }
    }

    @Test func theRunnableExamplesPrintWhatTheyShow() throws {
        let blocks = try Self.blocks().filter(Self.runnable)
        #expect(blocks.count >= 4, "the conflicts and events examples are found")
        for block in blocks {
            let home = try Spawn.directory()
            try FileManager.default.copyItem(atPath: Binary.root.appendingPathComponent("samples").path, toPath: home + "/samples")
            // One shell for the block (so `echo $?` sees the command before), a marker between steps.
            let script = block.map { "\($0.command) 2>&1\nstatus=$?\necho '@@step'\n(exit $status)" }.joined(separator: "\n")
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", script]
            shell.currentDirectoryURL = URL(fileURLWithPath: home)
            let bin = URL(fileURLWithPath: Binary.path).deletingLastPathComponent().path
            shell.environment = ["PATH": bin + ":/usr/bin:/bin", "HOME": home, "TZ": "UTC", "LC_ALL": "C",
                                 "XDG_CONFIG_HOME": home + "/.config", "COLUMNS": "60"]
            let out = Pipe()
            shell.standardOutput = out
            try shell.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            shell.waitUntilExit()
            let got = text.components(separatedBy: "@@step\n")
            for (i, step) in block.enumerated() {
                let printed = i < got.count ? got[i] : "(nothing)"
                #expect(printed == step.expected + (step.expected.isEmpty ? "" : "\n"), "$ \(step.command)")
            }
        }
    }
}
