import Foundation
import CoolcalCalDAV
import CoolcalCalendars
import CoolcalCheck
import CoolcalICal
import CoolcalInvite
import CoolcalMail
import CoolcalRSVP
import CoolcalModel
import CoolcalSchedule
import CoolcalSpool
import CoolcalSupport
import CoolcalWriting

/// `merge`'s run: every pending invitation of a spool answered by policy, reading the
/// calendars once; an invitation accepted earlier in the run is busy time for the later
/// ones. New events go into the first calendar, written once at the end; an update, a
/// cancellation or a reply where the event already lives (`UIDHomes`). Then, in
/// this order, so that a crash anywhere leaves each invitation answered once: the
/// answers recorded in one state transaction, the invitations finished in the spool
/// (moved, or a Maildir's messages remembered), the outbox delivered.
package struct MergeRun {
    package let store: AnswerStore
    package let spoolDirectory: String
    /// The calendar operands: the first is written to, all are read (and written where an
    /// event being updated lives).
    package let calendars: [String]
    package var policy: MergePolicy = .acceptIfFree
    /// `--mark`: a Maildir's processed messages are moved to `cur/`, flagged seen.
    package var mark = false
    /// `--reply`: mail each answer to an iTIP invitation's organizer.
    package var reply = false
    package var buffer: Buffer?
    package var lockTimeout: TimeInterval
    /// `merge -q`: queued answers are told only once they have waited this long.
    package var patience: TimeInterval?
    /// Whether the run delivers the outbox at its end (`process` leaves it queued: a slow
    /// sendmail or server must not hold a mail delivery).
    package var deliverOutbox = true
    package let notes: MergeNotes

    package init(store: AnswerStore, spoolDirectory: String, calendars: [String], lockTimeout: TimeInterval, notes: MergeNotes) {
        self.store = store
        self.spoolDirectory = spoolDirectory
        self.calendars = calendars
        self.lockTimeout = lockTimeout
        self.notes = notes
    }

    /// Answers the spool. `listed` is called once the spool is locked and its invitations
    /// listed (from then on the run has something to report, if only that it answered
    /// nothing); `report` gets each invitation's outcome, in spool order, once it is
    /// settled. Returns the last calendar write that failed (those invitations stay
    /// pending), nil when none did.
    /// `source`: where the invitations come from (`process`'s message); nil: the spool
    /// directory's.
    package func run(source: (() throws -> MergeSource)? = nil, listed: () -> Void = {}, report: (MergeItem) -> Void) throws -> Error? {
        let settings = store.settings
        let diagnostics = settings.diagnostics
        // A spool that does not exist is not created: said once a day, and the run ends (0).
        if source == nil, MissingSpool.isMissing(spoolDirectory) {
            if MissingSpool.due(spoolDirectory, stateDirectory: store.stateDirectory, now: settings.now) {
                diagnostics.warn(MissingSpool.message(spoolDirectory))
            }
            return nil
        }
        // A Maildir listed as the last run left it, with the state unwritten since, has
        // nothing new: nothing is opened to find that out. (Not with an inviting server:
        // its queue is looked at every run.)
        let unchanged = source == nil && store.serverSetting == nil
            && MaildirSource.unchanged(spoolDirectory, stateDirectory: store.stateDirectory, report: policy == .report, now: settings.now)
        let spool = unchanged ? nil : try source?() ?? MergeSources.open(spoolDirectory, mark: mark, now: settings.now,
                                                                           lockTimeout: lockTimeout, report: policy == .report,
                                                                           state: { try store.open() })
        defer { spool?.unlock() }
        // Protocol order, not directory order: a CANCEL in new/ after the REQUEST in cur/.
        let items = try spool.map { ProtocolOrder.sorted(try $0.items(floatingZone: settings.zone, diagnostics: diagnostics)) } ?? []
        TestHook.pause(at: "merge-after-listing")
        listed()
        if unchanged { diagnostics.note("\(spoolDirectory): listed as the last run left it, the state unchanged since") }
        diagnostics.note("\(spoolDirectory): \(items.count) invitation\(items.count == 1 ? "" : "s") pending (policy \(policy.rawValue))")
        // A missing sendmail (78) or no usable --me (64) stops the run before any answer.
        if reply && policy != .report {
            _ = try store.sendmail()
            guard let me = settings.me.first, MailAddress(calendarAddress: me) != nil else {
                throw UsageError("--reply needs --me ADDRESS, a mail address to answer from (or 'me' in the config)", command: "merge")
            }
        }
        guard let spool, !items.isEmpty else {
            // Nothing new: still the moment to deliver answers a down server left queued
            // (an unchanged spool's stamp says none wait).
            if spool != nil, policy != .report, deliverOutbox, try store.server() != nil || reply {
                try store.deliver(try store.open(), patience: patience)
            }
            try spool?.ended()
            return nil
        }
        if policy != .report, let first = calendars.first {
            // 66, as a missing input: the invitations stay pending (process parks its message).
            try AnswerSettings.requireExisting(CalendarLocation(first), command: settings.command ?? "merge")
        }
        var pass = try MergePass(run: self, items: items)
        try pass.decide()
        let failure = try settle(&pass, spool: spool, report: report)
        if let state = pass.state, deliverOutbox { try store.deliver(state, patience: patience) }
        try spool.ended()
        return failure
    }

    /// Writes the calendar once, then records, finishes and reports what was decided.
    private func settle(_ pass: inout MergePass, spool: MergeSource, report: (MergeItem) -> Void) throws -> Error? {
        let diagnostics = store.diagnostics
        // The spool's notes (each report in JSON, most of what settling costs) are made on
        // another thread while the calendar is written and synced; for a mailbox, none.
        let reports = spool.keepsNotes ? pass.settlements.map { s in s.conflicts.map { (s.finished?.outcome ?? .failed, $0) } } : []
        let now = store.settings.now
        let answered = notes.answered
        let made = BackgroundTask { reports.map { $0.map { answered($0.0, $0.1, now) } } }
        var failure = pass.failure
        var writeFailure: Error?
        do {
            try pass.batch?.commit()
        } catch where CalendarWriteFailure.matches(error) {
            writeFailure = error
            failure = error
        }
        TestHook.pause(at: "merge-after-write")
        for (i, note) in (made.wait() ?? []).enumerated() {
            if let note { pass.settlements[i].finished?.note = note }
        }
        let settled = pass.settlements.filter { settlement in
            guard settlement.written, let writeFailure else { return true }
            diagnostics.warn("\(settlement.item.name): not answered, left pending: \(writeFailure)")
            return false
        }
        // The answers are recorded first, in one transaction (for a local calendar only:
        // remembering what a CalDAV server holds asks the server), then the invitations
        // leave the spool: a crash in between leaves them pending, to be answered again,
        // idempotently.
        let record = { for settlement in settled { try settlement.record(!settlement.superseded) } }
        // Written: a state that fails now is said so (exit 2), never "as it was".
        var written: [String] = []
        for settlement in pass.settlements where writeFailure == nil && settlement.written && settlement.item.write?.changedCalendar == true {
            written += settlement.item.places.map(\.shown).filter { !written.contains($0) }
        }
        try UnrecordedAnswer.recording(after: written) {
            if let state = pass.state, !pass.target.isRemote { try state.together(record) } else { try record() }
            // What the organizers sent, once the calendars hold it.
            if writeFailure == nil { try pass.homes.memory.flush() }
            TestHook.pause(at: "merge-before-remember")
            try spool.finish(settled.compactMap(\.finished))
        }
        if policy == .report {
            try spool.remember(reported: settled.map { MergeFinished(name: $0.item.name, failed: false, outcome: $0.item.outcome, note: "") })
        }
        for settlement in settled {
            report(settlement.item)
            if let warning = settlement.warning { diagnostics.warn(warning) }
        }
        return failure
    }

    /// `--reply`: the REPLY mail for an answered invitation; a warning, not a failure,
    /// when it cannot be mailed (a push payload, no organizer, not an attendee).
    func mailReply(_ file: InvitationFile, accepted: Bool, name: String) throws -> MailReply? {
        guard MailReply.hasOrganizer(file) else {
            store.diagnostics.warn("\(name): --reply: no organizer to mail the answer to; not mailed")
            return nil
        }
        do {
            return try AnswerStore.build(file, partstat: accepted ? "ACCEPTED" : "DECLINED", comment: nil, settings: store.settings)
        } catch let error as InviteError {
            store.diagnostics.warn("\(name): --reply: not mailed: \(error)")
            return nil
        }
    }
}
