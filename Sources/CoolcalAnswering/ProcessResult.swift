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

    /// The invitation answered, when there was one.
    package var invite: (id: String, title: String)? {
        guard case .answered(let item) = self, let invite = item.invite else { return nil }
        return (invite.id.text, invite.title)
    }

    /// Whether the message was parked for the next run.
    package var parked: Bool {
        guard case .failed(_, _, let parked) = self else { return false }
        return parked
    }
}

extension MergeRun {
    /// `process`: the parked messages (`places`) and `message`, as a spool is answered;
    /// what became of `message`. A run that could not finish throws.
    package func process(_ message: Data, places: ParkingPlaces) throws -> ProcessResult {
        var source: DeliverySource?
        var mine: MergeItem?
        let failure = try run(source: { [store, lockTimeout] in
            let opened = try DeliverySource(message: message, parked: places.places, store: try store.open(), now: store.settings.now,
                                            lockTimeout: lockTimeout)
            source = opened
            return opened
        }) { item in
            if item.name == DeliverySource.messageName { mine = item }
        }
        if let failure { throw failure }
        if let mine { return .answered(mine) }
        switch source?.messageSkipped {
        case .seen(let code)?: return .skipped(code, seen: true)
        case .skipped(let code)?: return .skipped(code, seen: false)
        case .bounded(let reason)?: return .bounded(reason)
        case nil: return .skipped(nil, seen: false)
        }
    }
}
