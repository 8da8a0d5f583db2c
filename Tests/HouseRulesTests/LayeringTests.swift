import Foundation
import Testing

/// The house rules the compiler does not check. The layers are SwiftPM targets
/// (Package.swift's `layers`, bottom first): an import the target does not declare
/// fails to build (`--explicit-target-dependency-import-check error`), and a cycle
/// cannot be declared. What is left for a test: that every declared dependency points
/// down the list, that each C library is imported by its own target only, and sizes.
@Suite struct LayeringTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sources = root.appendingPathComponent("Sources")

    /// Package.swift's `layers` (or another table of the same shape, as `unitTests`), in
    /// order: each `("Name", [dependencies])` line.
    static func layers(_ table: String = "let layers:") throws -> [(name: String, dependencies: [String])] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        guard let start = manifest.range(of: table), let end = manifest.range(of: "\n]\n", range: start.upperBound..<manifest.endIndex) else {
            return []
        }
        // An entry may wrap: join the list's text and split it at each `("`.
        let list = manifest[start.upperBound..<end.lowerBound]
            .split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: " ")
        return list.components(separatedBy: "(\"").dropFirst().map { entry in
            // `Name", ["A", "B"]), `: the name, then every other piece between quotes.
            let pieces = entry.components(separatedBy: "\"")
            let dependencies = pieces.enumerated().filter { $0.offset >= 2 && $0.offset % 2 == 0 }.map(\.element)
            return (pieces[0], dependencies)
        }
    }

    struct SourceFile {
        var path: String
        var target: String
        var text: String
    }

    static func files() throws -> [SourceFile] {
        var files: [SourceFile] = []
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path) where target.hasPrefix("Coolcal") {
            let folder = sources.appendingPathComponent(target)
            guard let walker = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(relative), encoding: .utf8)
                files.append(SourceFile(path: target + "/" + relative, target: target, text: text))
            }
        }
        return files
    }

    @Test func everyTargetIsALayer() throws {
        let declared = Set(try Self.layers().map(\.name))
        let folders = Set(try Self.files().map(\.target))
        #expect(declared.count >= 15, "the layers list was not read from Package.swift")
        #expect(folders == declared, "folders without a layer: \(folders.subtracting(declared)); layers without a folder: \(declared.subtracting(folders))")
    }

    /// SwiftPM refuses a cycle but not an arrow up the list: that is the test's.
    @Test func dependenciesPointDown() throws {
        let layers = try Self.layers()
        var below: Set<String> = ["CLibical", "CSQLite", "CGMime", "CGio", "CLinux", "CChecksum"]
        var upward: [String] = []
        for layer in layers {
            for dependency in layer.dependencies where !below.contains(dependency) {
                upward.append("\(layer.name) depends on \(dependency), which is not below it")
            }
            below.insert(layer.name)
        }
        #expect(upward.isEmpty, "\(upward.joined(separator: "\n"))")
    }

    /// Each C module belongs to one target, imported `internal` (SE-0409: its types
    /// cannot leak out through a declaration others see).
    @Test func cLibrariesStayInTheirTargets() throws {
        let owners = ["CLibical": "CoolcalICal", "CSQLite": "CoolcalState", "CGMime": "CoolcalMail", "CGio": "CoolcalDesktop",
                      "CLinux": "CoolcalSupport", "CChecksum": "CoolcalSupport"]
        var seen: Set<String> = []
        for file in try Self.files() {
            for line in file.text.split(separator: "\n") where line.contains("import C") {
                guard let module = owners.keys.first(where: { line.hasSuffix("import " + $0) }) else { continue }
                seen.insert(module)
                #expect(file.target == owners[module], "\(file.path) imports \(module), which is \(owners[module] ?? "")'s")
                #expect(line.hasPrefix("internal import"), "\(file.path): '\(line)' is not an internal import")
            }
        }
        #expect(seen == Set(owners.keys), "the import scan finds nothing")
    }

    /// HTTP is the helper's (`coolcal-http`, HTTPHelper): only CoolcalHTTP imports
    /// FoundationNetworking (which links libcurl), and `coolcal` itself reaches it through
    /// no layer, so it starts without libcurl's 26 libraries (Tests/Install checks the binary).
    @Test func networkingStaysInTheHelper() throws {
        let importers = Set(try Self.files().filter { $0.text.contains("import FoundationNetworking") }.map(\.target))
        #expect(importers == ["CoolcalHTTP"], "FoundationNetworking imported by \(importers.sorted())")
        let layers = Dictionary(try Self.layers().map { ($0.name, $0.dependencies) }, uniquingKeysWith: { a, _ in a })
        var reached: Set<String> = [], next = ["CoolcalCLI"]
        while let layer = next.popLast() {
            if reached.insert(layer).inserted { next += layers[layer] ?? [] }
        }
        #expect(reached.count >= 15 && !reached.contains("CoolcalHTTP"), "coolcal reaches \(reached.sorted())")
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains("name: \"coolcal\",\n            dependencies: [\"CoolcalCLI\"]"),
                "the coolcal executable depends on CoolcalCLI alone")
    }

    /// The unit tests' tiers (Package.swift's `unitTests`): each is a layer's (`<layer>Tests`,
    /// the CLI's `CoolcalCLIUnitTests`) and tests it, or is the house rules' (depending on
    /// nothing) or the shared helpers'; a tier uses no tier above its own (a helper moves down).
    @Test func unitTestTiersFollowTheLayers() throws {
        let layers = try Self.layers().map(\.name)
        let tiers = try Self.layers("let unitTests:")
        #expect(tiers.count >= 10, "the unitTests list was not read from Package.swift")
        func rank(_ tier: String) -> Int? {
            layers.firstIndex { $0 + "Tests" == tier || ($0 == "CoolcalCLI" && tier == "CoolcalCLIUnitTests") }
        }
        for tier in tiers {
            if tier.name == "HouseRulesTests" {
                #expect(tier.dependencies.isEmpty, "HouseRulesTests depends on \(tier.dependencies)")
                continue
            }
            if tier.name == "CoolcalTestSupport" { continue }
            guard let own = rank(tier.name) else {
                Issue.record("\(tier.name) is no layer's tier")
                continue
            }
            #expect(tier.dependencies.contains(layers[own]), "\(tier.name) does not depend on \(layers[own])")
            for dependency in tier.dependencies {
                if let other = rank(dependency), other >= own { Issue.record("\(tier.name) uses \(dependency), a tier not below it") }
            }
        }
    }

    @Test func filesStaySmall() throws {
        for file in try Self.files() {
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            #expect(lines <= 400, "\(file.path) has \(lines) lines")
        }
    }

    /// A type with its `Type+Feature.swift` extensions stays readable (~600 lines), with
    /// no exemption: a type that grows past it is split by concept into types of its own.
    @Test func typesStayReadable() throws {
        var sizes: [String: Int] = [:]
        for file in try Self.files() {
            let base = String(file.path.split(separator: "/").last ?? "").replacingOccurrences(of: ".swift", with: "")
            let type = String(base.split(separator: "+").first ?? "")
            sizes[type, default: 0] += file.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        }
        #expect(sizes["CalendarLocation", default: 0] > 50, "the size scan finds nothing")
        for (type, lines) in sizes.sorted(by: { $0.key < $1.key }) {
            #expect(lines <= 600, "\(type) and its extensions have \(lines) lines")
        }
    }
}
