import Foundation

/// `coolcal accept [--if-free] [--dry-run] INVITE CAL [CAL...]`: writes into the
/// first CAL; with `--if-free`, every CAL must be free in the buffered window.
struct AcceptCommand {
    let request: AcceptRequest
    let settings: Settings
    let diagnostics: Diagnostics

    /// Thrown from inside the locked write to stop it when the window is busy.
    private struct Busy: Error { let report: ConflictReport }

    func run(_ out: TextSink) throws -> ExitStatus {
        let file = try InviteLoader.open(request.invite, floatingZone: settings.zone)
        let invite = file.invite
        let change = file.change(me: settings.me, domain: settings.domain, now: settings.now)
        let target = request.calendars[0]
        // A cancellation frees time: --if-free has nothing to check.
        let ifFree = request.ifFree && !invite.isCancellation
        let finder = ConflictFinder(buffer: settings.buffer(request.buffer), zone: settings.zone)
        // A CalDAV calendar has no lock to hold while checking: it is read with the
        // others, just before the write (its etag still guards the event's resource).
        let remote = CalDAVLocation.isURL(target)
        // What messages call it: a URL never with its password.
        let shown = remote ? CalDAVLocation.redact(target) : target
        let others = ifFree
            ? try settings.loadCalendars(Array(request.calendars.dropFirst(remote ? 0 : 1)), window: finder.window(for: invite))
            : []
        var isDirectory: ObjCBool = false
        let vdir = !remote && FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) && isDirectory.boolValue
        let check: (ICalCalendar) throws -> Void = { calendar in
            guard ifFree else { return }
            // A vdir is read whole, under its lock: the event's own file is only one of its events.
            let mine = vdir ? try settings.loadCalendars([target], window: finder.window(for: invite))
                : [LoadedCalendar(name: CalendarSource.displayName(target), color: calendar.color, files: [calendar])]
            let expander = OccurrenceExpander(options: settings.expansion(), diagnostics: diagnostics)
            let occurrences = expander.occurrences(in: finder.window(for: invite), calendars: mine + others)
            let report = finder.report(for: invite, occurrences: occurrences)
            if !report.free { throw Busy(report: report) }
        }
        if let warning = file.ownerWarning(me: settings.me) { diagnostics.warn(warning) }
        do {
            if remote { try check(ICalCalendar(zones: ZoneBook())) }
            if request.dryRun {
                if let existing = try? InputFile.read(target), let calendar = try? ICalReader.read(existing, file: target) {
                    try check(calendar)
                    let text = CalendarText(bytes: [UInt8](existing))
                    guard file.message != nil else {
                        out.write(change.preview(lineEnding: text.lineEnding))
                        return .ok
                    }
                    // An iTIP message depends on what the calendar holds: its events as
                    // they would be after the write, or why nothing would be written.
                    let (edited, outcome) = try change.apply(to: text, calendar: calendar, file: target)
                    guard let edited else {
                        diagnostics.warn("nothing would be written: \(outcome.describe(shown))")
                        return .ok
                    }
                    let after = CalendarText(bytes: [UInt8](edited))
                    for block in after.blocks(uid: change.uid) { out.write(String(decoding: after.bytes[block.range], as: UTF8.self)) }
                } else {
                    try check(ICalCalendar(zones: ZoneBook()))
                    guard !invite.isCancellation else {
                        diagnostics.warn("nothing would be written: \(WriteOutcome.absent.describe(shown))")
                        return .ok
                    }
                    out.write(change.preview(lineEnding: "\r\n"))
                }
                return .ok
            }
            var writer = CalendarWriter(lockTimeout: settings.lockTimeout)
            writer.environment = settings.environment
            writer.diagnostics = diagnostics
            let outcome = try writer.write(change: change, to: target, check: remote ? { _ in } : check)
            let verb: String
            switch outcome {
            case .stale: verb = "ignored"
            case _ where invite.isCancellation: verb = "cancelled"
            default: verb = "accepted"
            }
            let what = invite.isCancellation && outcome == .unchanged ? "already cancelled in \(shown)" : outcome.describe(shown)
            out.write("\(verb): \(invite.title) (id \(invite.id.text)): \(what)\n")
            if verb == "accepted" {
                try Answers(settings: settings, common: request.common, diagnostics: diagnostics).record(.accepted, for: invite)
            }
            return .ok
        } catch let busy as Busy {
            let n = busy.report.conflicts.count
            out.write("not accepted: \(invite.title) (id \(invite.id.text)): \(n) conflict\(n == 1 ? "" : "s") in the window\n")
            for c in busy.report.conflicts {
                out.write("  \(c.occurrence.start.jsonString)  \(c.occurrence.summary ?? "(no title)")  [\(c.occurrence.calendar)]\n")
            }
            return .busy
        }
    }
}
