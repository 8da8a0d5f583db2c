import Foundation
import Synchronization

/// What a `ReplyChange` applied, for the outcome line: how many of the reply's VEVENTs
/// were taken, and how many named a RECURRENCE-ID that is no instance of the series.
package final class ReplyTally: Sendable {
    private let counts = Mutex((applied: 0, notInstances: 0))

    package init() {}

    func record(applied: Int, notInstances: Int) {
        counts.withLock { $0 = (applied, notInstances) }
    }

    /// `reply`, `reply: 3 instances`, `reply: 2 instances; 1 not an instance`.
    package var said: String {
        let (applied, notInstances) = counts.withLock { $0 }
        let head = applied > 1 ? "reply: \(applied) instances" : "reply"
        return notInstances == 0 ? head : head + "; \(notInstances) not an instance"
    }
}
