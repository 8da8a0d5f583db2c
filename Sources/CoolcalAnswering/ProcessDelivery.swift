import Foundation
import CoolcalModel
import CoolcalSpool

/// `process`'s one call (issue #47): the message answered within the deadline, and what
/// a run that could not finish becomes — parked or not, the exit status — as values;
/// the command only reads standard input and words the result (CoolcalOutput's
/// `ProcessOutcome`). The deadline (`ProcessDeadline`) parks the message from its own
/// thread and exits 75; whoever comes first — the run's last words or the deadline —
/// is the one that speaks.
package final class ProcessDelivery: @unchecked Sendable {
    /// Where the message is parked, once.
    package let parking: ParkingSpot
    private let clock: ProcessDeadline

    /// Starts the clock. `expired` says, at the deadline, where the message was parked
    /// (or why no place took it), just before the process exits 75.
    package init(deadline seconds: Double, places: ParkingPlaces,
                 expired: @escaping @Sendable (Result<String, ParkingPlaces.NotParked>) -> Void) {
        let parking = ParkingSpot(places: places)
        self.parking = parking
        clock = ProcessDeadline(seconds: seconds) { [parking] in expired(parking.parkOnce()) }
    }

    /// What became of the message on standard input.
    package struct Delivered {
        package var result: ProcessResult
        /// 0 whenever the mail should be delivered as usual; 75 when a retry mends it.
        package var status: ExitStatus
        /// The error to warn of after the outcome (a parked transient fault, or any
        /// not parked).
        package var warning: Error?
        /// Why no parking place took the message.
        package var notParked: ParkingPlaces.NotParked?
    }

    /// `message` (nil: not read whole, over `limit` bytes) answered by `answer`; a run
    /// that throws is parked unless nothing could mend it (`Fault`): 75 for a transient
    /// fault or when no place took the message (the MTA keeps it), else 0 — a delivery
    /// agent deferring the whole mail for a fault only a person mends would keep it from
    /// the user for days, then bounce it.
    package func answer(_ message: Data?, limit: Int, _ answer: (Data) throws -> ProcessResult) -> Delivered {
        parking.message = message
        guard let message else { return Delivered(result: .tooLarge(limit: limit), status: .ok) }
        do {
            return Delivered(result: try answer(message), status: .ok)
        } catch {
            let fault = Fault.of(error)
            guard fault.parks else { return Delivered(result: .failed(error, fault, parked: false), status: .ok) }
            switch parking.parkOnce() {
            case .success:
                let transient = fault == .transient
                return Delivered(result: .failed(error, fault, parked: true), status: transient ? .tempFail : .ok,
                                 warning: transient ? error : nil)
            case .failure(let reason):
                return Delivered(result: .failed(error, fault, parked: false), status: .tempFail, warning: error, notParked: reason)
            }
        }
    }

    /// Runs the last words unless the deadline came first (then this never returns: the
    /// process is about to exit 75).
    package func finish<T>(_ words: () throws -> T) rethrows -> T {
        try clock.finish(words)
    }
}

/// Where `process` parks its message, once, from whichever thread gets there first.
package final class ParkingSpot: @unchecked Sendable {
    private let lock = NSLock()
    package let places: ParkingPlaces
    private var result: Result<String, ParkingPlaces.NotParked>?
    /// The message, once read whole.
    package var message: Data? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    private var stored: Data?
    /// Where the message was handed over to another delivery, if it was: taken back
    /// before it is parked.
    package var handOver: HandOver? {
        get { lock.withLock { handedTo } }
        set { lock.withLock { handedTo = newValue } }
    }
    private var handedTo: HandOver?

    package init(places: ParkingPlaces) { self.places = places }

    /// Parks the message unless parked already: where, or why no place took it.
    package func parkOnce() -> Result<String, ParkingPlaces.NotParked> {
        lock.withLock {
            if let result, case .success = result { return result }
            handedTo?.withdraw()
            guard let stored else { return .failure(ParkingPlaces.NotParked(reasons: ["the message was not read whole"])) }
            let parked = places.park(stored)
            result = parked
            return parked
        }
    }
}
