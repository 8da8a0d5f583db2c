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
import CoolcalZones

/// `accept` and `accept --tentative` (and `review`'s `a`/`t`): the invitation written
/// into the first calendar (an iTIP update or cancellation where the event already lives,
/// `UIDHomes`) — `STATUS:CONFIRMED` or `STATUS:TENTATIVE` for a push
/// payload, the owner's `PARTSTAT` for iTIP — then recorded, with the calendar and a
/// hash of the block written (what changing your mind compares), and sent.
package struct Acceptance {
    package let file: InvitationFile
    package let calendars: [String]
    package let options: AnswerOptions
    package let tentative: Bool
    package let store: AnswerStore

    /// Thrown from inside the locked write to stop it when the window is busy.
    private struct Busy: StatusError {
        let report: ConflictReport
        /// 1, as the command says it: the window is busy (it is caught in `run`).
        var exitStatus: ExitStatus { .busy }
    }

    private var answer: Answer { tentative ? .tentative : .accepted }

    /// Writes (or previews) the answer; `report` hears the outcome as soon as the
    /// calendar holds it, before it is recorded.
    package func run(report: (AnswerOutcome) -> Void) throws {
        let settings = store.settings
        let invite = file.invite
        let target = try settings.writeTarget(calendars[0], command: "accept")
        if !options.create { try AnswerSettings.requireExisting(target) }
        let key = AnswerSettings.stateKey(target)
        let recorded = invite.isCancellation || options.dryRun ? nil : try previous(key)
        let change = self.change(settings, recorded: recorded)
        // An update or cancellation goes where the event already lives among the CALs (`UIDHomes`).
        let homes = try UIDHomes(target: target, batch: nil, calendars: file.message == nil ? [] : calendars,
                                 uids: Set(file.message.map { [$0.uid] } ?? []), me: settings.me, writer: settings.writer,
                                 memory: OrganizerMemory(lookIn: { [store] in store.hasState ? try store.open() : nil },
                                                         recordIn: { [store] in try store.open() }, now: settings.now))
        if let warning = file.ownerWarning(me: settings.me) { settings.diagnostics.warn(warning) }
        if !invite.isCancellation && invite.everyInstanceEnded(before: settings.now, zone: settings.zone) {
            // Written all the same (a record of a meeting that happened); merge skips it as `past`.
            settings.diagnostics.warn("every instance ended before now")
        }
        let finder = ConflictFinder(buffer: settings.buffer(options.buffer), zone: settings.zone)
        // The target is read through the pre-filter for the buffered window: what
        // `--if-free` checks, and where the new event reads back.
        let window = finder.window(for: invite)
        let verify = try self.verify(invite, target: target, window: window, finder: finder, settings)
        let mail = options.reply && !options.dryRun && !invite.isCancellation
            ? try store.mailReply(for: file, partstat: tentative ? "TENTATIVE" : "ACCEPTED") : nil
        do {
            // A CalDAV calendar has no lock to hold while checking: it is read with the
            // others, just before the write (its etag still guards the event's resource).
            if target.isRemote { try verify(ICalCalendar(zones: ZoneBook())) }
            // Another CAL than the first is checked with the first as it is now (not locked).
            let first = { (_: ICalCalendar) throws in try verify(try Self.read(target, window: window)) }
            if options.dryRun {
                let place = homes.places(change.uid)[0]
                return report(.preview(try preview(change, place, window: window, verify: place == target ? verify : first)))
            }
            let (outcome, places) = try homes.apply(change, window: window, check: { place in
                place != target ? first : target.isRemote ? { _ in } : verify
            })
            if case .held(let reason, let detail) = outcome {
                // Not the organizer's word: nothing written, recorded or mailed.
                return report(.held(invite, reason, detail: detail, target: places[0]))
            }
            let verb: AnswerOutcome.AcceptVerb
            switch outcome {
            case .stale: verb = .ignored
            case _ where invite.isCancellation: verb = .cancelled
            default: verb = tentative ? .tentative : .accepted
            }
            report(.accepted(verb, invite, write: outcome, target: places[0]))
            TestHook.pause(at: "accept-after-write")
            // Written: a state that fails now is said so (exit 2), never "as it was".
            try UnrecordedAnswer.recording(after: outcome.changedCalendar ? places.map(\.shown) : []) {
                if store.hasState && !outcome.isStale {
                    // An update or cancellation merge held for the person (beside the invitation): decided now.
                    let uid = invite.id.text
                    try store.open().senders.markHeld(id: invite.isCancellation ? InboxID.heldCancellation(uid) : InboxID.heldUpdate(uid), nil)
                }
                guard !outcome.isStale && !invite.isCancellation else { return }
                try store.record(answer, for: invite, mail: mail) { report(.mail($0)) }
                try homes.memory.flush()
                for place in places {
                    try WrittenEvents.remember(change, outcome, invite: invite, answer: answer, target: place, store: try store.open(),
                                               settings: settings)
                }
            }
        } catch let busy as Busy {
            report(.busy(invite, busy.report))
        }
    }

    /// The first CAL as it is now, for `--if-free` when another CAL is written: a file
    /// read for `window`; an empty calendar for a vdir (read whole by the check) or CalDAV.
    private static func read(_ target: CalendarLocation, window: TimeWindow) throws -> ICalCalendar {
        guard case .file(let path) = target, FileStatus.of(path) != nil else { return ICalCalendar(zones: ZoneBook()) }
        return try ICalReader.read(try ICalReader.wholeFile(path), file: path, window: window, standalone: true)
    }

    /// What accepting writes: a push payload's event with the answer's STATUS, the
    /// organizer's event with the owner's PARTSTAT, or the organizer's cancellation.
    private func change(_ settings: AnswerSettings, recorded: WrittenEvent?) -> CalendarChange {
        if let message = file.message {
            var change = ITIPChange(message: message, cancel: file.invite.isCancellation, me: settings.me,
                                    sender: CalendarAddress.sender(of: file.invite.mail))
            change.partstat = tentative ? "TENTATIVE" : "ACCEPTED"
            change.newOrganizer = options.newOrganizer
            return change
        }
        let event = NewEvent(accepting: file.invite, domain: settings.domain, now: settings.now)
        return PushAnswerChange(event, tentative ? .tentative : .accepted, recorded: recorded?.hash)
    }

    /// What the state remembers of an earlier write into this calendar. Read only when
    /// a state exists: accepting never creates one just to look.
    private func previous(_ key: String) throws -> WrittenEvent? {
        guard store.hasState else { return nil }
        return try store.open().written(inviteID: file.invite.id.text).first { $0.calendar == key }
    }

    /// What `--if-free` checks, given the target as read under its lock: the window
    /// free in every CAL. A cancellation frees time: nothing to check.
    private func verify(_ invite: Invite, target: CalendarLocation, window: TimeWindow, finder: ConflictFinder,
                        _ settings: AnswerSettings) throws -> (ICalCalendar) throws -> Void {
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
    /// would be after the write), or nil, with a warning saying why, when nothing would be.
    private func preview(_ change: CalendarChange, _ target: CalendarLocation, window: TimeWindow,
                         verify: (ICalCalendar) throws -> Void) throws -> String? {
        let diagnostics = store.diagnostics
        let path = target.operand
        guard !target.isRemote, let existing = try? InputFile.open(path, accepting: .regularFiles).readAll(limit: 1 << 40),
              let calendar = try? ICalReader.read(existing, file: path, window: window, standalone: true) else {
            // (A CalDAV calendar was checked before: `run` did.)
            if !target.isRemote { try verify(ICalCalendar(zones: ZoneBook())) }
            guard !file.invite.isCancellation else {
                diagnostics.warn("nothing would be written: \(WriteOutcome.absent.describe(target.shown))")
                return nil
            }
            return change.preview(lineEnding: "\r\n")
        }
        let text = CalendarText(bytes: existing)
        guard file.message != nil else {
            try verify(calendar)
            return change.preview(lineEnding: text.lineEnding)
        }
        let (edited, outcome) = try change.apply(to: text, calendar: calendar, file: path)
        // The same version again is already there: never busy (as the write decides).
        if outcome != .unchanged { try verify(calendar) }
        guard let edited else {
            diagnostics.warn("nothing would be written: \(outcome.describe(target.shown))")
            return nil
        }
        let after = CalendarText(bytes: edited)
        return after.blocks(uid: change.uid).map { String(decoding: after.bytes[$0.range], as: UTF8.self) }.joined()
    }
}
