import Foundation
import Testing

/// A target's declared dependencies are exactly what it imports (issue #47): an import
/// not declared fails the build already (`--explicit-target-dependency-import-check`),
/// a declaration nothing imports fails here — it would let a layer reach up or across
/// unseen the day someone imports it. Test targets too. The manifest is read as SwiftPM
/// reads it (`swift package dump-package`), not parsed from Package.swift's text.
@Suite struct DependencyTests {
    struct Target {
        var name: String
        var kind: String
        var path: String
        var dependencies: Set<String>
    }

    static func targets() throws -> [Target] {
        let dump = Process()
        dump.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A scratch path of its own: `swift test` holds the lock on the package's `.build`.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-dump-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        dump.arguments = ["swift", "package", "--package-path", LayeringTests.root.path, "--scratch-path", scratch, "dump-package"]
        let out = Pipe()
        dump.standardOutput = out
        dump.standardError = FileHandle.nullDevice
        try dump.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        dump.waitUntilExit()
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let targets = json?["targets"] as? [[String: Any]] ?? []
        return targets.compactMap { target in
            guard let name = target["name"] as? String, let kind = target["type"] as? String, kind != "system" else { return nil }
            // Each dependency is `{"byName": [NAME, null]}` (or `target`/`product`): the name first.
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { entry in
                (entry.values.first as? [Any])?.first as? String
            }
            let path = target["path"] as? String ?? (kind == "test" ? "Tests/" : "Sources/") + name
            return Target(name: name, kind: kind, path: path, dependencies: Set(dependencies))
        }
    }

    /// The modules `import`ed by the Swift files under `folder` (any access level,
    /// `@testable`, a kind-qualified `import struct X.Y`), as the module names.
    static func imports(under folder: URL) throws -> Set<String> {
        var modules: Set<String> = []
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return modules }
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(relative), encoding: .utf8)
            for line in text.split(separator: "\n") {
                if let module = importedModule(String(line)) { modules.insert(module) }
            }
        }
        return modules
    }

    static func importedModule(_ line: String) -> String? {
        var words = line.split(separator: " ").map(String.init)
        while let first = words.first, first.hasPrefix("@") || ["internal", "package", "public", "private", "fileprivate"].contains(first) {
            words.removeFirst()
        }
        guard words.first == "import", words.count >= 2 else { return nil }
        let kinds: Set<String> = ["struct", "class", "enum", "func", "var", "let", "protocol", "typealias"]
        let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
        return path.split(separator: ".").first.map(String.init)
    }

    /// The two messages the rule speaks in, for every target of the manifest.
    static func violations(_ targets: [Target], imports: (Target) throws -> Set<String>) rethrows -> [String] {
        let names = Set(targets.map(\.name)).union(["CLibical", "CSQLite", "CGMime", "CGio", "CLinux", "CChecksum"])
        var found: [String] = []
        for target in targets {
            let used = try imports(target).intersection(names)
            for dependency in target.dependencies.subtracting(used).sorted() {
                found.append("\(target.name) declares \(dependency) but never imports it")
            }
            for dependency in used.subtracting(target.dependencies).subtracting([target.name]).sorted() {
                found.append("\(target.name) imports \(dependency) without declaring it")
            }
        }
        return found
    }

    @Test func declaredDependenciesAreExactlyTheImports() throws {
        let targets = try Self.targets()
        #expect(targets.contains { $0.kind == "test" } && targets.count >= 20, "the manifest was not read: \(targets.map(\.name))")
        let found = try Self.violations(targets) { try Self.imports(under: LayeringTests.root.appendingPathComponent($0.path)) }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// Every folder of `Tests/` holding Swift files is a test target's: a file left in a
    /// folder no target names (the unit tests were one `CoolcalKitTests` target before #47)
    /// would be built by nothing and its tests never run.
    @Test func everyTestFolderIsATarget() throws {
        let targets = try Self.targets()
        let paths = Set(targets.map(\.path))
        let tests = LayeringTests.root.appendingPathComponent("Tests")
        var orphans: [String] = []
        for folder in try FileManager.default.contentsOfDirectory(atPath: tests.path).sorted() {
            let swift = FileManager.default.enumerator(atPath: tests.appendingPathComponent(folder).path)?
                .contains { ($0 as? String)?.hasSuffix(".swift") == true } ?? false
            if swift && !paths.contains("Tests/" + folder) { orphans.append("Tests/" + folder) }
        }
        #expect(paths.contains("Tests/HouseRulesTests"), "the manifest was not read: \(paths.sorted())")
        #expect(orphans.isEmpty, "Swift files in folders no target builds: \(orphans)")
    }

    /// The rule's two messages, on a made-up manifest: it can fail, and says which way.
    @Test func theRuleNamesBothWaysOfBreakingIt() {
        let targets = [Target(name: "CoolcalCLI", kind: "regular", path: "", dependencies: ["CoolcalModel", "CoolcalCalDAV"]),
                       Target(name: "CoolcalModel", kind: "regular", path: "", dependencies: []),
                       Target(name: "CoolcalCalDAV", kind: "regular", path: "", dependencies: [])]
        let found = Self.violations(targets) { $0.name == "CoolcalCLI" ? ["CoolcalModel", "CoolcalState", "Foundation"] : [] }
        #expect(found == ["CoolcalCLI declares CoolcalCalDAV but never imports it"])
        let undeclared = Self.violations(targets + [Target(name: "CoolcalState", kind: "regular", path: "", dependencies: [])]) {
            $0.name == "CoolcalCLI" ? ["CoolcalModel", "CoolcalCalDAV", "CoolcalState"] : []
        }
        #expect(undeclared == ["CoolcalCLI imports CoolcalState without declaring it"])
        #expect(Self.importedModule("@testable import CoolcalState") == "CoolcalState")
        #expect(Self.importedModule("internal import struct CLinux.Foo") == "CLinux")
        #expect(Self.importedModule("// import CoolcalState") == nil)
    }
}
