import Foundation
import CoolcalAnswering
import CoolcalInvite
import CoolcalModel
import CoolcalWriting

/// An answer's outcome in words: the lines `accept`, `decline`, `comment`, `review` and
/// `notify` print (`accepted: Title (id X): added to work.ics`), or the text `--dry-run`
/// previews. Times are local (`dates`, as `conflicts` shows them), and a list of them
/// ends naming the zone.
package enum AnswerText {
    /// What answering an invitation found in a calendar did (issue 49).
    package static func found(_ o: FoundAnswer.Outcome) -> String {
        let word = o.kind == .accept ? "accepted" : o.kind == .decline ? "declined" : "tentatively accepted"
        switch o.written {
        case .edited(let path): return "\(word): \(PrintableText.title(o.title)): your PARTSTAT set in \(path) (found in \(o.calendar))"
        case .notPending(let path): return "\(word): \(PrintableText.title(o.title)): not pending in \(path) any more (answered already); nothing written"
        }
    }

    package static func lines(_ outcome: AnswerOutcome, dates: DateText) -> [String] {
        switch outcome {
        case .accepted(let verb, let invite, let write, let target):
            let what = invite.isCancellation && write == .unchanged
                ? "already cancelled in \(target.shown)" : write.describe(target.shown)
            return ["\(word(verb)): \(PrintableText.title(invite.title))\(idNote(invite)): \(what)"]
        case .busy(let invite, let report):
            let n = report.conflicts.count
            return ["not accepted: \(PrintableText.title(invite.title))\(idNote(invite)): \(n) conflict\(n == 1 ? "" : "s") in the window"]
                + report.conflicts.map { c in
                    "  \(dates.range(start: c.occurrence.start, end: c.occurrence.end))  \(c.occurrence.summary ?? "(no title)")  [\(c.occurrence.calendar)]"
                }
                + (report.conflicts.isEmpty ? [] : ["  " + dates.zoneLine])
        case .held(let invite, let reason, let detail, let target):
            return ["held: \(PrintableText.title(invite.title))\(idNote(invite)): \(reason.rawValue): \(detail); \(target.shown) unchanged"]
        case .preview:
            return []
        case .declined(let invite, let undone):
            let said = undone.map(describe)
            return ["declined: \(PrintableText.title(invite.title))\(idNote(invite))" + (said.isEmpty ? "" : ": " + said.joined(separator: "; "))]
        case .commented(let invite):
            return ["commented: \(PrintableText.title(invite.title))\(idNote(invite))"]
        case .mail(let fate):
            return ["  " + mailed(fate)]
        }
    }

    /// Where a REPLY stands once the outbox was delivered: `mailed to ADDRESS`, or
    /// `queued for ADDRESS (REASON)`; `accept|decline|comment --reply` print it indented
    /// under the answer's line, `reply --send` on a line of its own.
    package static func mailed(_ fate: MailFate) -> String {
        switch fate {
        case .mailed(let to): return "mailed to \(to)"
        case .alreadyMailed(let to): return "already mailed to \(to); not mailed again"
        case .queued(let to, let reason): return "queued for \(to) (\(reason))"
        case .failed(let to, let reason): return "not mailed to \(to) (\(reason)); 'coolcal outbox retry' queues it again"
        }
    }

    /// A comment on an iTIP invitation kept in the state and not mailed: how to mail it.
    /// `operand`: the invitation as typed (an inbox number, or the file).
    package static func commentKept(_ invite: Invite, operand: String, text: String) -> String {
        "commented: \(PrintableText.title(invite.title)) (kept here; organizer not told: coolcal comment --reply "
            + "\(shellWord(operand)) \(shellQuoted(text)))"
    }

    /// A comment on an entry merge held: kept, never mailed (even with `--reply`: a
    /// stranger learns the address works only by an answer given with `--reply`).
    package static func commentedHeld(_ invite: Invite, _ reason: HeldReason) -> String {
        "commented: \(PrintableText.title(invite.title)) (held: \(reason.rawValue); kept here, not mailed: "
            + "a held invitation's comment never is)"
    }

    /// `text` in single quotes for a POSIX shell.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// An operand as a shell word: as it is when nothing in it is special, else quoted.
    static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy {
            ($0.isASCII && (CharacterSet.alphanumerics.contains($0) || "@%+=:,./_-".unicodeScalars.contains($0)))
        }
        return plain ? text : shellQuoted(text)
    }

    /// `decline N` (or review's `d`) on an entry merge held, not mailed: the decline is
    /// recorded, the organizer told nothing (a stranger learns the address works only by
    /// `--reply`).
    package static func declinedHeld(_ invite: Invite, _ reason: HeldReason) -> String {
        "declined: \(PrintableText.title(invite.title)) (held: \(reason.rawValue); nothing mailed — --reply mails it)"
    }

    /// ` (id ID)`, or nothing for a long UID (Outlook's run past 100 characters): the
    /// title names it, and a long id would push the line out of a terminal.
    private static func idNote(_ invite: Invite) -> String {
        InboxText.shortID(invite.id.text).map { " (id \($0))" } ?? ""
    }

    private static func word(_ verb: AnswerOutcome.AcceptVerb) -> String {
        switch verb {
        case .accepted: return "accepted"
        case .tentative: return "tentative"
        case .ignored: return "ignored"
        case .cancelled: return "cancelled"
        case .moved: return "moved to the proposed time"
        }
    }

    /// What declining did in one calendar.
    private static func describe(_ undone: AnswerOutcome.Undone) -> String {
        let target = undone.target.shown
        switch undone.write {
        case .updated where undone.itip: return "marked declined in \(target)"
        case .unchanged: return "already declined in \(target)"
        case .absent: return "not in \(target)"
        default: return undone.write.describe(target)
        }
    }
}
