import Foundation
import Testing

/// The house rules the compiler does not check: folders form layers whose arrows
/// point down, each C library is imported by its own folder only, files stay small.
@Suite struct LayeringTests {
    /// Bottom first. A file may use types declared in its own folder or a lower one.
    static let layers = ["Model", "Support", "Desktop", "Mail", "ICal", "Calendars", "Invite", "State", "CalDAV", "Schedule", "Writing",
                         "Spool", "RSVP", "Output", "Check", "CLI"]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    struct SourceFile {
        var path: String
        var folder: String
        var text: String
        /// Without comments and string literals, where type names are looked for.
        var code: String
    }

    static func files() throws -> [SourceFile] {
        let kit = sources.appendingPathComponent("CoolcalKit")
        guard let walker = FileManager.default.enumerator(atPath: kit.path) else { return [] }
        var files: [SourceFile] = []
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: kit.appendingPathComponent(relative), encoding: .utf8)
            let folder = String(relative.split(separator: "/").first ?? "")
            files.append(SourceFile(path: relative, folder: folder, text: text, code: strip(text)))
        }
        return files
    }

    /// Drops `//` comments and the insides of one-line string literals.
    static func strip(_ text: String) -> String {
        var out = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var inString = false, escaped = false, previous: Character = " "
            for c in line {
                if inString {
                    if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                    continue
                }
                if c == "/" && previous == "/" { out.removeLast(); break }
                if c == "\"" { inString = true }
                out.append(c)
                previous = c
            }
            out.append("\n")
        }
        return out
    }

    /// Names declared at the top level of a file (not nested ones).
    static func declarations(_ code: String) -> [String] {
        let kinds = ["struct ", "enum ", "class ", "protocol ", "typealias ", "actor "]
        var names: [String] = []
        for line in code.split(separator: "\n") where !line.hasPrefix(" ") {
            var rest = Substring(line)
            for modifier in ["public ", "internal ", "private ", "fileprivate ", "final "] where rest.hasPrefix(modifier) {
                rest = rest.dropFirst(modifier.count)
            }
            if rest.hasPrefix("final ") { rest = rest.dropFirst(6) }
            guard let kind = kinds.first(where: { rest.hasPrefix($0) }) else { continue }
            let name = rest.dropFirst(kind.count).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if let first = name.first, first.isUppercase { names.append(String(name)) }
        }
        return names
    }

    static func identifiers(_ code: String) -> Set<String> {
        var result: Set<String> = []
        var current = ""
        for c in code {
            if c.isLetter || c.isNumber || c == "_" { current.append(c); continue }
            if let first = current.first, first.isUppercase { result.insert(current) }
            current = ""
        }
        return result
    }

    @Test func everyFolderIsALayer() throws {
        let folders = Set(try Self.files().map(\.folder))
        #expect(folders.subtracting(Self.layers).isEmpty, "folders not in the layer list: \(folders.subtracting(Self.layers))")
    }

    @Test func arrowsPointDown() throws {
        let files = try Self.files()
        var owner: [String: String] = [:]
        for file in files { for name in Self.declarations(file.code) { owner[name] = file.folder } }
        #expect(owner["TimeWindow"] == "Model" && owner["CommandTable"] == "CLI", "the declaration scan finds nothing")
        var upward: [String] = []
        for file in files {
            guard let rank = Self.layers.firstIndex(of: file.folder) else { continue }
            for name in Self.identifiers(file.code).sorted() {
                guard let folder = owner[name], let used = Self.layers.firstIndex(of: folder), used > rank else { continue }
                upward.append("\(file.path) uses \(name) from \(folder)")
            }
        }
        #expect(upward.isEmpty, "\(upward.joined(separator: "\n"))")
    }

    /// The scan itself finds an upward use when there is one.
    @Test func theScanSeesAnUpwardUse() {
        let code = Self.strip("let w = TimeWindow(start: 0, end: 1) // CommandTable\nlet s = \"CommandTable\"\n")
        #expect(Self.identifiers(code) == ["TimeWindow"])
        #expect(Self.declarations("public final class Foo {\n  struct Nested {}\n}\nenum Bar {}\n") == ["Foo", "Bar"])
    }

    @Test func cLibrariesStayInTheirFolders() throws {
        for file in try Self.files() {
            for line in file.text.split(separator: "\n") where line.contains("import CLibical") || line.contains("import CSQLite") || line.contains("import CGMime") || line.contains("import CGio") {
                let library = line.contains("CLibical") ? "ICal" : line.contains("CSQLite") ? "State" : line.contains("CGio") ? "Desktop" : "Mail"
                #expect(file.folder == library, "\(file.path) imports a C library of \(library)/")
                // SE-0409: the C types cannot leak out through a public declaration.
                #expect(line.hasPrefix("internal import"), "\(file.path): '\(line)' is not an internal import")
            }
        }
    }

    @Test func filesStaySmall() throws {
        for file in try Self.files() {
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            #expect(lines <= 400, "\(file.path) has \(lines) lines")
        }
    }
}
