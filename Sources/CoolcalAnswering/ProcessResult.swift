import Foundation
import CoolcalModel
import CoolcalSpool

/// What `process` did with the one message on its standard input, as a value
/// (`ProcessOutcome` in CoolcalOutput words it).
package enum ProcessResult {
    /// The run's item for the message: answered, held, failed…
    case answered(MergeItem)
    /// No item of the run: nothing in it to answer, its event past, not a message
    /// (`code`), or (`seen`) delivered and answered before.
    case skipped(OutcomeCode?, seen: Bool)
    /// Beyond a bound the intake keeps (why).
    case bounded(String)
    /// Not read whole: over `limit` bytes.
    case tooLarge(limit: Int)
    /// The run could not finish (`fault`); `parked`: the message waits for the next run.
    case failed(Error, Fault, parked: Bool)
    /// Handed over to the run lock's holder (issue #48), which answered it and recorded
    /// what it did, in its words.
    case recorded(HandedOverOutcome)

    /// The invitation answered, when there was one.
    package var invite: (id: String, title: String)? {
        if case .recorded(let outcome) = self, let id = outcome.inviteID, let title = outcome.title { return (id, title) }
        guard case .answered(let item) = self, let invite = item.invite else { return nil }
        return (invite.id.text, invite.title)
    }

    /// Whether the message was parked for the next run.
    package var parked: Bool {
        guard case .failed(_, _, let parked) = self else { return false }
        return parked
    }
}
