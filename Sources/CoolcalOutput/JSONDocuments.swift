import CoolcalCalendars
import CoolcalInvite
import CoolcalModel
import CoolcalSchedule
import CoolcalSupport

/// The JSON documents of DESIGN.md, keys in the documented order.
package enum JSONDocuments {
    /// An occurrence; `extra` (a conflict's or an ignored event's fields) comes before
    /// `incomplete`; the fields added since come after it, in the order they were added.
    /// `titled`: with `title` (events), the same as the deprecated `summary`.
    package static func occurrence(_ o: Occurrence, extra: [(String, JSONValue)] = [], titled: Bool = false) -> JSONValue {
        let summary = o.summary.map(JSONValue.string) ?? .null
        return .object([
            ("uid", o.uid.map(JSONValue.string) ?? .null),
            ("recurrence_id", o.recurrenceID.map { .string($0.jsonString) } ?? .null),
            ("summary", summary),
            ("calendar", .string(o.calendar)),
            ("start", .string(o.start.jsonString)),
            ("end", .string(o.end.jsonString)),
            ("all_day", .bool(o.allDay)),
            ("busy", .bool(o.busy)),
            ("transparent", .bool(o.transparent)),
            ("status", o.status.map(JSONValue.string) ?? .null),
        ] + extra + [
            ("incomplete", .bool(o.incomplete != nil)),
            ("tentative", .bool(o.isTentative)),
            ("calendar_name", .string(o.calendarDisplayName)),
        // Added last, as JSON fields are (man page, JSON).
        ] + (titled ? [("title", summary)] : []))
    }

    package static func window(_ w: TimeWindow) -> JSONValue {
        .object([
            ("start", .string(OccurrenceTime.instant(w.start).jsonString)),
            ("end", .string(OccurrenceTime.instant(w.end).jsonString)),
        ])
    }

    /// `coolcal events --json`.
    package static func events(window w: TimeWindow, occurrences: [Occurrence]) -> JSONValue {
        // `title`, the invitation's word; `summary` kept for the scripts that read it (deprecated).
        .object([("window", window(w)), ("events", .array(occurrences.map { o in
            occurrence(o, titled: true)
        }))])
    }

    /// `"suggestions": [{"start", "end"}]`, in the invitation's own form.
    package static func suggestions(_ slots: [Invite]) -> JSONValue {
        .array(slots.map { .object([("start", .string($0.start.jsonString)), ("end", .string($0.end.jsonString))]) })
    }

    /// `coolcal conflicts --json`.
    package static func conflicts(_ report: ConflictReport) -> JSONValue {
        let invite = report.invite
        let id: JSONValue
        switch invite.id {
        case .number(let n): id = .int(n)
        case .uid(let s): id = .string(s)
        }
        let checked = invite.checked
        var pairs: [(String, JSONValue)] = [
            ("invite", .object([
                ("id", id),
                ("title", .string(invite.title)),
                ("start", .string(invite.start.jsonString)),
                ("end", .string(invite.end.jsonString)),
                ("all_day", .bool(invite.allDay)),
            ])),
            ("window", window(report.window)),
            ("conflicts", .array(report.conflicts.map { c in
                var extra: [(String, JSONValue)] = [("overlaps_invite", .bool(c.overlapsInvite))]
                if let i = c.instance, checked.indices.contains(i) {
                    extra.append(("instance", .string(checked[i].start.jsonString)))
                }
                return occurrence(c.occurrence, extra: extra)
            })),
            ("ignored", .array(report.ignored.map {
                occurrence($0.occurrence, extra: [("reason", .string($0.reason.rawValue))])
            })),
            ("free", .bool(report.free)),
        ]
        // A recurring invitation: each instance checked, and whether it is free.
        if checked.count > 1 {
            pairs.append(("instances", .array(checked.indices.map { i in
                .object([
                    ("start", .string(checked[i].start.jsonString)),
                    ("end", .string(checked[i].end.jsonString)),
                    ("free", .bool(report.isFree(instance: i))),
                ])
            })))
        }
        return .object(pairs)
    }
}
