import Foundation

/// `coolcal merge --spool DIR [--policy P] CAL [CAL...]`: answers every pending
/// invitation, reading the calendars once; an invitation accepted earlier in the run
/// is busy time for the later ones. Accepted events go into the first CAL.
struct MergeCommand: CommandUnit, Equatable {
    static let spool = Option<String>("spool", value: "DIR", completion: .directory, help: "the directory where invitations arrive (required)")
    static let policy = Option<MergePolicy>("policy", value: "POLICY", help: "accept-if-free (default), accept-all, decline-busy or report")

    static let spec = CommandSpec(
        name: "merge",
        usage: "coolcal merge --spool DIR [options] CAL [CAL...]",
        summary: "answer every invitation in a spool directory by policy (for cron)",
        options: [spool.spec, policy.spec, SharedOptions.reply.spec] + SharedOptions.writing,
        examples: [
            "coolcal merge --spool ~/.local/share/coolcal/spool ~/calendars/work.ics",
            "*/5 * * * * coolcal merge --spool $HOME/.local/share/coolcal/spool $HOME/cal.ics",
        ])

    var common: CommonOptions
    var spoolDirectory: String
    var calendars: [String]
    var buffer: Buffer?
    var policy: MergePolicy = .acceptIfFree
    /// `--reply`: mail each answer to an iTIP invitation's organizer.
    var reply = false

    init(_ p: ParsedArguments) throws {
        guard let spool = try p.value(Self.spool) else { throw p.usage("missing --spool DIR") }
        guard !p.operands.isEmpty else { throw p.usage("missing a calendar") }
        try p.refuseStdin(p.operands[...], "calendars cannot be read from standard input")
        spoolDirectory = spool
        calendars = p.operands
        common = try CommonOptions(p)
        buffer = try p.value(SharedOptions.buffer)
        policy = try p.value(Self.policy) ?? .acceptIfFree
        reply = p.has(SharedOptions.reply)
    }

    func run(_ context: RunContext) throws -> ExitStatus {
        let settings = try context.settings
        let diagnostics = context.diagnostics
        let spool = Spool(directory: spoolDirectory)
        // Checked before the run lock: a missing spool is 66 naming it, not a failure
        // to create the lock file inside it.
        _ = try spool.pending()
        let runLock = try FileLock(path: spoolDirectory + "/.coolcal-merge.lock", timeout: settings.lockTimeout)
        defer { runLock.unlock() }
        let names = try spool.pending(diagnostics: diagnostics)
        context.note("\(spoolDirectory): \(names.count) invitation\(names.count == 1 ? "" : "s") pending (policy \(policy.rawValue))")
        let answers = try context.answers
        // A missing sendmail (78) or no usable --me (64) stops the run before any answer.
        if reply && policy != .report {
            _ = try answers.sendmail()
            guard let me = settings.me.first, MailAddress(calendarAddress: me) != nil else {
                throw UsageError("--reply needs --me ADDRESS, a mail address to answer from (or 'me' in the config)", command: "merge")
            }
        }
        guard !names.isEmpty else {
            // Nothing new: still the moment to deliver answers a down server left queued.
            if policy != .report, try answers.server() != nil || reply { try answers.deliver(try answers.open()) }
            return .ok
        }
        let check = ConflictCheck(finder: ConflictFinder(buffer: settings.buffer(buffer), zone: settings.zone),
                                  reader: settings.reader)
        let invites = names.map { name in Result { try InviteLoader.open(spoolDirectory + "/" + name, floatingZone: settings.zone) } }
        // One read of the calendars for the whole run, limited to the span of all windows.
        let windows = invites.compactMap { try? check.finder.window(for: $0.get().invite) }
        let envelope = windows.first.map { first in windows.dropFirst().reduce(first) { $0.union($1) } }
        let calendars = try check.reader.load(self.calendars.map(CalendarLocation.init), window: envelope)
        let target = try Settings.writeTarget(self.calendars[0], command: "merge")
        let writer = settings.writer
        let store = policy == .report ? nil : try answers.open()
        let server = try answers.server()
        var acceptedThisRun: [Occurrence] = []
        var status = ExitStatus.ok
        for (name, loaded) in zip(names, invites) {
            let file: InvitationFile
            do {
                file = try loaded.get()
            } catch {
                if policy != .report {
                    try spool.finish(name, failed: true, note: "\(error)\n")
                }
                context.say("failed    \(name)")
                diagnostics.warn("\(error)")
                continue
            }
            let invite = file.invite
            if invite.isCancellation {
                status = try cancel(file, name: name, spool: spool, target: target, writer: writer, context) ?? status
                continue
            }
            let window = check.finder.window(for: invite)
            let report = check.report(invite, check.reader.expand(calendars, in: window) + acceptedThisRun)
            let accept: Bool
            switch policy {
            case .acceptAll: accept = true
            case .acceptIfFree, .declineBusy, .report: accept = report.free
            }
            var outcome: String
            var detail = "\(report.conflicts.count) conflict\(report.conflicts.count == 1 ? "" : "s")"
            if policy == .report {
                outcome = report.free ? "free" : "busy"
            } else if accept {
                if let warning = file.ownerWarning(me: settings.me) { diagnostics.warn(warning) }
                do {
                    let change = file.change(me: settings.me, domain: settings.domain, now: settings.now)
                    let written = try writer.write(change: change, to: target)
                    outcome = "accepted"
                    switch written {
                    case .added, .updated: detail += "; written to \(target.shown)"
                    case .unchanged: detail += "; already in \(target.shown)"
                    case .stale:
                        // An older version than the calendar's: not an answer to record.
                        outcome = "ignored"
                        detail += "; " + written.describe(target.shown)
                    default: detail += "; " + written.describe(target.shown)
                    }
                } catch where error is WriteError || error is CalDAVError {
                    diagnostics.warn("\(name): not answered, left pending: \(error)")
                    status = ExitStatus.of(error)
                    continue
                }
                for instance in invite.checked where outcome == "accepted" {
                    acceptedThisRun.append(occurrence(of: invite, instance, finder: check.finder, calendar: target))
                }
            } else {
                outcome = policy == .declineBusy ? "declined" : "busy"
                if outcome == "busy" { detail += "; not accepted" }
            }
            if let store, outcome == "accepted" || outcome == "declined" {
                let recorded = try store.recordAnswer(outcome == "accepted" ? .accepted : .declined, for: invite, comment: nil,
                                                      at: settings.now, queueFor: server)
                if reply, let mail = try mailReply(file, accepted: outcome == "accepted", answers, name: name) {
                    try answers.queue(mail, responseKey: recorded.key, inviteID: invite.id.text, store)
                }
            }
            if policy != .report {
                try spool.finish(name, failed: false, note: note(outcome, invite, report, settings))
            }
            let padded = outcome.padding(toLength: 9, withPad: " ", startingAt: 0)
            context.say("\(padded) \(name)  \(invite.title)  \(invite.start.jsonString)  (\(detail))")
        }
        if let store { try answers.deliver(store) }
        return status
    }

    /// `--reply`: the REPLY mail for an answered invitation; a warning, not a failure,
    /// when it cannot be mailed (a push payload, no organizer, not an attendee).
    private func mailReply(_ file: InvitationFile, accepted: Bool, _ answers: Answers, name: String) throws -> MailReply? {
        guard MailReply.hasOrganizer(file) else {
            answers.diagnostics.warn("\(name): --reply: no organizer to mail the answer to; not mailed")
            return nil
        }
        do {
            return try Answers.build(file, me: answers.settings.me, partstat: accepted ? "ACCEPTED" : "DECLINED", comment: nil,
                                     settings: answers.settings, command: "merge")
        } catch let error as InviteError {
            answers.diagnostics.warn("\(name): --reply: not mailed: \(error)")
            return nil
        }
    }

    /// Applies an organizer's cancellation; a status when it could not be written.
    private func cancel(_ file: InvitationFile, name: String, spool: Spool, target: CalendarLocation,
                        writer: CalendarWriter, _ context: RunContext) throws -> ExitStatus? {
        let settings = try context.settings
        let invite = file.invite
        let outcome: WriteOutcome
        if policy == .report {
            outcome = .unchanged
        } else {
            do {
                outcome = try writer.write(change: file.change(me: settings.me, domain: settings.domain, now: settings.now), to: target)
            } catch where error is WriteError || error is CalDAVError {
                context.diagnostics.warn("\(name): not applied, left pending: \(error)")
                return ExitStatus.of(error)
            }
            try spool.finish(name, failed: false, note: JSONWriter.string(.object([
                ("outcome", .string(outcome.isStale ? "ignored" : "cancelled")),
                ("at", .string(OccurrenceTime.instant(Int64(settings.now.timeIntervalSince1970)).jsonString)),
                ("result", .string(outcome.describe(target.shown))),
            ])))
        }
        let detail = policy == .report ? "a cancellation" : outcome.describe(target.shown)
        let word = outcome.isStale ? "ignored  " : "cancelled"
        context.say("\(word) \(name)  \(invite.title)  \(invite.start.jsonString)  (\(detail))")
        return nil
    }

    /// What `done/NAME.outcome` holds: the answer and the conflicts it was based on.
    private func note(_ outcome: String, _ invite: Invite, _ report: ConflictReport, _ settings: Settings) -> String {
        JSONWriter.string(.object([
            ("outcome", .string(outcome)),
            ("at", .string(OccurrenceTime.instant(Int64(settings.now.timeIntervalSince1970)).jsonString)),
            ("report", JSONDocuments.conflicts(report)),
        ]))
    }

    /// An invitation accepted in this run, as busy time for the next ones.
    private func occurrence(of invite: Invite, _ instance: InviteInstance, finder: ConflictFinder,
                            calendar: CalendarLocation) -> Occurrence {
        let uid: String
        switch invite.id {
        case .number(let n): uid = "coolcal-invite-\(n)"
        case .uid(let s): uid = s
        }
        var single = invite.first
        single.start = instance.start
        single.end = instance.end
        let span = finder.span(of: single)
        return Occurrence(uid: uid, recurrenceID: nil, summary: invite.title,
                   calendar: calendar.name, calendarColor: nil, start: instance.start,
                   end: instance.end, startInstant: span.start, endInstant: span.end, allDay: single.allDay,
                   transparent: false, status: "CONFIRMED", declinedByOwner: false, inviteID: invite.id.text)
    }
}

/// What `merge` does with each invitation.
public enum MergePolicy: String, Equatable, Sendable, CaseIterable, ArgumentValue {
    case acceptIfFree = "accept-if-free"
    case acceptAll = "accept-all"
    case declineBusy = "decline-busy"
    case report

    init?(argument: String) { self.init(rawValue: argument) }
    static var choices: [String]? { allCases.map(\.rawValue) }
    static func invalid(_ text: String, option: String) -> String {
        "--\(option) must be one of \(allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'"
    }
}
