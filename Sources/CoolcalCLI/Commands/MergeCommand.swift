import CoolcalAnswering
import CoolcalModel
import CoolcalOutput
import CoolcalSchedule

/// `coolcal merge [--spool DIR] [--policy P] [CAL...]`: answers every pending
/// invitation, reading the calendars once; an invitation accepted earlier in the run
/// is busy time for the later ones. New events go into the first CAL, updates where the
/// event already lives (`UIDHomes`). DIR may be a
/// Maildir (Spool/MaildirSource.swift): left as it is unless `--mark`. Without DIR or CAL,
/// the config's `spool` and `calendar` keys.
package struct MergeCommand: CommandUnit, Equatable {
    package static let spool = Option<String>("spool", value: "DIR", completion: .directory, help: "where invitations arrive: a spool directory, a Maildir or an mbox file (default: config spool; one of them is required)")
    package static let policy = Option<MergePolicy>("policy", value: "POLICY", help: "accept-if-free (default: config policy, else this), accept-all, decline-busy or report")
    package static let mark = Flag("mark", help: "in a Maildir spool, move processed messages to cur/ and flag them seen (S)")
    package static let notify = Flag("notify", help: "also show a desktop notification for each invitation answered or found busy (session D-Bus; none, silently, without one)")
    package static let acceptFrom = Option<String>("accept-from", value: "WHO", repeatable: true, completion: .none, help: "whose new invitations to answer: anyone, known, ADDRESS or @DOMAIN (repeatable; replaces the config's accept-from lines; default known)")
    package static let calendarInvitations = Flag("calendar-invitations", help: "also find invitations a scheduling server (or vdirsyncer) put straight into the calendars, pending from now to a year ahead, and record them in the inbox (default: config calendar-invitations; no spool needed then)")
    /// merge's own `-q`: what cron should mail, not nothing.
    package static let quiet = Flag("quiet", short: "q", help: "print only what needs a person: invitations that failed or stayed busy, answers queued for more than a day")

    package static let spec = CommandSpec(
        name: "merge",
        usage: "coolcal merge [--spool DIR] [options] [CAL...]",
        summary: "answer every invitation in a spool directory by policy (for cron)",
        options: [spool.spec, policy.spec, mark.spec, notify.spec, acceptFrom.spec, calendarInvitations.spec, SharedOptions.json.spec, SharedOptions.reply.spec, SharedOptions.noReply.spec]
            + SharedOptions.writing.map { $0.long == quiet.spec.long ? quiet.spec : $0 },
        examples: [
            "coolcal merge --me me@example.com --spool ~/.local/share/coolcal/spool ~/calendars/work.ics",
            "*/5 * * * * /usr/local/bin/coolcal merge -q --me me@example.com --spool $HOME/.local/share/coolcal/spool $HOME/cal.ics",
            "coolcal merge --me me@example.com --spool ~/Mail/invitations --mark --json ~/calendars/work.ics",
            "coolcal merge --me me@example.com --calendar-invitations ~/.calendars/fastmail",
        ])

    package var common: CommonOptions
    /// `--spool`; nil: the config's `spool`.
    package var spoolDirectory: String?
    /// The operands; none: the config's `calendar` lines.
    package var calendars: [String]
    package var buffer: Buffer?
    /// `--policy`; nil: the config's `policy`, else accept-if-free.
    package var policy: MergePolicy?
    package var mark = false
    /// `--reply`/`--no-reply`/the config's `reply`: mail each answer to an iTIP invitation's organizer.
    package var reply = ReplyChoice.config
    /// `--notify`: a desktop notification for each outcome (posted, not waited on).
    package var notify = false
    /// `--calendar-invitations`; false: the config's `calendar-invitations`.
    package var calendarInvitations = false

    package init(_ p: ParsedArguments) throws {
        try p.refuseStdin(p.operands[...], "calendars cannot be read from standard input")
        spoolDirectory = try p.value(Self.spool)
        calendars = p.operands
        common = try CommonOptions(p)
        buffer = try p.value(SharedOptions.buffer)
        policy = try p.value(Self.policy)
        mark = p.has(Self.mark)
        reply = try ReplyChoice(p)
        notify = p.has(Self.notify)
        calendarInvitations = p.has(Self.calendarInvitations)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        let settings = try context.settings
        let inCalendars = calendarInvitations || settings.calendarInvitations
        let spoolDirectory = spoolDirectory ?? settings.setting(SettingsTable.spool).value
        guard spoolDirectory != nil || inCalendars else {
            throw UsageError("missing --spool DIR (or 'spool = DIR' in the config file, or --calendar-invitations)", command: "merge")
        }
        let operands = try settings.calendarOperands(calendars, command: "merge")
        // Answering for someone needs to know who they are: which invitations name them.
        guard !settings.me.isEmpty else {
            throw ConfigError(message: "merge: no 'me' set: merge answers only invitations addressed to you; "
                              + "add 'me = ADDRESS' to the config file (or give --me ADDRESS)")
        }
        var run = MergeRun(store: try context.answers, spoolDirectory: spoolDirectory ?? "", calendars: operands,
                           lockTimeout: settings.lockTimeout, notes: MergeText.notes)
        run.policy = try policy ?? settings.mergePolicy
        run.mark = mark
        run.reply = reply.mails(settings)
        run.buffer = buffer
        // `-q`: queued answers are told once they have waited a day.
        run.patience = common.quiet ? 86_400 : nil
        var text = MergeText(json: common.json, dates: DateText(style: settings.style))
        // With --json, one document once the spool is listed, whatever happens then.
        var listed = false
        // Text that showed a time names its zone once, at the end.
        var timed = false
        defer {
            if common.json && listed { context.out.write(text.document(spoolDirectory)) }
            if timed { context.out.write(text.dates.zoneLine + "\n") }
        }
        let notices = notify ? DesktopNotices() : nil
        let say = { (item: MergeItem) in
            if let line = text.add(item) {
                // With -q only what needs a person is printed.
                if common.quiet && item.needsAPerson {
                    context.out.write(PrintableText.clean(line) + "\n")
                    timed = timed || item.invite != nil
                } else {
                    context.say(line)
                    timed = timed || (item.invite != nil && !common.quiet)
                }
            }
            if let invite = item.invite, let notice = text.notice(item) { notices?.add(invite, notice) }
        }
        // The calendars first: what they hold for the person is free time for the spool's.
        if inCalendars {
            var scan = CalendarInvitationScan(store: run.store, calendars: operands)
            scan.policy = run.policy
            scan.buffer = buffer
            listed = true
            try scan.run(report: say)
        }
        let failure = spoolDirectory == nil ? nil : try run.run(listed: { listed = true }, report: say)
        // What `process` parked, in every place, is answered now.
        let parkedFailure = spoolDirectory == nil ? nil
            : try run.runParked(configured: settings.setting(SettingsTable.parked).value, report: say)
        notices?.post(context, style: settings.style)
        return (failure ?? parkedFailure).map(ExitStatus.of) ?? .ok
    }
}

extension MergePolicy: ArgumentValue {
    package init?(argument: String) { self.init(rawValue: argument) }
    package static var choices: [String]? { allCases.map(\.rawValue) }
    package static func invalid(_ text: String, option: String) -> String {
        "--\(option) must be one of \(allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'"
    }
}
