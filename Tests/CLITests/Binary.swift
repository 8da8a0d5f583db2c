import Foundation

/// Runs the built `coolcal` binary and captures what it did.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum Binary {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var path: String {
        if let env = ProcessInfo.processInfo.environment["COOLCAL_BIN"], !env.isEmpty { return env }
        return root.appendingPathComponent(".build/debug/coolcal").path
    }

    static func sample(_ name: String) -> String { root.appendingPathComponent("samples/\(name)").path }

    /// This test run's own home (and so its own state database): never another
    /// checkout's, whose coolcal may have written a newer schema.
    static let home: String = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-home-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }()

    /// Runs coolcal in the repository root with a fixed, minimal environment.
    static func run(_ args: [String], stdin: String? = nil, env extra: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = args
        process.currentDirectoryURL = root
        var env = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "en_US.UTF-8", "HOME": home,
                   "XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-no-config").path]
        // make test's streamed pass: the binary edits every calendar as a large one.
        if let streamFrom = ProcessInfo.processInfo.environment["COOLCAL_TEST_STREAM_FROM"] { env["COOLCAL_TEST_STREAM_FROM"] = streamFrom }
        env.merge(extra) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
    }

    static func json(_ text: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        return object
    }

    /// A fresh XDG_CONFIG_HOME holding `coolcal/config` with `text`.
    static func configHome(_ text: String) throws -> String {
        let config = try temp("coolcal/config", Data(text.utf8))
        return URL(fileURLWithPath: config).deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// Writes a temporary file (in a new directory) and returns its path.
    static func temp(_ name: String, _ contents: Data) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: url)
        return url.path
    }
}
