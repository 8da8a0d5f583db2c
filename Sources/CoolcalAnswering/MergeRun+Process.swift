import Foundation
import CoolcalModel
import CoolcalSpool
import CoolcalSupport

/// One write for a burst of deliveries (issue #48): what a `process` needs to hand its
/// message to the run lock's holder, or, holding it, to answer what others handed over.
package final class HandOver: @unchecked Sendable {
    /// Where this run's settings hand over (`HandOverPlace`, keyed by their hash).
    package let place: HandOverPlace
    /// A holder answers others' messages only until then: its own deadline must not cut it.
    let serveUntil: Date
    /// The words a waiter says for a result (CoolcalOutput's, given by the command).
    let words: (ProcessResult) -> HandedOverOutcome
    private let lock = NSLock()
    /// This process's message while it waits in the place.
    private var mine: String?

    package init(place: HandOverPlace, serveUntil: Date, words: @escaping (ProcessResult) -> HandedOverOutcome) {
        self.place = place
        self.serveUntil = serveUntil
        self.words = words
    }

    /// At the deadline: takes this process's message back unless a holder claimed it (the
    /// caller parks it either way; a copy answered twice is known as one in the state).
    package func withdraw() {
        lock.withLock {
            if let mine { _ = place.withdraw(mine) }
            mine = nil
        }
    }

    fileprivate func waiting(_ name: String?) { lock.withLock { mine = name } }
}

extension MergeRun {
    /// `process`: the parked messages (`places`) and `message`, as a spool is answered;
    /// what became of `message`. A run that could not finish throws. With `handOver`:
    /// the run lock held by another delivery of the same settings, the message is handed
    /// to it and its outcome said; holding the lock, the run answers what others handed
    /// over too, in as few calendar writes as they arrive in, before letting go.
    package func process(_ message: Data, places: ParkingPlaces, handOver: HandOver? = nil) throws -> ProcessResult {
        guard let handOver else {
            let answered = try answer(message, handedOver: [], places: places, holding: nil)
            if let failure = answered.failure { throw failure }
            return answered.own
        }
        let stateDirectory = try store.open().directory
        let lock: FileLock
        do {
            lock = try DeliverySource.runLock(stateDirectory: stateDirectory, timeout: 0)
        } catch let error as WriteError where error.kind == .busy {
            switch try wait(message, handOver: handOver, stateDirectory: stateDirectory) {
            case .said(let outcome): return .recorded(outcome)
            case .holding(let held): lock = held
            }
        }
        defer { lock.unlock() }
        return try serve(message, places: places, handOver: handOver, lock: lock)
    }

    private enum Waited {
        case said(HandedOverOutcome)
        case holding(FileLock)
    }

    /// A waiter: hands the message over once a holder of the same settings serves (else it
    /// only waits its turn, as before hand-over), then waits for its outcome or the lock.
    /// Given the lock, it answers its own message itself, once it took it back (no
    /// holder will); one a holder killed after answering claimed is answered again, and
    /// known as answered (`already processed`). No lock within `lockTimeout`, the message
    /// taken back: busy, as without hand-over; claimed: its holder is at it (the deadline
    /// bounds the wait).
    private func wait(_ message: Data, handOver: HandOver, stateDirectory: String) throws -> Waited {
        let place = handOver.place
        var name: String?
        let giveUp = Date().addingTimeInterval(lockTimeout)
        while true {
            if name == nil, place.isServed {
                let handed = try place.hand(message)
                name = handed
                handOver.waiting(handed)
                store.diagnostics.note("process.lock: held by another delivery; message handed over as \(place.directory)/new/\(handed)")
            }
            if let name, let said = place.outcome(name) {
                handOver.waiting(nil)
                place.removeOutcome(name)
                return .said(said)
            }
            do {
                let lock = try DeliverySource.runLock(stateDirectory: stateDirectory, timeout: 0)
                handOver.waiting(nil)
                guard let name else { return .holding(lock) }
                place.recoverClaimed()
                if place.withdraw(name) { return .holding(lock) }
                if let said = place.outcome(name) {
                    lock.unlock()
                    place.removeOutcome(name)
                    return .said(said)
                }
                return .holding(lock)
            } catch let error as WriteError where error.kind == .busy {}
            if Date() >= giveUp, name.map(place.withdraw) ?? true {
                handOver.waiting(nil)
                throw WriteError(kind: .busy, path: stateDirectory + "/process.lock",
                                 message: "locked by another coolcal for more than \(String(format: "%g", lockTimeout)) s; try again later")
            }
            usleep(20_000)
        }
    }

    /// The holder: its own message and what waits handed over, in one run; then, while
    /// more was handed over meanwhile (and `serveUntil` is not passed), a run for those.
    /// What it cannot answer goes back to its waiter (who answers it once the lock is free).
    private func serve(_ message: Data, places: ParkingPlaces, handOver: HandOver, lock: FileLock) throws -> ProcessResult {
        let place = handOver.place
        place.recoverClaimed()
        let serving = place.serve()
        defer { serving?.unlock() }
        var claimed = place.claim()
        if !claimed.isEmpty { TestHook.pause(at: "process-after-claim") }
        let first: Answered
        do {
            first = try answer(message, handedOver: claimed, places: places, holding: lock)
        } catch {
            for (name, _) in claimed { place.unclaim(name) }
            throw error
        }
        var complete = record(first, claimed: claimed, handOver: handOver) && first.failure == nil
        if let failure = first.failure { throw failure }
        while complete, Date() < handOver.serveUntil {
            claimed = place.claim()
            guard !claimed.isEmpty else { break }
            TestHook.pause(at: "process-after-claim")
            do {
                let next = try answer(nil, handedOver: claimed, places: places, holding: lock)
                complete = record(next, claimed: claimed, handOver: handOver) && next.failure == nil
            } catch {
                store.diagnostics.note("messages handed over left to their deliveries: \(error)")
                for (name, _) in claimed { place.unclaim(name) }
                complete = false
            }
        }
        return first.own
    }

    /// Records each claimed message's outcome for its waiter; one without (its calendar
    /// write failed, or the record did) goes back. False when any went back.
    private func record(_ answered: Answered, claimed: [(name: String, data: Data)], handOver: HandOver) -> Bool {
        var all = true
        for (name, _) in claimed {
            guard let result = answered.handedOver[name], (try? handOver.place.record(handOver.words(result), for: name)) != nil else {
                handOver.place.unclaim(name)
                all = false
                continue
            }
        }
        return all
    }

    private struct Answered {
        var own: ProcessResult
        var handedOver: [String: ProcessResult]
        var failure: Error?
    }

    /// One run: the parked messages, `message` (nil: none of its own) and those handed
    /// over; what became of each message, and the calendar write that failed, if one did.
    private func answer(_ message: Data?, handedOver: [(name: String, data: Data)], places: ParkingPlaces,
                        holding: FileLock?) throws -> Answered {
        var source: DeliverySource?
        var items: [String: MergeItem] = [:]
        let failure = try run(source: { [store, lockTimeout] in
            let opened = try DeliverySource(message: message, handedOver: handedOver, parked: places.places, store: try store.open(),
                                            now: store.settings.now, lockTimeout: lockTimeout, holding: holding)
            source = opened
            return opened
        }) { item in
            items[item.name] = item
        }
        func result(_ itemName: String) -> ProcessResult? {
            let name = source?.sameAs[itemName] ?? itemName
            if let item = items[name] { return .answered(item) }
            switch source?.skipped[name] {
            case .seen(let code)?: return .skipped(code, seen: true)
            case .skipped(let code)?: return .skipped(code, seen: false)
            case .bounded(let reason)?: return .bounded(reason)
            case nil: return nil
            }
        }
        var others: [String: ProcessResult] = [:]
        for (name, _) in handedOver { others[name] = result(DeliverySource.handedOverName(name)) }
        return Answered(own: result(DeliverySource.messageName) ?? .skipped(nil, seen: false), handedOver: others, failure: failure)
    }
}
