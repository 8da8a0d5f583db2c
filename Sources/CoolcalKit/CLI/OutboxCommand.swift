import Foundation

/// `coolcal outbox [flush]`: what waits for the server; `flush` delivers it now and
/// exits 75 (77 for refused credentials) when something is left.
struct OutboxCommand {
    let answers: Answers

    func run(flush: Bool, json: Bool, _ out: TextSink) throws -> ExitStatus {
        let store = try answers.open()
        if flush {
            guard let server = try answers.server() else {
                throw UsageError("no server is configured (--server, COOLCAL_SERVER or 'server =' in the config)", command: "outbox")
            }
            let s = try answers.drainer(store, server).drain(lockTimeout: answers.settings.lockTimeout)
            out.write("delivered \(s.delivered), refused \(s.failed), still queued \(s.queued)\n")
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
