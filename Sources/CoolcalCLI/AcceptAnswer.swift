import Foundation
import CoolcalCalendars
import CoolcalCheck
import CoolcalICal
import CoolcalInvite
import CoolcalModel
import CoolcalSchedule
import CoolcalState
import CoolcalSupport
import CoolcalWriting

/// `accept` and `accept --tentative` (and `review`'s `a`/`t`): the invitation written
/// into the first calendar — `STATUS:CONFIRMED` or `STATUS:TENTATIVE` for a push
/// payload, the owner's `PARTSTAT` for iTIP — then recorded, with the calendar and a
/// hash of the block written (what changing your mind compares), and sent.
package struct AcceptAnswer {
    package let file: InvitationFile
    package let calendars: [String]
    package let options: AnswerOptions
    package let tentative: Bool
    package let context: RunContext

    /// Thrown from inside the locked write to stop it when the window is busy.
    private struct Busy: Error { let report: ConflictReport }

    private var answer: Answer { tentative ? .tentative : .accepted }

    package func run() throws -> ExitStatus {
        let settings = try context.settings
        let invite = file.invite
        let target = try Settings.writeTarget(calendars[0], command: "accept")
        let key = InboxAnswering.stateKey(target)
        let recorded = invite.isCancellation || options.dryRun ? nil : try previous(key)
        let change = self.change(settings, recorded: recorded)
        if let warning = file.ownerWarning(me: settings.me) { context.diagnostics.warn(warning) }
        let finder = ConflictFinder(buffer: settings.buffer(options.buffer), zone: settings.zone)
        // The target is read through the pre-filter for the buffered window: what
        // `--if-free` checks, and where the new event reads back.
        let window = finder.window(for: invite)
        let verify = try self.verify(invite, target: target, window: window, finder: finder, settings)
        let mail = options.reply && !options.dryRun && !invite.isCancellation
            ? try context.answers.mailReply(for: file, partstat: tentative ? "TENTATIVE" : "ACCEPTED") : nil
        do {
            // A CalDAV calendar has no lock to hold while checking: it is read with the
            // others, just before the write (its etag still guards the event's resource).
            if target.isRemote { try verify(ICalCalendar(zones: ZoneBook())) }
            if options.dryRun { return try preview(change, target, window: window, verify: verify) }
            let outcome = try settings.writer.write(change: change, to: target, window: window,
                                                    check: target.isRemote ? { _ in } : verify)
            let verb: String
            switch outcome {
            case .stale: verb = "ignored"
            case _ where invite.isCancellation: verb = "cancelled"
            default: verb = tentative ? "tentative" : "accepted"
            }
            let what = invite.isCancellation && outcome == .unchanged ? "already cancelled in \(target.shown)" : outcome.describe(target.shown)
            context.say("\(verb): \(invite.title) (id \(invite.id.text)): \(what)")
            guard !outcome.isStale && !invite.isCancellation else { return .ok }
            let answers = try context.answers
            try answers.record(answer, for: invite, mail: mail)
            try WrittenEvents.remember(change, outcome, invite: invite, answer: answer, target: target, store: try answers.open(),
                                       settings: settings, diagnostics: context.diagnostics)
            return .ok
        } catch let busy as Busy {
            let n = busy.report.conflicts.count
            context.say("not accepted: \(invite.title) (id \(invite.id.text)): \(n) conflict\(n == 1 ? "" : "s") in the window")
            for c in busy.report.conflicts {
                context.say("  \(c.occurrence.start.jsonString)  \(c.occurrence.summary ?? "(no title)")  [\(c.occurrence.calendar)]")
            }
            return .busy
        }
    }

    /// What accepting writes: a push payload's event with the answer's STATUS, the
    /// organizer's event with the owner's PARTSTAT, or the organizer's cancellation.
    private func change(_ settings: Settings, recorded: WrittenEvent?) -> CalendarChange {
        if let message = file.message {
            var change = ITIPChange(message: message, cancel: file.invite.isCancellation, me: settings.me)
            change.partstat = tentative ? "TENTATIVE" : "ACCEPTED"
            return change
        }
        let event = NewEvent(accepting: file.invite, domain: settings.domain, now: settings.now)
        return PushAnswerChange(event, tentative ? .tentative : .accepted, recorded: recorded?.hash)
    }

    /// What the state remembers of an earlier write into this calendar. Read only when
    /// a state exists: accepting never creates one just to look.
    private func previous(_ key: String) throws -> WrittenEvent? {
        let answers = try context.answers
        guard answers.hasState else { return nil }
        return try answers.open().written(inviteID: file.invite.id.text).first { $0.calendar == key }
    }

    /// What `--if-free` checks, given the target as read under its lock: the window
    /// free in every CAL. A cancellation frees time: nothing to check.
    private func verify(_ invite: Invite, target: CalendarLocation, window: TimeWindow, finder: ConflictFinder,
                        _ settings: Settings) throws -> (ICalCalendar) throws -> Void {
        guard options.ifFree && !invite.isCancellation else { return { _ in } }
        let check = ConflictCheck(finder: finder, reader: settings.reader)
        let others = try check.reader.load(calendars.dropFirst(target.isRemote ? 0 : 1).map(CalendarLocation.init), window: window)
        return { calendar in
            // A vdir is read whole, under its lock: the event's own file is only one of its events.
            let mine: [LoadedCalendar]
            switch target {
            case .vdir: mine = try check.reader.calendars(at: target, window: window)
            case .file: mine = [LoadedCalendar(name: target.name, color: calendar.color, files: [calendar])]
            case .remote: mine = []
            }
            let report = check.report(invite, check.reader.expand(mine + others, in: window))
            if !report.free { throw Busy(report: report) }
        }
    }

    /// `--dry-run`: what would be written (for an iTIP message, the events as they
    /// would be after the write), or why nothing would be.
    private func preview(_ change: CalendarChange, _ target: CalendarLocation, window: TimeWindow,
                         verify: (ICalCalendar) throws -> Void) throws -> ExitStatus {
        let path = target.operand
        guard !target.isRemote, let existing = try? InputFile.open(path, accepting: .regularFiles).readAll(limit: 1 << 40),
              let calendar = try? ICalReader.read(existing, file: path, window: window) else {
            // (A CalDAV calendar was checked before: `run` did.)
            if !target.isRemote { try verify(ICalCalendar(zones: ZoneBook())) }
            guard !file.invite.isCancellation else {
                context.diagnostics.warn("nothing would be written: \(WriteOutcome.absent.describe(target.shown))")
                return .ok
            }
            context.out.write(change.preview(lineEnding: "\r\n"))
            return .ok
        }
        try verify(calendar)
        let text = CalendarText(bytes: existing)
        guard file.message != nil else {
            context.out.write(change.preview(lineEnding: text.lineEnding))
            return .ok
        }
        let (edited, outcome) = try change.apply(to: text, calendar: calendar, file: path)
        guard let edited else {
            context.diagnostics.warn("nothing would be written: \(outcome.describe(target.shown))")
            return .ok
        }
        let after = CalendarText(bytes: edited)
        for block in after.blocks(uid: change.uid) { context.out.write(String(decoding: after.bytes[block.range], as: UTF8.self)) }
        return .ok
    }
}
