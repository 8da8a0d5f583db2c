import CoolcalICal
import CoolcalModel

/// Calendars made ready to expand in one window or in many (`merge` asks for one per
/// invitation): each file's events grouped into series once — a master with its
/// RECURRENCE-ID overrides, overrides without a master, overrides without a UID — in
/// the order `OccurrenceExpander` gives their occurrences.
///
/// Made `forManyWindows`, a series whose instances can be placed once — a master with
/// no override or problem that does not recur, or recurs by simple rules with an end
/// (`EventExpansion.reach`) — carries the span they lie in: a window that misses it
/// skips the series. Skipping gives what expanding would (nothing, and no warning: its
/// warnings are given only with an occurrence), at the cost of a comparison.
package struct ExpansionPlan {
    /// A class: each window's expansion refers to it, and copies none of its events.
    package final class Series {
        package let master: ICalEvent?
        package let overrides: [ICalEvent]
        package let emitOverrides: Bool

        init(master: ICalEvent?, overrides: [ICalEvent], emitOverrides: Bool) {
            self.master = master
            self.overrides = overrides
            self.emitOverrides = emitOverrides
        }

        /// Where all its instances lie (UTC seconds, start ≤ end), from `EventExpansion.reach`;
        /// nil: expand it in every window.
        package var reach: (start: Int64, end: Int64)?
        /// A window it may skip: one its reach misses, and, for a recurring series, before
        /// 2199 (where `CivilRecurrence` walks the rule, not libical).
        package func skips(_ window: TimeWindow) -> Bool {
            guard let reach, !window.overlaps(start: reach.start, end: reach.end) else { return false }
            return master?.isRecurring != true || window.end < Series.civilEnd
        }
        /// 2199-01-01T00:00:00Z, less two days.
        package static let civilEnd: Int64 = 7_226_582_400 - 2 * 86_400
        /// Made `forManyWindows`: what its master gives alike in every window.
        package var memo: Memo?
    }

    /// What expanding a series' master gives alike in every window — DTSTART's zone, the
    /// instance length, DTSTART's instance, the EXDATEs — kept from its first window when
    /// working it out warned of nothing (a warning is given per window, with an
    /// occurrence: a master that warns is worked out in each, as before). Like `reach`,
    /// for the options the plan was made with.
    package final class Memo {
        package struct Facts {
            let zone: ZoneRules
            let length: InstanceLength
            let fixed: RecurrenceSet.Fixed
        }
        /// nil: not yet worked out; `.some(nil)`: it warns, so not kept.
        package var facts: Facts??
        /// Its counted rules' walks.
        package let walks = RecordedWalks()
        /// The master's marks (declined, tentative, shown as free), once it had an instance.
        var marks: EventExpansion.Marks?
    }

    package struct File {
        package let calendar: ICalCalendar
        package let series: [Series]
    }

    package struct Calendar {
        package let loaded: LoadedCalendar
        package let files: [File]
    }

    package let calendars: [Calendar]

    package init(_ calendars: [LoadedCalendar], context: ExpansionContext, forManyWindows: Bool) {
        self.calendars = calendars.map { loaded in
            let resolved = loaded.resolvingRevisions()
            return Calendar(loaded: resolved, files: resolved.files.map { file in
                let series = Self.series(of: file)
                if forManyWindows {
                    for i in series.indices {
                        series[i].memo = Memo()
                        series[i].reach = EventExpansion.reach(of: series[i], zones: file.zones, calendar: resolved,
                                                                 context: context)
                    }
                }
                return File(calendar: file, series: series)
            })
        }
    }

    /// The file's series: each master with the overrides of its UID (several masters
    /// of one UID share them; their own occurrences come with the first), then the
    /// overrides whose master is not in the file, in UID order (so that warnings come
    /// out the same every time), then the overrides without a UID, each on its own.
    private static func series(of file: ICalCalendar) -> [Series] {
        var overridesByUID: [String: [ICalEvent]] = [:]
        var withoutUID: [ICalEvent] = []
        for event in file.events where event.recurrenceID != nil {
            if let uid = event.uid { overridesByUID[uid, default: []].append(event) } else { withoutUID.append(event) }
        }
        var result: [Series] = []
        var mastered: Set<String> = []
        for event in file.events where event.recurrenceID == nil {
            let overrides = event.uid.flatMap { overridesByUID[$0] } ?? []
            let first = event.uid.map { mastered.insert($0).inserted } ?? true
            result.append(Series(master: event, overrides: overrides, emitOverrides: first))
        }
        for (uid, overrides) in overridesByUID.sorted(by: { $0.key < $1.key }) where !mastered.contains(uid) {
            result += overrides.map { Series(master: nil, overrides: [$0], emitOverrides: true) }
        }
        result += withoutUID.map { Series(master: nil, overrides: [$0], emitOverrides: true) }
        return result
    }
}
