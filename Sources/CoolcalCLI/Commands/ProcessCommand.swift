import Foundation
import CoolcalAnswering
import CoolcalMail
import CoolcalModel
import CoolcalOutput
import CoolcalSpool
import CoolcalSupport

/// `coolcal process [CAL...]`: one message on standard input, at delivery time (Sieve,
/// procmail, maildrop, a Postfix `pipe`), handled as `merge` handles one spool message —
/// same config, trust, policy, state, locks — with an outcome in RFC 9671's words on
/// stdout, or the message itself with an `X-Coolcal-Outcome` header (`--pass-through`).
/// Exit 0 whenever the message should be delivered normally; 75 only when a retry could
/// succeed, and then the message is parked in the state for the next run as well.
package struct ProcessCommand: CommandUnit, Equatable {
    package static let passThrough = Flag("pass-through", help: "write the message to stdout, with an X-Coolcal-Outcome header added (incoming ones removed), instead of the outcome line")
    package static let recipient = Option<String>("recipient", value: "ADDRESS", repeatable: true, completion: .none, help: "the envelope recipient (Sieve's ${envelope.to}), added to me (repeatable)")
    package static let deadline = Option<Seconds>("deadline", value: "SECONDS", completion: .none, help: "give up after this long, park the message for the next run and exit 75 (default 8; Dovecot waits 10)")

    package static let spec = CommandSpec(
        name: "process",
        usage: "coolcal process [options] [CAL...] < MESSAGE",
        summary: "answer the invitation in one e-mail on standard input, at delivery (Sieve, procmail, maildrop)",
        options: [passThrough.spec, recipient.spec, deadline.spec, MergeCommand.policy.spec, MergeCommand.acceptFrom.spec,
                  SharedOptions.reply.spec, SharedOptions.noReply.spec, SharedOptions.json.spec] + SharedOptions.writing,
        examples: [
            "coolcal process --recipient me@example.com ~/calendars/work.ics < message.eml",
            "coolcal process --pass-through < message.eml > filed.eml",
        ])

    package var common: CommonOptions
    package var calendars: [String]
    package var passThrough = false
    package var deadline = Seconds(8)
    package var policy: MergePolicy?
    package var reply = ReplyChoice.config

    package init(_ p: ParsedArguments) throws {
        try p.refuseStdin(p.operands[...], "standard input is the message; calendars cannot be read from it")
        calendars = p.operands
        common = try CommonOptions(p)
        common.recipients = try p.all(Self.recipient)
        passThrough = p.has(Self.passThrough)
        deadline = try p.value(Self.deadline) ?? Seconds(8)
        policy = try p.value(MergeCommand.policy)
        reply = try ReplyChoice(p)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        let delivery = ProcessDelivery(deadline: deadline.value, places: Self.parkingPlaces(context)) { parked in
            let notParked: String?
            switch parked {
            case .success: notParked = nil
            case .failure(let reason): notParked = reason.description
            }
            FileHandle.standardError.write(Data(ProcessOutcome.deadlinePassed(notParked: notParked).utf8))
        }
        let input = StandardInputMessage.read()
        let delivered = delivery.answer(input.complete ? input.data : nil, limit: StandardInputMessage.limit) { message in
            try answer(PassThrough.withoutMboxLine(message), context: context, parking: delivery.parking)
        }
        return delivery.finish {
            say(delivered.result, context: context, input: input)
            if let warning = delivered.warning { context.diagnostics.warn("\(warning)") }
            if let reason = delivered.notParked { FileHandle.standardError.write(Data(ProcessOutcome.notParked(reason.description).utf8)) }
            return delivered.status
        }
    }

    /// The run: the parked messages and this one, as merge answers a spool.
    private func answer(_ message: Data, context: RunContext, parking: ParkingSpot) throws -> ProcessResult {
        let settings = try context.settings
        let operands = try settings.calendarOperands(calendars, command: "process")
        guard !settings.me.isEmpty else {
            throw ConfigError(message: "process: no 'me' set: add 'me = ADDRESS' to the config file (or give --me or --recipient)")
        }
        var run = MergeRun(store: try context.answers, spoolDirectory: "standard input", calendars: operands,
                           lockTimeout: settings.lockTimeout, notes: MergeText.notes)
        run.policy = try policy ?? settings.mergePolicy
        run.reply = reply.mails(settings)
        run.deliverOutbox = false
        let key = settings.handOverKey(calendars: operands, policy: run.policy, reply: run.reply)
        let handOver = HandOver(place: HandOverPlace(stateDirectory: settings.stateDirectory, key: key),
                                serveUntil: Date().addingTimeInterval(deadline.value / 2)) { result in
            let outcome = ProcessOutcome(result)
            return HandedOverOutcome(word: outcome.word, detail: outcome.detail, inviteID: result.invite?.id, title: result.invite?.title)
        }
        parking.handOver = handOver
        return try run.process(message, places: parking.places, handOver: handOver)
    }

    /// The last words: the outcome line (or JSON), or the message with its header.
    private func say(_ result: ProcessResult, context: RunContext, input: StandardInputMessage) {
        if passThrough {
            context.out.write(bytes: PassThrough.message(input.data, outcome: ProcessOutcome(result).line))
            if !input.complete { StandardInputMessage.rest(to: FileHandle.standardOutput) }
        } else {
            if !input.complete { StandardInputMessage.rest(to: nil) }
            if common.json {
                context.out.write(ProcessOutcome.json(result))
            } else if !common.quiet {
                context.out.write(ProcessOutcome(result).line + "\n")
            }
        }
    }

    /// Where to park: the state directory and the config's `parked` as far as the config
    /// can be read (it may be what failed), then the fallback.
    private static func parkingPlaces(_ context: RunContext) -> ParkingPlaces {
        let env = context.environment.variables
        if let settings = try? context.settings {
            return ParkingPlaces(stateDirectory: settings.stateDirectory, configured: settings.setting(SettingsTable.parked).value,
                                 environment: env)
        }
        return ParkingPlaces(stateDirectory: Settings.stateDirectory(flag: context.common.state, environment: env), configured: nil,
                             environment: env)
    }
}

/// `--deadline SECONDS`: a positive number of seconds (`8`, `2.5`, `8s`), at most 600.
package struct Seconds: ArgumentValue, Equatable, Sendable {
    package var value: Double
    package init(_ value: Double) { self.value = value }
    package init?(argument: String) {
        let text = argument.hasSuffix("s") ? String(argument.dropLast()) : argument
        guard let value = Double(text), value > 0, value <= 600 else { return nil }
        self.value = value
    }
    package static func invalid(_ text: String, option: String) -> String {
        "--\(option) must be a number of seconds above 0 and at most 600, not '\(text)'"
    }
}
