import Foundation
import Testing

/// Issue #46, "the README tour run by a test from a clean clone": the repository is cloned
/// (`git clone` of this checkout: a local clone, no network, so offline CI has what it
/// needs) into a temporary directory, and every command of the README's tour — each code
/// block from "A short tour" to "Speed" that starts with `$ ` — is run as written, from the
/// clone's root, in a fresh HOME, after the README's own `export PATH=… TZ=…` line, with
/// standard error and standard output together, as a newcomer's terminal shows them. What
/// a command prints must be the lines under it (`...` stands for any lines), and each
/// exits as the README implies: what a following `$ echo $?` shows, else 0 (`conflicts`:
/// 0 or 1, free or busy). Blocks that mail an organizer, read the user's own mail or need a
/// desktop session are listed in `notRun` with the test that covers them.
///
/// The binary is the one `make demo` builds, at the path the demo prints
/// (`.build/debug/coolcal` in the clone): a symbolic link to this checkout's build
/// (`Binary.path`), since building the clone again would take minutes of the 4 that
/// `make test` may grow by, and the clone's sources are this checkout's.
@Suite(.serialized) struct ReadmeTourTests {
    typealias Step = ManExamplesTests.Step

    /// Blocks of the tour not run here, by the start of their first command, and why.
    static let notRun: [(start: String, why: String)] = [
        ("coolcal reply --me me@example.com --accept --mail ", "mails the organizer (the mail tests run these against an SMTP server)"),
        ("coolcal conflicts - mine/work.ics < message.eml", "reads a mail of your own (message.eml, lunch.eml)"),
        ("coolcal notify --desktop ", "needs a desktop session's D-Bus (DesktopNotifyTests)"),
    ]

    static func notRunReason(_ block: [Step]) -> String? {
        guard let first = block.first?.command else { return nil }
        return notRun.first { first.hasPrefix($0.start) }?.why
    }

    /// Commands whose output the README shortens: only their exit status is checked.
    static let shortened: Set<String> = [
        "coolcal events --json --from 2022-08-20T16:00:00Z --to 2022-08-20T18:00:00Z samples/work.ics",
    ]

    /// The README's code blocks between two headings, each as its lines.
    static func codeBlocks(_ readme: String, from start: String, to end: String) -> [[String]] {
        let lines = readme.components(separatedBy: "\n")
        guard let first = lines.firstIndex(of: start),
              let last = lines[first...].firstIndex(of: end) else { return [] }
        var blocks: [[String]] = []
        var current: [String]?
        for line in lines[first..<last] {
            if line.hasPrefix("```") {
                if let block = current { blocks.append(block); current = nil } else { current = [] }
                continue
            }
            current?.append(line)
        }
        return blocks
    }

    /// Whether `got` is `expected`, a line `...` of it standing for any lines.
    static func matches(_ expected: [String], _ got: [String]) -> Bool {
        guard let line = expected.first else { return got.isEmpty }
        if line.trimmingCharacters(in: .whitespaces) == "..." {
            return (0...got.count).contains { matches(Array(expected.dropFirst()), Array(got.dropFirst($0))) }
        }
        guard let next = got.first, next == line else { return false }
        return matches(Array(expected.dropFirst()), Array(got.dropFirst()))
    }

    /// A printed line as the README writes it: ICU's narrow and thin spaces in times and
    /// ranges (U+202F, U+2009) as plain spaces; and the inbox's age of an invitation the step
    /// before received (`now`, `3 seconds ago` on a slow machine) as `now`.
    static func asWritten(_ line: String) -> String {
        String(String.UnicodeScalarView(line.unicodeScalars.map { [0x202F, 0x2009].contains($0.value) ? " " : $0 }))
            .replacingOccurrences(of: "  [0-9]+ seconds? ago  ", with: "  now  ", options: .regularExpression)
    }

    /// Runs `steps` in one shell from `directory`, after `prelude`; each step's status and output.
    static func run(_ steps: [Step], prelude: String, in directory: String, home: String) throws -> [(status: Int32, output: String)] {
        let script = prelude + "\n" + steps.map {
            "\($0.command) 2>&1 </dev/null\nstatus=$?\necho \"@@step $status\"\n(exit $status)"
        }.joined(separator: "\n")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", script]
        shell.currentDirectoryURL = URL(fileURLWithPath: directory)
        shell.environment = ["PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8"]
        let out = Pipe()
        shell.standardOutput = out
        try shell.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        var results: [(Int32, String)] = []
        var output: [String] = []
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("@@step "), let status = Int32(line.dropFirst(7)) {
                results.append((status, output.joined(separator: "\n")))
                output = []
            } else {
                output.append(line)
            }
        }
        return results
    }

    @Test func theTourRunsAsWrittenFromACleanClone() throws {
        guard FileManager.default.fileExists(atPath: Binary.root.appendingPathComponent(".git").path) else {
            print("note: \(Binary.root.path) is not a git checkout; the README tour is not run from a clone")
            return
        }
        let scratch = try Spawn.directory()
        let clone = scratch + "/coolcal", home = scratch + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.arguments = ["clone", "--quiet", Binary.root.path, clone]
        git.environment = ["PATH": "/usr/bin:/bin", "HOME": home, "GIT_CONFIG_NOSYSTEM": "1"]
        try git.run()
        git.waitUntilExit()
        try #require(git.terminationStatus == 0, "git clone failed")
        // Where `make demo` leaves the binary, and where the README's PATH line points.
        try FileManager.default.createDirectory(atPath: clone + "/.build/debug", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: clone + "/.build/debug/coolcal", withDestinationPath: Binary.path)

        let readme = try String(contentsOfFile: clone + "/README.md", encoding: .utf8)
        let exports = readme.components(separatedBy: "\n").filter { $0.hasPrefix("export PATH=") }
        try #require(exports.count == 1, "the README's one line that puts coolcal on PATH")
        let blocks = Self.codeBlocks(readme, from: "## A short tour", to: "## Speed")
            .filter { $0.first?.hasPrefix("$ ") == true }.map(ManExamplesTests.steps)
        #expect(blocks.count >= 6, "the tour's blocks are found")
        let skipped = blocks.compactMap(Self.notRunReason)
        #expect(skipped.count == Self.notRun.count, "every block listed as not run is in the README")

        for steps in blocks where Self.notRunReason(steps) == nil {
            let results = try Self.run(steps, prelude: exports[0], in: clone, home: home)
            try #require(results.count == steps.count, "every step ran: \(steps.map(\.command))")
            for (i, step) in steps.enumerated() {
                let (status, output) = results[i]
                let checkedByEcho = i + 1 < steps.count && steps[i + 1].command == "echo $?"
                // conflicts: 0 free, 1 busy, as the README says after its first run.
                let implied: Set<Int32> = step.command.hasPrefix("coolcal conflicts ") ? [0, 1] : [0]
                #expect(checkedByEcho || implied.contains(status), "$ \(step.command) exited \(status):\n\(output)")
                guard !Self.shortened.contains(step.command) else { continue }
                let expected = step.expected.isEmpty ? [] : step.expected.components(separatedBy: "\n")
                let got = output.isEmpty ? [] : output.components(separatedBy: "\n").map(Self.asWritten)
                #expect(Self.matches(expected, got), "$ \(step.command)\n--- README:\n\(step.expected)\n--- printed:\n\(output)")
            }
        }
    }
}
