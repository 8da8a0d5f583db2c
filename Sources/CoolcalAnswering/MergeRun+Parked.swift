import Foundation
import CoolcalSpool

/// `merge`'s second pass: what `process` parked (a calendar locked at delivery time, a
/// config then broken), in every parking place, answered as the spool's messages are.
extension MergeRun {
    /// The parking places of this run's state: `STATE/parked`, `configured` (the
    /// config's `parked`), then the fallback (`ParkingPlaces`).
    package func parkingPlaces(configured: String?) -> ParkingPlaces {
        ParkingPlaces(stateDirectory: store.stateDirectory, configured: configured, environment: store.environment)
    }

    /// Answers the messages waiting in the parking places (`configured`: the config's
    /// `parked`), each outcome to `report`; nothing with the report policy (it answers
    /// nothing) or when none waits. Returns the last calendar write that failed, as `run`
    /// does.
    package func runParked(configured: String?, report: (MergeItem) -> Void) throws -> Error? {
        let places = parkingPlaces(configured: configured)
        guard policy != .report, places.anyWaiting else { return nil }
        return try run(source: { [store, lockTimeout] in
            try DeliverySource(message: nil, parked: places.places, store: try store.open(), now: store.settings.now,
                               lockTimeout: lockTimeout)
        }, report: report)
    }
}
