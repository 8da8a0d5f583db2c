import Foundation
import CoolcalAnswering
import CoolcalInvite
import CoolcalModel
import CoolcalSupport
import CoolcalWriting

/// What `merge` did with each invitation in words: a line per invitation, or with
/// `--json` one document at the end (`{"spool", "outcomes": [...]}`); and the notes
/// the spool keeps (`done/NAME.outcome`). A line's times are local (`DateText`, as
/// `conflicts` shows them); the JSON's and the notes' are UTC (machine lines).
package struct MergeText {
    package let json: Bool
    /// The output zone's formatter, for the lines: made when a line first shows a time.
    /// Making it loads ICU's zone and locale data (5.5 MB of peak RSS in a no-op Maildir
    /// run), which a run that says nothing (nothing arrived, or `-q` and nothing for a
    /// person) never needs.
    package var dates: DateText { madeDates.value }
    private let madeDates: Lazy<DateText>
    private var outcomes: [JSONValue] = []

    package init(json: Bool, dates: @escaping @autoclosure () -> DateText) {
        self.json = json
        madeDates = Lazy(dates)
    }

    /// The line for `item`; nil with `--json` (it goes into the document).
    package mutating func add(_ item: MergeItem) -> String? {
        guard json else {
            let word = Self.word(item)
            let padded = word.padding(toLength: max(9, word.count), withPad: " ", startingAt: 0)
            guard let invite = item.invite else { return "\(padded) \(item.name)" }
            // A held one says why in a word and where the person finds it (`detail` in JSON says more).
            let said = item.write?.heldReason.map { "\($0.rawValue); coolcal inbox --held" } ?? Self.detail(item, dates: dates)
            return "\(padded) \(item.name)  \(PrintableText.title(invite.title))  \(dates.at(invite.start))  (\(said))"
        }
        let detail = Self.detail(item, dates: nil)
        var fields: [(String, JSONValue)] = [("name", .string(item.name)), ("outcome", .string(Self.word(item)))]
        if let invite = item.invite {
            fields += [
                ("id", .string(invite.id.text)), ("title", .string(invite.title)),
                ("start", .string(invite.start.jsonString)), ("end", .string(invite.end.jsonString)),
                ("detail", .string(detail)),
            ]
            if let mail = invite.mail {
                fields.append(("from", mail.from.map(JSONValue.string) ?? .null))
                fields.append(("subject", mail.subject.map(JSONValue.string) ?? .null))
                fields.append(("message_id", mail.messageID.map(JSONValue.string) ?? .null))
            }
            fields.append(("held", item.write?.heldReason.map { .string($0.rawValue) } ?? .null))
        } else {
            fields.append(("error", .string(detail)))
        }
        fields.append(("rfc9671", .string(Self.rfc9671(item))))
        outcomes.append(.object(fields))
        return nil
    }

    /// `spool`: nil when only the calendars were looked at (`--calendar-invitations`).
    package func document(_ spool: String?) -> String {
        JSONWriter.string(.object([("spool", spool.map(JSONValue.string) ?? .null), ("outcomes", .array(outcomes))]))
    }

    /// The outcome as said: `--policy report` did nothing, so it says what it would do
    /// with a cancellation or a message it would hold (`would cancel`, `would hold`).
    package static func word(_ item: MergeItem) -> String {
        guard item.reportOnly else { return item.outcome.rawValue }
        switch item.outcome {
        case .cancelled: return "would cancel"
        case .held: return "would hold"
        case .updated: return "would update"
        case .free where item.write == .updated, .busy where item.write == .updated: return "would update"
        default: return item.outcome.rawValue
        }
    }

    /// RFC 9671's word for what was done (its `processcalendar` outcomes): `added` (a new
    /// event written), `updated` (a stored one changed or cancelled), `no_action` (nothing
    /// written: busy, declined, held, an older version), `error` (unreadable, or failed).
    package static func rfc9671(_ item: MergeItem) -> String {
        switch (item.outcome, item.write) {
        case (.failed, _): return "error"
        case (.held, _), (.busy, _), (.free, _), (.ignored, _), (.declined, _): return "no_action"
        case (_, .added?): return "added"
        case (_, .updated?), (_, .cancelled?): return "updated"
        default: return "no_action"
        }
    }

    /// The desktop notification's line for an answered invitation (`merge --notify`);
    /// nil for one that failed or was a cancellation.
    package func notice(_ item: MergeItem) -> String? {
        guard item.invite != nil, item.conflicts != nil else { return nil }
        return "\(item.outcome.rawValue): \(Self.detail(item, dates: dates))"
    }

    /// What is said of an invitation after its outcome: its conflicts and what was
    /// written (`1 conflict; written to work.ics`), what a cancellation did, or why it
    /// could not be read. The conflicts' starts are local with `dates` (a line, a
    /// notification), UTC without (the JSON's `detail`).
    package static func detail(_ item: MergeItem, dates: DateText?) -> String {
        let said = plainDetail(item, dates)
        return item.noReplyAsked ? said + "; " + noReplyAsked : said
    }

    /// Said of an answer not mailed because my ATTENDEE says `RSVP=FALSE`.
    package static let noReplyAsked = "no reply: the organizer asked for none, RSVP=FALSE"

    private static func plainDetail(_ item: MergeItem, _ dates: DateText?) -> String {
        if let error = item.error { return error }
        if case .held(let reason, let why) = item.write { return "\(reason.rawValue): \(why)" }
        if let invite = item.invite, invite.isCounter || invite.isDeclineCounter { return counterDetail(item, invite) }
        // An organizer's update written with my PARTSTAT not an acceptance; the same version again.
        if let said = item.updateSaid { return said }
        if item.outcome == .accepted, item.write == .unchanged, let target = item.target { return "already in \(target.shown)" }
        guard let n = item.conflicts else {
            if item.invite?.isReply == true {
                guard let write = item.write, let target = item.target else { return "a reply" }
                if write == .absent { return "no event of yours with this UID in \(target.shown)" }
                if item.reportOnly { return "its event is in \(target.shown)" }
                return write.describe(shown(item, target)) + (item.replySaid.map { $0 == "reply" ? "" : " (\($0))" } ?? "")
            }
            guard let write = item.write, let target = item.target else { return "a cancellation" }
            return item.reportOnly && write != .absent ? "its event is in \(target.shown)" : write.describe(shown(item, target))
        }
        var detail = "\(n) conflict\(n == 1 ? "" : "s")"
        if !item.busyWith.isEmpty {
            // Named: what the person would move or decline for it.
            let named = item.busyWith.map {
                "\(PrintableText.title($0.title.isEmpty ? "(no title)" : $0.title, limit: 60)) \(dates?.at($0.start) ?? $0.start.jsonString)"
            }
            detail += ": " + named.joined(separator: ", ") + (n > named.count ? ", +\(n - named.count) more" : "")
        }
        if item.outcome == .busy && !item.reportOnly { detail += "; not accepted" }
        if item.reportOnly, item.write == .updated, let target = item.target {
            detail += "; its event is in \(target.shown)"
        } else if let write = item.write, let target = item.target {
            switch write {
            case .updated where !item.elsewhere.isEmpty: detail += "; " + write.describe(shown(item, target))
            case .added, .updated: detail += "; written to \(target.shown)"
            case .unchanged: detail += "; already in \(target.shown)"
            default: detail += "; " + write.describe(target.shown)
            }
        }
        return detail
    }

    /// The calendars written, as said: `A`, `A and B`, `A, B and C` (an event that
    /// lived in several, each copy updated).
    static func shown(_ item: MergeItem, _ target: CalendarLocation) -> String {
        let names = ([target] + item.elsewhere).map(\.shown)
        return names.count < 2 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    /// A counter-proposal's words: the proposed time's conflicts and where the person
    /// decides, or why there is nothing to decide.
    private static func counterDetail(_ item: MergeItem, _ invite: Invite) -> String {
        if invite.isDeclineCounter { return "the organizer declined a counter-proposal" }
        let n = item.conflicts ?? 0
        let time = n == 0 ? "free" : "\(n) conflict\(n == 1 ? "" : "s")"
        if item.reportOnly { return "a counter-proposal; the proposed time is \(time)" }
        if let write = item.write, let target = item.target, item.outcome != .proposed {
            if write == .absent { return "no event of yours with this UID in \(target.shown)" }
            return write.describe(target.shown)
        }
        return "a new time proposed, \(time) in your calendars; coolcal inbox"
    }

    /// The spool's notes, in JSON: an answered invitation's outcome and the conflicts it
    /// was based on; a cancellation's outcome and what the write did.
    package static let notes = MergeNotes(
        answered: { outcome, report, now in
            JSONWriter.string(.object([
                ("outcome", .string(outcome.rawValue)),
                ("at", .string(OccurrenceTime.instant(Int64(now.timeIntervalSince1970)).jsonString)),
                ("report", JSONDocuments.conflicts(report)),
            ]))
        },
        cancelled: { outcome, write, target, now in
            JSONWriter.string(.object([
                ("outcome", .string(outcome.rawValue)),
                ("at", .string(OccurrenceTime.instant(Int64(now.timeIntervalSince1970)).jsonString)),
                ("result", .string(write.describe(target.shown))),
            ]))
        })
}
