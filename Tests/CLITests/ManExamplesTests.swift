import Foundation
import Testing

/// Issue #46 item 8: the man page's EXAMPLES, run as written — each `.Bd -literal` block
/// that starts with `$ ` is one shell script, run in a temporary HOME holding a copy of
/// samples/ (TZ=UTC, LC_ALL=C, no config, the built coolcal first on PATH); what each
/// command prints (standard output and standard error as one stream, as a terminal shows
/// them) must be the lines under it. The blocks that need more than that (the FILES config,
/// an inviting server, systemd, cron) are found by their commands; those whose output is
/// not shown or that read what another block left are listed in `needsMore`.
@Suite struct ManExamplesTests {
    struct Step {
        var command: String
        var expected: String
    }

    /// The runnable blocks' first commands that are not run here, and why.
    static let needsMore: [String: String] = [
        "coolcal events --json --from 2022-08-20T07:00:00Z --to 2022-08-21T07:00:00Z samples/work.ics samples/family.ics": "output not shown",
        "jq -c '[.outcome, .report.free, (.report.conflicts | length)]' spool/done/0001.json.outcome": "the spool the block before filled",
    ]

    /// jq, which the JSON examples pipe into, when it is installed (it is no test dependency:
    /// without it those blocks are not run, and the test says so).
    static let jq = FileManager.default.isExecutableFile(atPath: "/usr/bin/jq")

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
        let programs = Set(["coolcal", "echo", "mkdir", "cp", "ls"] + (jq ? ["jq"] : []))
        // Commands that need a config file, a state other blocks filled, or a server.
        let needing: Set<String> = ["inbox", "review", "outbox", "responses", "comment", "config", "help", "process", "notify",
                                    "decline", "reply", "known"]
        // Each command of a pipeline (`|` ends a word; jq's own filters are quoted).
        let unquoted = { (command: String) in command.split(separator: "'", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: "''") }
        return block.allSatisfy { step in
            !step.command.contains("~") && unquoted(step.command).split(separator: "|").allSatisfy { part in
                let words = part.split(whereSeparator: \.isWhitespace).map(String.init)
                guard let program = words.first, programs.contains(program) else { return false }
                return !(program == "coolcal" && words.count > 1 && needing.contains(words[1]))
            }
        }
    }

    @Test func theRunnableExamplesPrintWhatTheyShow() throws {
        let blocks = try Self.blocks().filter(Self.runnable)
        #expect(blocks.count >= (Self.jq ? 9 : 6), "the conflicts, events, accept and merge examples (and jq's) are found")
        if !Self.jq { print("note: jq is not installed; the EXAMPLES that pipe into jq are not run") }
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
