import Foundation

/// `coolcal accept [--if-free] [--dry-run] INVITE [CAL...]`: writes into the
/// first CAL (none: the config's `calendar` lines); with `--if-free`, every CAL must be
/// free in the buffered window.
struct AcceptCommand: CommandUnit, Equatable {
    static let ifFree = Flag("if-free", help: "accept only when the buffered window is free in every CAL; else exit 1, write nothing")
    static let dryRun = Flag("dry-run", short: "n", help: "print the VEVENT that would be written; write nothing")

    static let spec = CommandSpec(
        name: "accept",
        usage: "coolcal accept [options] INVITE [CAL...]",
        summary: "write the invitation into the first calendar as a VEVENT, safely",
        options: [ifFree.spec, dryRun.spec, SharedOptions.reply.spec] + SharedOptions.writing,
        examples: [
            "coolcal accept invite.json ~/calendars/work.ics",
            "coolcal accept --if-free invite.json ~/calendars/work.ics ~/calendars/family/",
            "coolcal accept --reply --me me@example.com invite.ics ~/calendars/work.ics",
        ])

    var common: CommonOptions
    var invite: String
    /// The operands after INVITE; none: the config's `calendar` lines.
    var calendars: [String]
    var buffer: Buffer?
    var ifFree = false
    var dryRun = false
    /// `--reply`: also mail the REPLY to the organizer.
    var reply = false

    init(_ p: ParsedArguments) throws {
        guard !p.operands.isEmpty else { throw p.usage("missing an invitation (and calendars, unless the config names some)") }
        try p.refuseStdin(p.operands.dropFirst(), "only the invitation can be read from standard input")
        invite = p.operands[0]
        calendars = Array(p.operands.dropFirst())
        common = try CommonOptions(p)
        buffer = try p.value(SharedOptions.buffer)
        ifFree = p.has(Self.ifFree)
        dryRun = p.has(Self.dryRun)
        reply = p.has(SharedOptions.reply)
    }

    /// Thrown from inside the locked write to stop it when the window is busy.
    private struct Busy: Error { let report: ConflictReport }

    func run(_ context: RunContext) throws -> ExitStatus {
        let settings = try context.settings
        let calendars = self.calendars.isEmpty ? settings.setting(SettingsTable.calendars).values : self.calendars
        guard !calendars.isEmpty else {
            throw UsageError("missing a calendar to write to (name one, or add 'calendar = PATH' to the config file)", command: "accept")
        }
        let file = try InviteOperand.open(invite, context)
        let invite = file.invite
        let change = file.change(me: settings.me, domain: settings.domain, now: settings.now)
        let target = try Settings.writeTarget(calendars[0], command: "accept")
        if let warning = file.ownerWarning(me: settings.me) { context.diagnostics.warn(warning) }
        let finder = ConflictFinder(buffer: settings.buffer(buffer), zone: settings.zone)
        // The target is read through the pre-filter for the buffered window: what
        // `--if-free` checks, and where the new event reads back.
        let window = finder.window(for: invite)
        let verify = try self.verify(invite, target: target, calendars: calendars, finder: finder, settings)
        let mail = reply && !dryRun && !invite.isCancellation ? try context.answers.mailReply(for: file, partstat: "ACCEPTED") : nil
        do {
            // A CalDAV calendar has no lock to hold while checking: it is read with the
            // others, just before the write (its etag still guards the event's resource).
            if target.isRemote { try verify(ICalCalendar(zones: ZoneBook())) }
            if dryRun { return try preview(file, change, target, window: window, verify: verify, context) }
            let outcome = try settings.writer.write(change: change, to: target, window: window,
                                                    check: target.isRemote ? { _ in } : verify)
            let verb: String
            switch outcome {
            case .stale: verb = "ignored"
            case _ where invite.isCancellation: verb = "cancelled"
            default: verb = "accepted"
            }
            let what = invite.isCancellation && outcome == .unchanged ? "already cancelled in \(target.shown)" : outcome.describe(target.shown)
            context.say("\(verb): \(invite.title) (id \(invite.id.text)): \(what)")
            if verb == "accepted" { try context.answers.record(.accepted, for: invite, mail: mail) }
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

    /// What `--if-free` checks, given the target as read under its lock: the window
    /// free in every CAL. A cancellation frees time: nothing to check.
    private func verify(_ invite: Invite, target: CalendarLocation, calendars: [String], finder: ConflictFinder,
                        _ settings: Settings) throws -> (ICalCalendar) throws -> Void {
        guard ifFree && !invite.isCancellation else { return { _ in } }
        let check = ConflictCheck(finder: finder, reader: settings.reader)
        let window = check.finder.window(for: invite)
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
    private func preview(_ file: InvitationFile, _ change: CalendarChange, _ target: CalendarLocation,
                         window: TimeWindow, verify: (ICalCalendar) throws -> Void, _ context: RunContext) throws -> ExitStatus {
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
