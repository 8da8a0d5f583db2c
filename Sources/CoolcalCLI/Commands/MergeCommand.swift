import Foundation
import CoolcalCalDAV
import CoolcalCalendars
import CoolcalCheck
import CoolcalICal
import CoolcalInvite
import CoolcalMail
import CoolcalModel
import CoolcalOutput
import CoolcalRSVP
import CoolcalSchedule
import CoolcalSpool
import CoolcalSupport
import CoolcalWriting

/// `coolcal merge [--spool DIR] [--policy P] [CAL...]`: answers every pending
/// invitation, reading the calendars once; an invitation accepted earlier in the run
/// is busy time for the later ones. Accepted events go into the first CAL. DIR may be a
/// Maildir (Spool/MaildirSource.swift): left as it is unless `--mark`. Without DIR or CAL,
/// the config's `spool` and `calendar` keys.
package struct MergeCommand: CommandUnit, Equatable {
    package static let spool = Option<String>("spool", value: "DIR", completion: .directory, help: "the directory where invitations arrive (default: config spool; one of them is required)")
    package static let policy = Option<MergePolicy>("policy", value: "POLICY", help: "accept-if-free (default), accept-all, decline-busy or report")
    package static let mark = Flag("mark", help: "in a Maildir spool, move processed messages to cur/ and flag them seen (S)")
    package static let notify = Flag("notify", help: "also show a desktop notification for each invitation answered or found busy (session D-Bus; none, silently, without one)")
    /// merge's own `-q`: what cron should mail, not nothing.
    package static let quiet = Flag("quiet", short: "q", help: "print only what needs a person: invitations that failed or stayed busy, answers queued for more than a day")

    package static let spec = CommandSpec(
        name: "merge",
        usage: "coolcal merge [--spool DIR] [options] [CAL...]",
        summary: "answer every invitation in a spool directory by policy (for cron)",
        options: [spool.spec, policy.spec, mark.spec, notify.spec, SharedOptions.json.spec, SharedOptions.reply.spec]
            + SharedOptions.writing.map { $0.long == quiet.spec.long ? quiet.spec : $0 },
        examples: [
            "coolcal merge --spool ~/.local/share/coolcal/spool ~/calendars/work.ics",
            "*/5 * * * * /usr/local/bin/coolcal merge -q --spool $HOME/.local/share/coolcal/spool $HOME/cal.ics",
            "coolcal merge --spool ~/Mail/invitations --mark --json ~/calendars/work.ics",
        ])

    package var common: CommonOptions
    /// `--spool`; nil: the config's `spool`.
    package var spoolDirectory: String?
    /// The operands; none: the config's `calendar` lines.
    package var calendars: [String]
    package var buffer: Buffer?
    package var policy: MergePolicy = .acceptIfFree
    package var mark = false
    /// `--reply`: mail each answer to an iTIP invitation's organizer.
    package var reply = false
    /// `--notify`: a desktop notification for each outcome (posted, not waited on).
    package var notify = false

    package init(_ p: ParsedArguments) throws {
        try p.refuseStdin(p.operands[...], "calendars cannot be read from standard input")
        spoolDirectory = try p.value(Self.spool)
        calendars = p.operands
        common = try CommonOptions(p)
        buffer = try p.value(SharedOptions.buffer)
        policy = try p.value(Self.policy) ?? .acceptIfFree
        mark = p.has(Self.mark)
        reply = p.has(SharedOptions.reply)
        notify = p.has(Self.notify)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        let settings = try context.settings
        let diagnostics = context.diagnostics
        let answers = try context.answers
        guard let spoolDirectory = spoolDirectory ?? settings.setting(SettingsTable.spool).value else {
            throw UsageError("missing --spool DIR (or 'spool = DIR' in the config file)", command: "merge")
        }
        let operands = try settings.calendarOperands(calendars, command: "merge")
        let spool = try MergeSources.open(spoolDirectory, mark: mark, now: settings.now, lockTimeout: settings.lockTimeout,
                                          state: { try answers.open() })
        defer { spool.unlock() }
        let items = try spool.items(floatingZone: settings.zone, diagnostics: diagnostics)
        TestHook.pause(at: "merge-after-listing")
        let names = items.map(\.name)
        context.note("\(spoolDirectory): \(names.count) invitation\(names.count == 1 ? "" : "s") pending (policy \(policy.rawValue))")
        var results = MergeResults(json: common.json)
        defer { if common.json { context.out.write(results.document(spoolDirectory)) } }
        // A missing sendmail (78) or no usable --me (64) stops the run before any answer.
        if reply && policy != .report {
            _ = try answers.sendmail()
            guard let me = settings.me.first, MailAddress(calendarAddress: me) != nil else {
                throw UsageError("--reply needs --me ADDRESS, a mail address to answer from (or 'me' in the config)", command: "merge")
            }
        }
        guard !names.isEmpty else {
            // Nothing new: still the moment to deliver answers a down server left queued.
            if policy != .report, try answers.server() != nil || reply { try answers.deliver(try answers.open(), patience: patience) }
            return .ok
        }
        let check = ConflictCheck(finder: ConflictFinder(buffer: settings.buffer(buffer), zone: settings.zone),
                                  reader: settings.reader)
        let invites = items.map(\.loaded)
        // One read of the calendars for the whole run, limited to the span of all windows.
        let windows = invites.compactMap { try? check.finder.window(for: $0.get().invite) }
        let envelope = windows.first.map { first in windows.dropFirst().reduce(first) { $0.union($1) } }
        let target = try Settings.writeTarget(operands[0], command: "merge")
        // The calendar written to is locked and read once, here: the same read decides
        // the invitations, takes every change in memory and is written once at the end.
        let expected = invites.compactMap { try? $0.get().change(me: settings.me, domain: settings.domain, now: settings.now) }
        let batch = policy == .report ? nil : try settings.writer.batch(for: target, windows: windows, expecting: expected)
        let others = operands.map(CalendarLocation.init).dropFirst(batch?.loaded == nil ? 0 : 1)
        // Revisions worked out, and the series that can be placed placed, once for all
        // the windows below (ExpansionPlan).
        let calendars = check.reader.prepare((batch?.loaded.map { [$0] } ?? []) + (try check.reader.load(Array(others), window: envelope)))
        // Each invitation's window is expanded on its own, from what was read once for
        // all of them: a simple rule jumps to the window (CivilRecurrence), libical's
        // iterator starts there unless the rule counts, a series placed once is expanded
        // only in the windows it reaches, so ten windows cost about ten windows, not the
        // months between them.
        let store = policy == .report ? nil : try answers.open()
        let inbox = try store ?? answers.open()
        let server = try answers.server()
        // Into the inbox, all in one transaction, before any is answered.
        try inbox.together {
            for case .success(let file) in invites where !file.invite.isCancellation {
                try inbox.recordInvitation(file.invite, payload: String(decoding: file.text, as: UTF8.self), at: settings.now)
            }
        }
        var acceptedThisRun: [Occurrence] = []
        var status = ExitStatus.ok
        let notices = notify ? DesktopNotices() : nil
        // What is recorded and said of each invitation, in order, once the calendar is written.
        var settlements: [Settlement] = []
        for (name, loaded) in zip(names, invites) {
            let file: InvitationFile
            do {
                file = try loaded.get()
            } catch {
                settlements.append(Settlement(
                    written: false, name: name,
                    finished: policy == .report ? nil : MergeFinished(name: name, failed: true, outcome: "failed", note: "\(error)\n"),
                    report: { results in
                        results.add(context, "failed", name, nil, "\(error)")
                        diagnostics.warn("\(error)")
                    }))
                continue
            }
            let invite = file.invite
            if invite.isCancellation {
                if let settled = try cancel(file, name: name, target: target, batch: batch, context, status: &status) {
                    settlements.append(settled)
                }
                continue
            }
            let window = check.finder.window(for: invite)
            let existing = check.reader.expand(calendars, in: window)
            let report = check.report(invite, existing + acceptedThisRun)
            let accept: Bool
            switch policy {
            case .acceptAll: accept = true
            case .acceptIfFree, .declineBusy, .report: accept = report.free
            }
            var outcome: String
            // What was written, for the state (`decline` undoes it).
            var wrote: (change: CalendarChange, outcome: WriteOutcome)?
            var detail = "\(report.conflicts.count) conflict\(report.conflicts.count == 1 ? "" : "s")"
            if policy == .report {
                outcome = report.free ? "free" : "busy"
            } else if accept, let batch {
                if let warning = file.ownerWarning(me: settings.me) { diagnostics.warn(warning) }
                do {
                    let change = file.change(me: settings.me, domain: settings.domain, now: settings.now)
                    let written = try batch.apply(change)
                    wrote = (change, written)
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
                } catch where error is WriteError || error is CalDAVError || error is ICalError {
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
            var settled = Settlement(written: outcome == "accepted" || outcome == "ignored", name: name, report: { [outcome, detail] results in
                results.add(context, outcome, name, invite, detail)
                notices?.add(invite, "\(outcome): \(detail)")
            })
            if policy != .report {
                // Its note is written out while the calendar is written (below).
                settled.finished = MergeFinished(name: name, failed: false, outcome: outcome, note: "")
                settled.conflicts = report
            }
            settled.record = { [outcome, wrote] in
                if let store, outcome == "accepted" || outcome == "declined" {
                    let recorded = try store.recordAnswer(outcome == "accepted" ? .accepted : .declined, for: invite, comment: nil,
                                                          at: settings.now, queueFor: server)
                    if outcome == "accepted", let wrote {
                        try WrittenEvents.remember(wrote.change, wrote.outcome, invite: invite, answer: .accepted, target: target,
                                                   store: store, settings: settings, diagnostics: diagnostics)
                    }
                    if self.reply, let mail = try self.mailReply(file, accepted: outcome == "accepted", answers, name: name) {
                        try answers.queue(mail, responseKey: recorded.key, inviteID: invite.id.text, store)
                    }
                }
            }
            settlements.append(settled)
        }
        // The spool's notes (each report in JSON, most of what settling costs) are made on
        // another thread while the calendar is written and synced.
        let reports = settlements.map { s in s.conflicts.map { (s.finished?.outcome ?? "", $0) } }
        let now = settings.now
        let notes = BackgroundTask { reports.map { $0.map { Self.note($0.0, $0.1, now: now) } } }
        var writeFailure: Error?
        do {
            try batch?.commit()
            TestHook.pause(at: "merge-after-write")
        } catch where error is WriteError || error is CalDAVError || error is ICalError {
            writeFailure = error
            status = ExitStatus.of(error)
        }
        for (i, note) in (notes.wait() ?? []).enumerated() {
            if let note { settlements[i].finished?.note = note }
        }
        let settled = settlements.filter { settlement in
            guard settlement.written, let writeFailure else { return true }
            diagnostics.warn("\(settlement.name): not answered, left pending: \(writeFailure)")
            return false
        }
        // The answers are recorded first, in one transaction (for a local calendar only:
        // remembering what a CalDAV server holds asks the server), then the invitations
        // leave the spool: a crash in between leaves them pending, to be answered again,
        // idempotently.
        let record = { for settlement in settled { try settlement.record() } }
        if let store, !target.isRemote { try store.together(record) } else { try record() }
        TestHook.pause(at: "merge-before-remember")
        try spool.finish(settled.compactMap(\.finished))
        for settlement in settled { settlement.report(&results) }
        if let store { try answers.deliver(store, patience: patience) }
        notices?.post(context, style: settings.style)
        return status
    }

    /// `-q`: queued answers are told once they have waited a day.
    private var patience: TimeInterval? { common.quiet ? 86_400 : nil }

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

    /// Applies an organizer's cancellation to the batch; what to say and record once the
    /// calendar is written, or nil (and `status` set) when it could not be applied.
    private func cancel(_ file: InvitationFile, name: String, target: CalendarLocation, batch: CalendarBatch?,
                        _ context: RunContext, status: inout ExitStatus) throws -> Settlement? {
        let settings = try context.settings
        let invite = file.invite
        let outcome: WriteOutcome
        if let batch {
            do {
                outcome = try batch.apply(file.change(me: settings.me, domain: settings.domain, now: settings.now))
            } catch where error is WriteError || error is CalDAVError || error is ICalError {
                context.diagnostics.warn("\(name): not applied, left pending: \(error)")
                status = ExitStatus.of(error)
                return nil
            }
        } else {
            outcome = .unchanged
        }
        let said = outcome.isStale ? "ignored" : "cancelled"
        let detail = batch == nil ? "a cancellation" : outcome.describe(target.shown)
        return Settlement(
            written: batch != nil, name: name,
            finished: batch == nil ? nil : MergeFinished(name: name, failed: false, outcome: said, note: JSONWriter.string(.object([
                ("outcome", .string(said)),
                ("at", .string(OccurrenceTime.instant(Int64(settings.now.timeIntervalSince1970)).jsonString)),
                ("result", .string(outcome.describe(target.shown))),
            ]))),
            report: { results in results.add(context, said, name, invite, detail) })
    }

    /// What `merge` records and says of one invitation once the calendar is written.
    private struct Settlement {
        /// Whether it depends on that write (when the write failed, it stays pending).
        var written: Bool
        var name: String
        /// Its part of the state (answer, outbox, written event), recorded with the others'.
        var record: () throws -> Void = {}
        /// What the spool keeps of it; nil: it stays (`--policy report`).
        var finished: MergeFinished?
        /// The conflicts its note reports (an answered invitation's).
        var conflicts: ConflictReport?
        /// What it prints.
        var report: (inout MergeResults) -> Void
    }

    /// What `done/NAME.outcome` holds: the answer and the conflicts it was based on.
    private static func note(_ outcome: String, _ report: ConflictReport, now: Date) -> String {
        JSONWriter.string(.object([
            ("outcome", .string(outcome)),
            ("at", .string(OccurrenceTime.instant(Int64(now.timeIntervalSince1970)).jsonString)),
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

    package init?(argument: String) { self.init(rawValue: argument) }
    package static var choices: [String]? { allCases.map(\.rawValue) }
    package static func invalid(_ text: String, option: String) -> String {
        "--\(option) must be one of \(allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'"
    }
}
