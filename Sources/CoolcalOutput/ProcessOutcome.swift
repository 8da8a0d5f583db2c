import CoolcalAnswering
import CoolcalModel
import CoolcalSupport
import CoolcalWriting

/// What `coolcal process` says of the message it was handed: RFC 9671's outcome word
/// (`added`, `updated`, `no_action`, `error`) first, coolcal's in parentheses —
/// `added (accepted)`, `updated (cancelled)`, `no_action (held: unknown sender)`,
/// `no_action (no invitation)`, `error (REASON)` — on stdout and in the pass-through
/// copy's `X-Coolcal-Outcome` header.
package struct ProcessOutcome: Equatable {
    package var word: String
    package var detail: String

    package var line: String { "\(word) (\(detail))" }

    package init(_ word: String, _ detail: String) {
        self.word = word
        self.detail = PrintableText.clean(detail, keepNewlines: false)
    }

    /// What `process` did with its message (its errors name it "standard input": naming
    /// the run's one message adds nothing).
    package init(_ result: ProcessResult) {
        switch result {
        case .answered(let item): self = Self.of(item, named: "standard input")
        case .skipped(let code, let seen): self = Self.skipped(code, seen: seen)
        case .bounded(let reason): self.init("no_action", reason)
        case .tooLarge(let limit): self.init("no_action", "too large to read (over \(limit) bytes)")
        case .failed(let error, let fault, let parked): self = Self.failure(error, fault: fault, parked: parked)
        case .recorded(let outcome): self.init(outcome.word, outcome.detail)
        }
    }

    /// `--json`: what `process` did with its message, as an object.
    package static func json(_ result: ProcessResult) -> String {
        ProcessOutcome(result).json(inviteID: result.invite?.id, title: result.invite?.title, parked: result.parked)
    }

    /// What the run did with the message; `named`: what its errors call it (the run's
    /// one message, on standard input: naming it adds nothing).
    package static func of(_ item: MergeItem, named: String? = nil) -> ProcessOutcome {
        var outcome = said(item)
        if item.outcome == .failed, let named, outcome.detail.hasPrefix(named + ": ") {
            outcome.detail.removeFirst(named.count + 2)
        }
        if item.noReplyAsked { outcome.detail += "; " + MergeText.noReplyAsked }
        return outcome
    }

    private static func said(_ item: MergeItem) -> ProcessOutcome {
        switch item.outcome {
        case .accepted:
            switch item.write {
            case .updated?: return ProcessOutcome("updated", "accepted")
            case .unchanged?: return ProcessOutcome("no_action", "already in " + (item.target?.shown ?? "the calendar"))
            default: return ProcessOutcome("added", "accepted")
            }
        case .declined: return ProcessOutcome("no_action", "declined")
        case .busy:
            let n = item.conflicts ?? 0
            return ProcessOutcome("no_action", "busy: \(n) conflict\(n == 1 ? "" : "s"); not accepted")
        case .free: return ProcessOutcome("no_action", "free; report only")
        case .ignored: return ProcessOutcome("no_action", "an older version than the calendar's")
        case .cancelled:
            switch item.write {
            case .cancelled?: return ProcessOutcome("updated", "cancelled")
            case .absent?: return ProcessOutcome("no_action", "cancelled; not in the calendar")
            default: return ProcessOutcome("no_action", "cancelled before")
            }
        case .failed: return ProcessOutcome("error", item.error ?? "unreadable")
        case .held: return ProcessOutcome("no_action", "held: " + (item.write?.heldReason?.rawValue ?? "for you"))
        case .updated: return ProcessOutcome("updated", item.updateSaid ?? item.replySaid ?? "reply")
        case .noAction:
            if case .othersCancelled? = item.write { return ProcessOutcome("no_action", "cancels another attendee") }
            return ProcessOutcome("no_action", "nothing to do")
        case .proposed: return ProcessOutcome("no_action", "counter-proposal; in the inbox")
        case .notAMessage: return ProcessOutcome("error", "not a mail message")
        case .noInvitation: return ProcessOutcome("no_action", "no invitation")
        case .past: return ProcessOutcome("no_action", "past")
        }
    }

    /// A message that was no item of the run: no invitation in it, its event past, or
    /// (`seen`) delivered and answered before.
    package static func skipped(_ code: OutcomeCode?, seen: Bool) -> ProcessOutcome {
        if seen { return ProcessOutcome("no_action", "already processed") }
        switch code {
        case .notAMessage?: return ProcessOutcome("error", "not a mail message")
        case .past?: return ProcessOutcome("no_action", "past")
        default: return ProcessOutcome("no_action", "no invitation")
        }
    }

    /// A run that could not finish (`Fault`), the message parked for the next run when
    /// `parked`: a transient fault's next run answers it; one a person fixes is answered
    /// once fixed.
    package static func failure(_ error: Error, fault: Fault, parked: Bool) -> ProcessOutcome {
        guard parked else { return ProcessOutcome("error", "\(error)") }
        return ProcessOutcome("error", "\(error)" + (fault == .transient ? "; parked: the next run answers it" : "; parked, answered once fixed"))
    }

    /// The deadline's words on standard error, the process about to exit 75: the message
    /// parked (`notParked` nil), or why no place took it.
    package static func deadlinePassed(notParked: String?) -> String {
        let parked = notParked.map { "; not parked: \($0)" } ?? "; the message is parked: the next run answers it"
        return "coolcal: error: process: no outcome within the deadline\(parked)\n"
    }

    /// Why no place took a message a fault kept from being answered (standard error).
    package static func notParked(_ reason: String) -> String {
        "coolcal: process: not parked: \(reason)\n"
    }

    /// `--json`: the outcome as an object.
    package func json(inviteID: String?, title: String?, parked: Bool) -> String {
        JSONWriter.string(.object([
            ("outcome", .string(word)), ("detail", .string(detail)),
            ("invite_id", inviteID.map(JSONValue.string) ?? .null), ("title", title.map(JSONValue.string) ?? .null),
            ("parked", .bool(parked)),
        ]))
    }
}
