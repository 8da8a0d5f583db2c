import Foundation
import CoolcalModel

/// Where `process` parks a message, in order — `STATE/parked`, then the config's
/// `parked = DIR` or else `${XDG_STATE_HOME:-$HOME/.local/state}/coolcal/parked` — and
/// every place `process` and `merge` answer parked messages from. Never
/// `$XDG_RUNTIME_DIR`: emptied at reboot, and unset under Dovecot, procmail and Postfix.
/// The fallback does not depend on the state, so a state directory that is unusable (a
/// file, read-only, full) still leaves the message a place.
package struct ParkingPlaces: Sendable {
    /// The places, first choice first, each once.
    package let places: [ParkedMessages]

    /// `stateDirectory`: nil when not even that is known; `configured`: the config's
    /// `parked` (nil: unset, or the config could not be read).
    package init(stateDirectory: String?, configured: String?, environment: [String: String]) {
        var directories: [String] = []
        if let stateDirectory { directories.append(stateDirectory + "/parked") }
        if let configured, !configured.isEmpty { directories.append(configured) }
        if let fallback = Self.fallback(environment) { directories.append(fallback) }
        var seen = Set<String>()
        places = directories.filter { seen.insert($0).inserted }.map(ParkedMessages.init(directory:))
    }

    /// `${XDG_STATE_HOME:-$HOME/.local/state}/coolcal/parked`; nil with neither set.
    package static func fallback(_ environment: [String: String]) -> String? {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/coolcal/parked" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/state/coolcal/parked"
    }

    /// Parks `data` in the first place that takes it: where, or why no place did (each
    /// place's error, in order).
    package func park(_ data: Data, now: Date = Date()) -> Result<String, NotParked> {
        var reasons: [String] = []
        for place in places {
            do {
                let name = try place.park(data, now: now)
                return .success(place.path(name))
            } catch {
                reasons.append("\(error)")
            }
        }
        return .failure(NotParked(reasons: reasons.isEmpty ? ["no state directory and no HOME"] : reasons))
    }

    /// Why no place took the message.
    package struct NotParked: StatusError, CustomStringConvertible {
        package var reasons: [String]
        /// 75: the MTA keeps the message and delivers it again.
        package var exitStatus: ExitStatus { .tempFail }
        package init(reasons: [String]) { self.reasons = reasons }
        package var description: String { reasons.joined(separator: "; ") }
    }

    /// True when a message waits in some place.
    package var anyWaiting: Bool { places.contains { !$0.names().isEmpty } }
}
