import Foundation
import Testing

/// Every call that changes a file goes through the funnel (`SystemCalls` in
/// CoolcalSupport: traced, its errors carrying the call, the path and errno), so a
/// test can see the order of writes and one place decides how a failure reads (issue
/// #47). A call written anywhere else fails here: `rename(`, `Glibc.rename(`, or one of
/// Foundation's writers. A method of coolcal's own that shares a call's name is called
/// qualified (`Self.open(`, `self.write(`), so the rule needs no list of exceptions but
/// the one below.
@Suite struct RawSystemCallTests {
    static let calls = ["open", "openat", "rename", "renameat", "renameat2", "fsync", "fdatasync", "unlink", "unlinkat",
                        "flock", "fchmod", "chmod", "mkdir", "write", "pwrite", "copy_file_range", "linkat", "ftruncate",
                        "fchown", "symlink"]
    static let foundationWriters = ["FileManager.default.createFile(", "FileManager.default.createDirectory(",
                                    "FileManager.default.moveItem(", "FileManager.default.copyItem(",
                                    "FileManager.default.removeItem(", "FileManager.default.replaceItem",
                                    "FileHandle(forWritingAtPath:", "FileHandle(forWritingTo:", "FileHandle(forUpdating",
                                    ".write(toFile:", ".write(to:"]
    /// The funnel's own files.
    static func isFunnel(_ path: String) -> Bool {
        path.hasPrefix("CoolcalSupport/SystemCalls")
    }
    /// The one call made outside it, and why: a signal handler must not take the trace's lock.
    static let exceptions: Set<String> = ["CoolcalSupport/TerminalMode.swift: Glibc.write("]

    /// The raw calls in one line of Swift (its comment and string literals left out).
    static func rawCalls(in line: String) -> [String] {
        let code = codeOnly(line)
        var found: [String] = []
        let characters = Array(code)
        for name in calls {
            var from = code.startIndex
            while let hit = code.range(of: name + "(", range: from..<code.endIndex) {
                from = hit.upperBound
                let offset = code.distance(from: code.startIndex, to: hit.lowerBound)
                let before = offset > 0 ? characters[offset - 1] : " "
                let prefix = String(characters[..<offset])
                if prefix.hasSuffix("Glibc.") {
                    found.append("Glibc.\(name)(")
                } else if !(before.isLetter || before.isNumber || before == "_" || before == "." || before == "`")
                            && !prefix.hasSuffix("func ") && !prefix.hasSuffix("case ") {
                    found.append("\(name)(")
                }
            }
        }
        for writer in foundationWriters where code.contains(writer) {
            // The funnel's own atomic writer is called `AtomicFile.write(to:`.
            if writer == ".write(to:" && code.components(separatedBy: writer).dropLast().allSatisfy({ $0.hasSuffix("AtomicFile") || $0.hasSuffix("Self") }) {
                continue
            }
            found.append(writer)
        }
        return found
    }

    /// `line` without its `//` comment and the insides of its string literals.
    static func codeOnly(_ line: String) -> String {
        var out = ""
        var inString = false
        var previous: Character = " "
        for character in line {
            if !inString && previous == "/" && character == "/" { out.removeLast(); break }
            if character == "\"" && previous != "\\" { inString.toggle(); out.append(character) }
            else if !inString { out.append(character) }
            previous = character
        }
        return out
    }

    @Test func fileChangingCallsGoThroughTheFunnel() throws {
        var found: [String] = []
        var funnelCalls = 0
        for file in try LayeringTests.files() {
            for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.hasPrefix("//"), !trimmed.hasPrefix("///") else { continue }
                for call in Self.rawCalls(in: String(line)) {
                    if Self.isFunnel(file.path) { funnelCalls += 1; continue }
                    if Self.exceptions.contains("\(file.path): \(call)") { continue }
                    found.append("\(file.path):\(number + 1): \(call) outside the funnel (SystemCalls)")
                }
            }
        }
        #expect(funnelCalls >= 10, "the scan finds nothing in the funnel itself")
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// What the rule matches and what it leaves, on lines written here.
    @Test func theRuleMatchesCallsNotNames() {
        #expect(Self.rawCalls(in: "        _ = rename(from, to)") == ["rename("])
        #expect(Self.rawCalls(in: "        _ = Glibc.rename(from, to)") == ["Glibc.rename("])
        #expect(Self.rawCalls(in: "        try FileManager.default.removeItem(atPath: p)") == ["FileManager.default.removeItem("])
        #expect(Self.rawCalls(in: "        try data.write(to: url)") == [".write(to:"])
        #expect(Self.rawCalls(in: "        try SystemCalls.rename(a, b)").isEmpty)
        #expect(Self.rawCalls(in: "        try AtomicFile.write(to: path, keeping: nil)").isEmpty)
        #expect(Self.rawCalls(in: "    package static func rename(_ from: String, _ to: String) {").isEmpty)
        #expect(Self.rawCalls(in: "        try self.write(changes: [c])").isEmpty)
        #expect(Self.rawCalls(in: "    case write(partstat: String)").isEmpty)
        #expect(Self.rawCalls(in: "        let x = overwrite(a) // rename(a, b)").isEmpty)
        #expect(Self.rawCalls(in: "        note(\"rename(\\(a))\")").isEmpty)
    }
}
