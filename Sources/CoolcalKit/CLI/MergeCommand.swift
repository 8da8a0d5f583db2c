import Foundation

/// `coolcal merge --spool DIR [--policy P] CAL [CAL...]`: answers every pending
/// invitation, reading the calendars once; an invitation accepted earlier in the run
/// is busy time for the later ones. Accepted events go into the first CAL.
struct MergeCommand {
    let request: MergeRequest
    let settings: Settings
    let diagnostics: Diagnostics

    func run(_ out: TextSink) throws -> ExitStatus {
        let spool = Spool(directory: request.spool)
        // Checked before the run lock: a missing spool is 66 naming it, not a failure
        // to create the lock file inside it.
        _ = try spool.pending()
        let runLock = try FileLock(path: request.spool + "/.coolcal-merge.lock", timeout: settings.lockTimeout)
        defer { runLock.unlock() }
        let names = try spool.pending()
        guard !names.isEmpty else {
            // Nothing new: still the moment to deliver answers a down server left queued.
            if request.policy != .report {
                let answers = Answers(settings: settings, common: request.common, diagnostics: diagnostics)
                if try answers.server() != nil { try answers.deliver(try answers.open()) }
            }
            return .ok
        }
        let finder = ConflictFinder(buffer: settings.buffer(request.buffer), zone: settings.zone)
        let invites = names.map { name in Result { try InviteLoader.open(request.spool + "/" + name, floatingZone: settings.zone) } }
        // One read of the calendars for the whole run, limited to the span of all windows.
        let windows = invites.compactMap { try? finder.window(for: $0.get().invite) }
        let envelope = windows.isEmpty ? nil : TimeWindow(start: windows.map(\.start).min() ?? 0, end: windows.map(\.end).max() ?? 0)
        let calendars = try settings.loadCalendars(request.calendars, window: envelope)
        let target = request.calendars[0]
        // What lines and notes call it: a URL never with its password.
        let shown = CalDAVLocation.isURL(target) ? CalDAVLocation.redact(target) : target
        let expander = OccurrenceExpander(options: settings.expansion(), diagnostics: diagnostics)
        var writer = CalendarWriter(lockTimeout: settings.lockTimeout)
        writer.environment = settings.environment
        writer.diagnostics = diagnostics
        let answers = Answers(settings: settings, common: request.common, diagnostics: diagnostics)
        let store = request.policy == .report ? nil : try answers.open()
        let server = try answers.server()
        var acceptedThisRun: [Occurrence] = []
        var status = ExitStatus.ok
        for (name, loaded) in zip(names, invites) {
            let file: InvitationFile
            do {
                file = try loaded.get()
            } catch {
                if request.policy != .report {
                    try spool.finish(name, failed: true, note: "\(error)\n")
                }
                out.write("failed    \(name)\n")
                diagnostics.warn("\(error)")
                continue
            }
            let invite = file.invite
            if invite.isCancellation {
                status = try cancel(file, name: name, spool: spool, target: target, shown: shown, writer: writer, out) ?? status
                continue
            }
            let window = finder.window(for: invite)
            let occurrences = expander.occurrences(in: window, calendars: calendars) + acceptedThisRun
            let report = finder.report(for: invite, occurrences: occurrences)
            let accept: Bool
            switch request.policy {
            case .acceptAll: accept = true
            case .acceptIfFree, .declineBusy, .report: accept = report.free
            }
            var outcome: String
            var detail = "\(report.conflicts.count) conflict\(report.conflicts.count == 1 ? "" : "s")"
            if request.policy == .report {
                outcome = report.free ? "free" : "busy"
            } else if accept {
                if let warning = file.ownerWarning(me: settings.me) { diagnostics.warn(warning) }
                do {
                    let change = file.change(me: settings.me, domain: settings.domain, now: settings.now)
                    let written = try writer.write(change: change, to: target)
                    outcome = "accepted"
                    switch written {
                    case .added, .updated: detail += "; written to \(shown)"
                    case .unchanged: detail += "; already in \(shown)"
                    case .stale:
                        // An older version than the calendar's: not an answer to record.
                        outcome = "ignored"
                        detail += "; " + written.describe(shown)
                    default: detail += "; " + written.describe(shown)
                    }
                } catch where error is WriteError || error is CalDAVError {
                    diagnostics.warn("\(name): not answered, left pending: \(error)")
                    status = ExitStatus.of(error)
                    continue
                }
                for instance in invite.checked where outcome == "accepted" {
                    acceptedThisRun.append(occurrence(of: invite, instance, finder: finder, calendar: target))
                }
            } else {
                outcome = request.policy == .declineBusy ? "declined" : "busy"
                if outcome == "busy" { detail += "; not accepted" }
            }
            if let store, outcome == "accepted" || outcome == "declined" {
                try store.recordAnswer(outcome == "accepted" ? .accepted : .declined, for: invite, comment: nil,
                                       at: settings.now, queueFor: server)
            }
            if request.policy != .report {
                try spool.finish(name, failed: false, note: note(outcome, invite, report))
            }
            let padded = outcome.padding(toLength: 9, withPad: " ", startingAt: 0)
            out.write("\(padded) \(name)  \(invite.title)  \(invite.start.jsonString)  (\(detail))\n")
        }
        if let store { try answers.deliver(store) }
        return status
    }

    /// Applies an organizer's cancellation; a status when it could not be written.
    private func cancel(_ file: InvitationFile, name: String, spool: Spool, target: String, shown: String,
                        writer: CalendarWriter, _ out: TextSink) throws -> ExitStatus? {
        let invite = file.invite
        let outcome: WriteOutcome
        if request.policy == .report {
            outcome = .unchanged
        } else {
            do {
                outcome = try writer.write(change: file.change(me: settings.me, domain: settings.domain, now: settings.now), to: target)
            } catch where error is WriteError || error is CalDAVError {
                diagnostics.warn("\(name): not applied, left pending: \(error)")
                return ExitStatus.of(error)
            }
            try spool.finish(name, failed: false, note: JSONWriter.string(.object([
                ("outcome", .string(outcome.isStale ? "ignored" : "cancelled")),
                ("at", .string(OccurrenceTime.instant(Int64(settings.now.timeIntervalSince1970)).jsonString)),
                ("result", .string(outcome.describe(shown))),
            ])))
        }
        let detail = request.policy == .report ? "a cancellation" : outcome.describe(shown)
        let word = outcome.isStale ? "ignored  " : "cancelled"
        out.write("\(word) \(name)  \(invite.title)  \(invite.start.jsonString)  (\(detail))\n")
        return nil
    }

    /// What `done/NAME.outcome` holds: the answer and the conflicts it was based on.
    private func note(_ outcome: String, _ invite: Invite, _ report: ConflictReport) -> String {
        JSONWriter.string(.object([
            ("outcome", .string(outcome)),
            ("at", .string(OccurrenceTime.instant(Int64(settings.now.timeIntervalSince1970)).jsonString)),
            ("report", JSONDocuments.conflicts(report)),
        ]))
    }

    /// An invitation accepted in this run, as busy time for the next ones.
    private func occurrence(of invite: Invite, _ instance: InviteInstance, finder: ConflictFinder,
                            calendar: String) -> Occurrence {
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
                   calendar: CalendarSource.displayName(calendar), calendarColor: nil, start: instance.start,
                   end: instance.end, startInstant: span.start, endInstant: span.end, allDay: single.allDay,
                   transparent: false, status: "CONFIRMED", declinedByOwner: false, inviteID: invite.id.text)
    }
}
