import Foundation
import CoolcalModel
import CoolcalOutput
import CoolcalState
import CoolcalSupport
import CoolcalRSVP

/// `coolcal outbox [flush | retry [KEY|ID]]`: what waits for the server or the sendmail;
/// `flush` delivers it now and exits 75 (77 for refused credentials) while something is
/// still queued; `retry` puts failed entries back in the queue.
package struct OutboxCommand: CommandUnit, Equatable {
    package static let spec = CommandSpec(
        name: "outbox",
        usage: "coolcal outbox [options] [flush | retry [KEY|ID]]",
        summary: "show the answers waiting for the server or the sendmail, deliver them now, or queue failed ones again",
        options: [SharedOptions.json.spec, SharedOptions.state.spec, SharedOptions.server.spec, SharedOptions.quiet.spec],
        examples: ["coolcal outbox", "coolcal outbox flush", "coolcal outbox retry", "coolcal outbox retry 20260310-kickoff@example.org"],
        operands: .words(["flush", "retry"]))

    /// What the command does.
    package enum Action: Equatable {
        case list
        case flush
        /// Queue failed entries again: all of them, or those with this key or invitation id.
        case retry(String?)
    }

    package var common: CommonOptions
    package var action: Action

    package init(_ p: ParsedArguments) throws {
        switch p.operands {
        case []: action = .list
        case ["flush"]: action = .flush
        case ["retry"]: action = .retry(nil)
        case let words where words.count == 2 && words[0] == "retry": action = .retry(words[1])
        default: throw p.usage("outbox takes nothing, 'flush', or 'retry [KEY|ID]'")
        }
        common = try CommonOptions(p)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        let store = try context.answers.open()
        switch action {
        case .list: return try list(store, context)
        case .flush: return try flush(store, context)
        case .retry(let selector): return try retry(selector, store, context)
        }
    }

    /// Every entry, as text or JSON; a failed one's line is followed by how to retry.
    private func list(_ store: StateStore, _ context: RunContext) throws -> ExitStatus {
        let entries = try store.outbox.entries()
        let out = context.out
        if common.json {
            out.write(JSONWriter.string(.object([("outbox", .array(entries.map(Self.json)))])))
            return .ok
        }
        guard !entries.isEmpty else {
            out.write("The outbox is empty.\n")
            return .ok
        }
        // `next` is a local time, as `conflicts` shows times; the lines then name the zone.
        let dates = DateText(style: try context.settings.style)
        var timed = false
        for e in entries {
            var line = "\(e.state.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) \(e.method) \(e.inviteID)"
            line += "  attempts \(e.attempts)"
            if e.channel == .mail { line += "  by mail" }
            if e.state == .queued, let next = e.nextAttemptAt {
                line += "  next \(dates.at(.instant(Int64(next.timeIntervalSince1970.rounded(.up)))))"
                timed = true
            }
            if let error = e.lastError { line += "  last: \(error)" }
            out.write(PrintableText.clean(line, keepNewlines: false) + "\n")
        }
        if timed { out.write(dates.zoneLine + "\n") }
        let failed = entries.filter { $0.state == .failed }.count
        if failed > 0 {
            out.write("\(failed) failed: not sent again by themselves; 'coolcal outbox retry' queues \(failed == 1 ? "it" : "them") again\n")
        }
        return .ok
    }

    private static func json(_ e: OutboxEntry) -> JSONValue {
        .object([
            ("key", .string(e.key)), ("method", .string(e.method)), ("channel", .string(e.channel.rawValue)),
            ("invite_id", .string(e.inviteID)),
            ("body", .string(e.body)), ("state", .string(e.state.rawValue)), ("attempts", .int(Int64(e.attempts))),
            ("last_error", e.lastError.map(JSONValue.string) ?? .null),
            ("created_at", .string(time(e.createdAt))),
            ("message_id", e.messageID.map(JSONValue.string) ?? .null),
            ("next_attempt_at", e.state == .queued ? e.nextAttemptAt.map { .string(time($0)) } ?? .null : .null),
        ])
    }

    private static func time(_ date: Date) -> String {
        OccurrenceTime.instant(Int64(date.timeIntervalSince1970.rounded(.up))).jsonString
    }

    /// Delivers everything queued now, backoff or not; 75 while anything is still queued.
    private func flush(_ store: StateStore, _ context: RunContext) throws -> ExitStatus {
        let answers = try context.answers
        let server = try answers.server()
        let mail = try store.outbox.entries().filter { $0.channel == .mail }
        let mailWaiting = mail.contains { $0.state != .failed }
        // Mail needs no server: without one, the mail line is the report (also of nothing).
        let sendmail = mailWaiting ? try answers.sendmail() : nil
        let s = try answers.drainer(store, server, sendmail: sendmail)
            .drain(lockTimeout: try context.settings.lockTimeout, now: try context.settings.now, backoff: false)
        answers.warnAboutResent(s)
        let left = try store.outbox.entries()
        let failed = { (channel: OutboxChannel) in left.filter { $0.channel == channel && $0.state == .failed }.count }
        let hint = { (n: Int) in n > 0 ? " (coolcal outbox retry)" : "" }
        if server != nil {
            let refused = failed(.server)
            context.say("delivered \(s.delivered), refused \(refused)\(hint(refused)), still queued \(s.queued)")
        }
        if !mail.isEmpty || server == nil {
            let failedMail = failed(.mail)
            context.say("mailed \(s.mailed), failed \(failedMail)\(hint(failedMail)), still queued \(s.mailQueued)")
        }
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

    /// Queues failed entries again (all, or one key or invitation's); sends nothing.
    private func retry(_ selector: String?, _ store: StateStore, _ context: RunContext) throws -> ExitStatus {
        let count = try store.outbox.retryFailed(selector)
        if count == 0, let selector {
            throw NoSuchEntry(message: "no failed entry in the outbox has the key or invitation id '\(PrintableText.clean(selector, keepNewlines: false))' (see 'coolcal outbox')")
        }
        context.say(count == 0 ? "nothing failed in the outbox"
                    : "queued again \(count); the next run sends \(count == 1 ? "it" : "them"), or 'coolcal outbox flush' now")
        return .ok
    }
}

/// `outbox retry NAME` where no failed entry has that name (66, like an INVITE operand
/// that names no file and no inbox entry).
package struct NoSuchEntry: StatusError, CustomStringConvertible, Equatable {
    package var message: String
    package var description: String { message }
    package var exitStatus: ExitStatus { .noInput }
}
