import Foundation
import CoolcalModel
import CoolcalState
import CoolcalSupport

/// The inbox as the app showed it: unread marker, your answer (✓ accepted, ✗ declined,
/// ? tentative, ✎ commented, · unanswered; `+ x ? # .` without UTF-8), title (or
/// `---`), date range, how long ago it arrived, a stable colour per invitation on a
/// terminal.
package struct InboxText {
    package let style: TextStyle
    package let now: Date

    package func render(_ entries: [InboxEntry]) -> String {
        guard !entries.isEmpty else { return "You have no invitations\n" }
        let dates = DateText(style: style)
        var out = ""
        // The local number (what `inbox open N` and every INVITE operand take), right-aligned.
        let width = entries.map { String($0.number).count }.max() ?? 1
        for e in entries {
            let number = String(repeating: " ", count: width - String(e.number).count) + String(e.number)
            let marker = e.read ? " " : (style.unicode ? "●" : "*")
            let named = InboxTitleText.text(e.title)
            let title = named.isEmpty ? "---" : PrintableText.title(named)
            var line = "\(number) \(marker) \(InboxText.mark(e.answer, style)) \(title)  \(dates.range(start: e.start, end: e.end))  \(ago(e.receivedAt))"
            // A long UID (Outlook's run past 100 characters) is left to `inbox open N`.
            if let id = InboxText.shortID(e.id) { line += "  [\(id)]" }
            if let from = e.mail?.from { line += "  from " + style.printable(from) }
            if let calendar = e.foundIn { line += "  [in " + style.printable(calendar) + "]" }
            if let held = e.held { line += "  held: \(e.kind == .invitation ? "" : e.kind.rawValue + ", ")\(held.rawValue)" }
            if let said = InboxText.stateWords(e.state) { line += "  (\(said))" }
            if e.untold, let answer = e.answer { line += "  (\(InboxText.untold(answer, number: e.number)))" }
            out += style.paint(line, InboxText.colour(for: e)) + "\n"
        }
        out += dates.zoneLine + "\n"
        let unread = entries.filter { !$0.read }.count
        out += unread == 0 ? "You have no unread invitations\n"
            : "You have \(unread) unread invitation\(unread == 1 ? "" : "s")\n"
        return out
    }

    package func render(_ e: InboxEntry) -> String {
        let dates = DateText(style: style)
        let named = InboxTitleText.text(e.title)
        return (named.isEmpty ? "---" : style.printable(named)) + "\n  " + dates.range(start: e.start, end: e.end)
            + "\n  " + dates.zoneLine + "\n  received " + ago(e.receivedAt) + "  [id \(e.id)]  (number \(e.number))\n"
            + "  " + InboxText.mark(e.answer, style) + " " + InboxText.answerWord(e.answer) + "\n"
            + (e.mail?.from.map { "  from " + style.printable($0) + "\n" } ?? "")
            + (e.mail?.subject.map { "  subject " + style.printable($0) + "\n" } ?? "")
            + (e.foundIn.map { "  in calendar " + style.printable($0) + "\n" } ?? "")
            + (e.held.map { "  held for you: \($0.rawValue) (a \(e.kind.rawValue); accept N or decline N decides)\n" } ?? "")
            + (InboxText.stateWords(e.state).map { "  \($0)\n" } ?? "")
            + moved(e, dates)
            + (e.untold ? e.answer.map { "  " + InboxText.untold($0, number: e.number) + "\n" } ?? "" : "")
    }

    /// An entry an update changed since it was answered: the times it had and has
    /// (when they differ), and the commands that answer it now.
    private func moved(_ e: InboxEntry, _ dates: DateText) -> String {
        guard e.state == .updated, e.kind == .invitation else { return "" }
        var out = ""
        if let start = e.wasStart, let end = e.wasEnd {
            out += "  was: " + dates.range(start: start, end: end) + "\n  now: " + dates.range(start: e.start, end: e.end) + "\n"
        }
        return out + "  answer: coolcal accept \(e.number) | coolcal decline \(e.number)\n"
    }

    /// An id short enough for a one-line listing (24 characters at most), else nil.
    package static func shortID(_ id: String) -> String? { id.count <= 24 ? id : nil }

    /// What a listing says of an answer recorded but not mailed to the organizer.
    package static func untold(_ answer: Answer, number: Int64?) -> String {
        let flag = answer == .accepted ? "--accept" : answer == .declined ? "--decline" : "--tentative"
        return "organizer not told: coolcal reply \(flag) --send \(number.map(String.init) ?? "ID")"
    }

    /// What a line says of an entry whose event moved on; nil for the current word.
    package static func stateWords(_ state: InboxState) -> String? {
        switch state {
        case .current: return nil
        case .updated: return "updated since you answered"
        case .cancelled: return "cancelled by the organizer"
        case .superseded: return "superseded"
        }
    }

    /// How an answer is marked, in `inbox` and `responses`.
    package static func mark(_ answer: Answer?, _ style: TextStyle) -> String {
        switch answer {
        case .accepted?: return style.paint(style.unicode ? "✓" : "+", "32")
        case .declined?: return style.paint(style.unicode ? "✗" : "x", "31")
        case .tentative?: return style.paint("?", "33")
        case .comment?: return style.unicode ? "✎" : "#"
        case nil: return style.unicode ? "·" : "."
        }
    }

    /// The `answer` field of `inbox --json`, and what `inbox open` says.
    package static func answerWord(_ answer: Answer?) -> String {
        switch answer {
        case .comment?: return "commented"
        case let answer?: return answer.rawValue
        case nil: return "unanswered"
        }
    }

    /// "2 hours ago", in the output locale.
    package func ago(_ date: Date) -> String {
        date.formatted(Date.RelativeFormatStyle(presentation: .named, unitsStyle: .wide, locale: style.locale,
                                                calendar: .current, capitalizationContext: .standalone))
    }

    /// A stable colour from a hash of the invitation's text (FNV-1a, not Swift's
    /// per-process randomised hash).
    package static func colour(for e: InboxEntry) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in e.payload.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return "3\(1 + Int(h % 6))"
    }

    package static func json(_ e: InboxEntry) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("id", .string(e.id)), ("title", .string(InboxTitleText.text(e.title))), ("start", .string(e.start.jsonString)),
            ("end", .string(e.end.jsonString)), ("all_day", .bool(e.allDay)),
            ("received_at", .string(OccurrenceTime.instant(Int64(e.receivedAt.timeIntervalSince1970)).jsonString)),
            ("read", .bool(e.read)), ("number", .int(e.number)),
            ("answer", e.answer == nil ? .null : .string(answerWord(e.answer))),
        ]
        // Only for an invitation that arrived by e-mail (additive: a payload's entry is as before).
        if let mail = e.mail {
            fields.append(("from", mail.from.map(JSONValue.string) ?? .null))
            fields.append(("subject", mail.subject.map(JSONValue.string) ?? .null))
            fields.append(("message_id", mail.messageID.map(JSONValue.string) ?? .null))
        }
        // Why merge held it for the person (null once answered), and what it is.
        fields.append(("held", e.held.map { .string($0.rawValue) } ?? .null))
        fields.append(("kind", .string(e.kind.rawValue)))
        fields.append(("state", .string(e.state.rawValue)))
        // The calendar it was found pending in (issue 49); null for mail and push.
        fields.append(("found_in", e.foundIn.map(JSONValue.string) ?? .null))
        return .object(fields)
    }

    package static func json(_ entries: [InboxEntry]) -> JSONValue {
        .object([("unread", .int(Int64(entries.filter { !$0.read }.count))), ("invitations", .array(entries.map(json)))])
    }

    /// The memberwise initializer, for the targets above.
    package init(style: TextStyle, now: Date) {
        self.style = style
        self.now = now
    }
}

/// `coolcal responses`: every answer by start, ✓ accepted, ✗ declined, ? tentative, ✎ comment.
package struct ResponsesText {
    package let style: TextStyle

    package func render(_ entries: [ResponseEntry], json: Bool) -> String {
        if json {
            return JSONWriter.string(.object([("responses", .array(entries.map { e in
                .object([
                    ("invite_id", .string(e.inviteID)), ("answer", .string(e.answer.rawValue)),
                    ("comment", e.comment.map(JSONValue.string) ?? .null), ("title", .string(e.title)),
                    ("start", .string(e.start.jsonString)), ("end", .string(e.end.jsonString)),
                    ("all_day", .bool(e.allDay)),
                    ("answered_at", .string(OccurrenceTime.instant(Int64(e.answeredAt.timeIntervalSince1970)).jsonString)),
                    ("delivery", .string(e.delivery.rawValue)),
                    ("mail_delivery", e.mail.map { .string($0.rawValue) } ?? .null),
                    ("state", .string(e.state.rawValue)),
                ])
            }))]))
        }
        guard !entries.isEmpty else { return "No answers yet.\n" }
        let dates = DateText(style: style)
        return entries.map { e in
            let mark = InboxText.mark(e.answer, style)
            var line = "\(mark) \(e.title.isEmpty ? "---" : style.printable(e.title))  \(dates.range(start: e.start, end: e.end))"
            if e.delivery == .queued || e.delivery == .failed { line += "  (\(e.delivery.rawValue))" }
            if let mail = e.mail { line += mail == .delivered ? "  (mailed)" : "  (mail \(mail.rawValue))" }
            if let said = InboxText.stateWords(e.state) { line += "  (\(said))" }
            if e.untold { line += "  (\(InboxText.untold(e.answer, number: e.number)))" }
            if let c = e.comment { line += "\n    " + style.printable(c, keepNewlines: true).replacingOccurrences(of: "\n", with: "\n    ") }
            return line + "\n"
        }.joined() + dates.zoneLine + "\n"
    }

    /// The memberwise initializer, for the targets above.
    package init(style: TextStyle) {
        self.style = style
    }
}
