/// `coolcal conflicts INVITE CAL...`.
struct ConflictsCommand {
    let request: ConflictsRequest
    let settings: Settings
    let diagnostics: Diagnostics

    func run(_ out: TextSink) throws -> ExitStatus {
        let invite = try InviteLoader.load(request.invite, floatingZone: settings.zone)
        let finder = ConflictFinder(buffer: settings.buffer(request.buffer), zone: settings.zone)
        let slots = request.suggest.map { _ in
            SlotFinder(finder: finder, hours: request.hours ?? settings.config.hours ?? .standard, weekends: request.weekends)
        }
        // Free slots are sought for the first instance of a recurring invitation.
        let window = slots.map { union($0.searchWindow(for: invite.first), finder.window(for: invite)) } ?? finder.window(for: invite)
        let paths = try settings.calendars(request.calendars, command: "conflicts")
        let calendars = try settings.loadCalendars(paths, window: window)
        let expander = OccurrenceExpander(options: settings.expansion(), diagnostics: diagnostics)
        let occurrences = expander.occurrences(in: window, calendars: calendars)
        let report = finder.report(for: invite, occurrences: occurrences)
        let suggestions = slots.map { $0.suggestions(for: invite.first, count: request.suggest ?? 0, occurrences: occurrences) }
        if !request.quiet {
            if request.common.json {
                var doc = JSONDocuments.conflicts(report)
                if let suggestions, case .object(var pairs) = doc {
                    pairs.append(("suggestions", JSONDocuments.suggestions(suggestions)))
                    doc = .object(pairs)
                }
                out.write(JSONWriter.string(doc))
            } else {
                out.write(ConflictsText(style: settings.style).render(report, suggestions: suggestions))
            }
        }
        return report.free ? .ok : .busy
    }

    private func union(_ a: TimeWindow, _ b: TimeWindow) -> TimeWindow {
        TimeWindow(start: min(a.start, b.start), end: max(a.end, b.end))
    }
}
