import Foundation
import Synchronization
@testable import CoolcalModel
@testable import CoolcalInvite

// Helpers of the state's tests, shared with the layers above (Spool, RSVP, Answering, Output, CLI).

/// A fresh directory under the temp dir (not created: the store must create it).
func stateDirectory(_ label: String = "state") -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-\(label)-\(UUID().uuidString)").path
}

/// A timed invitation starting `hour` hours after 2026-03-02T00:00Z, one hour long.
func stateInvite(_ id: Invite.ID, _ title: String = "Lunch", hour: Int64 = 12) -> Invite {
    let start: Int64 = 1_772_409_600 + hour * 3600
    return Invite(id: id, title: title, start: .instant(start), end: .instant(start + 3600), source: "test")
}

/// Collects errors from several threads.
final class ThreadErrors: Sendable {
    private let errors = Mutex<[String]>([])
    func add(_ text: String) { errors.withLock { $0.append(text) } }
    var all: [String] { errors.withLock { $0 } }
}
