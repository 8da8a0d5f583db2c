import Foundation

/// A calendar, a state and a fallback parking place (`XDG_STATE_HOME`) in a fresh
/// directory anyone may write, for `coolcal process` run as a delivery agent runs it:
/// the message on standard input, optionally as nobody; then the fault is fixed and the
/// next delivery must answer the parked message exactly once.
struct FaultDesk {
    typealias T = OrganizerBindingTests
    static let alice = "Alice <alice@example.org>"
    let root: String
    var calendar: String
    var state: String
    var xdgState: String { root + "/xdg-state" }
    var fallback: String { xdgState + "/coolcal/parked" }

    init() throws {
        root = try Spawn.directory(open: true)
        calendar = root + "/cal.ics"
        state = root + "/state"
        try Self.writeCalendar(calendar)
    }

    static func writeCalendar(_ path: String) throws {
        try Data(HeldMergeTests.calendarKnowingAlice.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o666)
    }

    /// Alice's invitation for `uid` (at `start`: two at one time would be busy), one
    /// Message-ID per call.
    static func invitation(_ uid: String, start: String = "20310303T100000Z") -> String {
        T.mail(T.message(start: start, uid: uid), from: alice)
    }

    /// `coolcal process --recipient me --state STATE CAL < message`, as an MDA runs it.
    func deliver(_ message: String, asNobody: Bool = false, extra: [String] = [], env: [String: String] = [:]) throws -> Spawned {
        let input = root + "/input-\(UUID().uuidString).eml"
        try Data(message.utf8).write(to: URL(fileURLWithPath: input))
        chmod(input, 0o644)
        defer { unlink(input) }
        var environment = ["HOME": root, "XDG_STATE_HOME": xdgState]
        environment.merge(env) { $1 }
        return try Spawn.run(["process", "--recipient", T.me, "--state", state] + extra + [calendar], stdin: input,
                             env: environment, asNobody: asNobody)
    }

    /// The messages parked in `STATE/parked` or the fallback.
    func parked(fallback inFallback: Bool = false) -> [String] {
        let dir = (inFallback ? fallback : state + "/parked") + "/new"
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    /// A parked file's permission bits.
    func mode(_ name: String, fallback inFallback: Bool = false) -> mode_t? {
        var info = stat()
        guard stat((inFallback ? fallback : state + "/parked") + "/new/" + name, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// How many events with this UID the calendar holds.
    func count(_ uid: String) throws -> Int {
        try String(contentsOfFile: calendar, encoding: .utf8).components(separatedBy: "UID:\(uid)\r\n").count - 1
    }
}
