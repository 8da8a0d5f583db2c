import Foundation

/// One `coolcal process` run: the message in from a file, stdout kept as bytes (the
/// pass-through copy must come back byte for byte).
struct ProcessRun {
    let status: Int32
    let stdout: Data
    let stderr: String
    var text: String { String(decoding: stdout, as: UTF8.self) }

    /// Runs `coolcal process ARGS < message` in `env` (PATH, TZ, no config unless given).
    static func run(_ args: [String], message: Data, env extra: [String: String] = [:]) throws -> ProcessRun {
        let input = try Binary.temp("message.eml", message)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["process"] + args
        var env = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "en_US.UTF-8", "HOME": Binary.home,
                   "XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-no-config").path,
                   // The fallback parking place, one per run: no run drains another test's.
                   "XDG_STATE_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-xdg-state-\(UUID().uuidString)").path]
        env.merge(extra) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProcessRun(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A calendar and a state for `process` runs, and Alice's messages (Alice is known: an
/// old event of hers is in the calendar).
struct ProcessDesk {
    let root: String
    var calendar: String { root + "/cal.ics" }
    var state: String { root + "/state" }
    var parked: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: state + "/parked/new")) ?? []).sorted() }

    init() throws {
        root = try Spawn.directory()
        try Data(HeldMergeTests.calendarKnowingAlice.utf8).write(to: URL(fileURLWithPath: calendar))
    }

    var args: [String] { ["--recipient", OrganizerBindingTests.me, "--state", state, calendar] }

    func process(_ message: String, _ extra: [String] = [], env: [String: String] = [:]) throws -> ProcessRun {
        try ProcessRun.run(extra + args, message: Data(message.utf8), env: env)
    }

    func text() throws -> String { try String(contentsOfFile: calendar, encoding: .utf8) }

    /// How many events with this UID the calendar holds.
    func count(_ uid: String) throws -> Int { try text().components(separatedBy: "UID:\(uid)\r\n").count - 1 }
}
