import Foundation

/// `coolcal outbox [flush]`: what waits for the server; `flush` delivers it now and
/// exits 75 (77 for refused credentials) when something is left.
struct OutboxCommand: CommandUnit, Equatable {
    static let spec = CommandSpec(
        name: "outbox",
        usage: "coolcal outbox [options] [flush]",
        summary: "show the answers waiting for the server, or deliver them now",
        options: [SharedOptions.json.spec, SharedOptions.state.spec, SharedOptions.server.spec, SharedOptions.quiet.spec],
        examples: ["coolcal outbox", "coolcal outbox flush"])

    var common: CommonOptions
    var flush: Bool

    init(_ p: ParsedArguments) throws {
        guard p.operands.isEmpty || p.operands == ["flush"] else { throw p.usage("outbox takes nothing, or 'flush'") }
        flush = !p.operands.isEmpty
        common = try CommonOptions(p)
    }

    func run(_ context: RunContext) throws -> ExitStatus {
        let answers = try context.answers
        let json = common.json
        let out = context.out
        let store = try answers.open()
        if flush {
            guard let server = try answers.server() else {
                throw UsageError("no server is configured (--server, COOLCAL_SERVER or 'server =' in the config)", command: "outbox")
            }
            let s = try answers.drainer(store, server).drain(lockTimeout: answers.settings.lockTimeout)
            context.say("delivered \(s.delivered), refused \(s.failed), still queued \(s.queued)")
            if s.denied {
                throw ServerError(message: "\(RSVPClient.redacted(server)): the server refused the credentials", denied: true)
            }
            if s.queued > 0 {
                let why = s.skipped ? "another coolcal is delivering" : s.stopReason ?? "the server did not take everything"
                throw ServerError(message: "\(RSVPClient.redacted(server)): \(s.queued) still queued (\(why))", denied: false)
            }
            return .ok
        }
        let entries = try store.outbox()
        if json {
            out.write(JSONWriter.string(.object([("outbox", .array(entries.map { e in
                .object([
                    ("key", .string(e.key)), ("method", .string(e.answer.method)), ("invite_id", .string(e.inviteID)),
                    ("body", .string(e.body)), ("state", .string(e.state.rawValue)), ("attempts", .int(Int64(e.attempts))),
                    ("last_error", e.lastError.map(JSONValue.string) ?? .null),
                    ("created_at", .string(OccurrenceTime.instant(Int64(e.createdAt.timeIntervalSince1970)).jsonString)),
                ])
            }))])))
            return .ok
        }
        guard !entries.isEmpty else {
            out.write("The outbox is empty.\n")
            return .ok
        }
        for e in entries {
            var line = "\(e.state.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) \(e.answer.method) \(e.inviteID)"
            line += "  attempts \(e.attempts)"
            if let error = e.lastError { line += "  last: \(error)" }
            out.write(line + "\n")
        }
        return .ok
    }
}
