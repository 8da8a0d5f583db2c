import Foundation
import CoolcalModel
import CoolcalSupport
import CoolcalRSVP

/// `coolcal outbox [flush]`: what waits for the server; `flush` delivers it now and
/// exits 75 (77 for refused credentials) when something is left.
package struct OutboxCommand: CommandUnit, Equatable {
    package static let spec = CommandSpec(
        name: "outbox",
        usage: "coolcal outbox [options] [flush]",
        summary: "show the answers waiting for the server or the sendmail, or deliver them now",
        options: [SharedOptions.json.spec, SharedOptions.state.spec, SharedOptions.server.spec, SharedOptions.quiet.spec],
        examples: ["coolcal outbox", "coolcal outbox flush"])

    package var common: CommonOptions
    package var flush: Bool

    package init(_ p: ParsedArguments) throws {
        guard p.operands.isEmpty || p.operands == ["flush"] else { throw p.usage("outbox takes nothing, or 'flush'") }
        flush = !p.operands.isEmpty
        common = try CommonOptions(p)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        let answers = try context.answers
        let json = common.json
        let out = context.out
        let store = try answers.open()
        if flush {
            let server = try answers.server()
            let mail = try store.outbox().filter { $0.channel == .mail }
            let mailWaiting = mail.contains { $0.state == .queued }
            // Mail needs no server; an outbox with only failed mail has nothing to send.
            guard server != nil || !mail.isEmpty else {
                throw UsageError("no server is configured (--server, COOLCAL_SERVER or 'server =' in the config)", command: "outbox")
            }
            let sendmail = mailWaiting ? try answers.sendmail() : nil
            let s = try answers.drainer(store, server, sendmail: sendmail).drain(lockTimeout: try context.settings.lockTimeout)
            if server != nil { context.say("delivered \(s.delivered), refused \(s.failed), still queued \(s.queued)") }
            if !mail.isEmpty { context.say("mailed \(s.mailed), failed \(s.mailFailed), still queued \(s.mailQueued)") }
            if s.mailQueued > 0 {
                let why = s.skipped ? "another coolcal is delivering" : s.mailStopReason ?? "not delivered"
                throw ServerError(message: "\(s.mailQueued) mail repl\(s.mailQueued == 1 ? "y" : "ies") still queued (\(why))", denied: false)
            }
            guard let server else {
                if s.queued > 0 {
                    throw UsageError("\(s.queued) answers wait for a server, and none is configured (--server, COOLCAL_SERVER or 'server =' in the config)", command: "outbox")
                }
                return .ok
            }
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
                    ("key", .string(e.key)), ("method", .string(e.method)), ("channel", .string(e.channel.rawValue)),
                    ("invite_id", .string(e.inviteID)),
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
            var line = "\(e.state.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) \(e.method) \(e.inviteID)"
            line += "  attempts \(e.attempts)"
            if e.channel == .mail { line += "  by mail" }
            if let error = e.lastError { line += "  last: \(error)" }
            out.write(line + "\n")
        }
        return .ok
    }
}
