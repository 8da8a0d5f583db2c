import Foundation

/// A value made the first time it is asked for, then kept: what costs to make (a time
/// zone or a locale loads ICU's data) and a run may never need. Safe to share between
/// threads; copies of a struct holding it share the one value.
package final class Lazy<Value>: @unchecked Sendable {
    private enum State {
        case made(Value)
        case pending(() -> Value)
    }

    /// Guarded by `lock`.
    private var state: State
    private let lock = NSLock()

    package init(_ make: @escaping () -> Value) {
        state = .pending(make)
    }

    /// A value already made.
    package init(made value: Value) {
        state = .made(value)
    }

    package var value: Value {
        lock.withLock {
            switch state {
            case .made(let value):
                return value
            case .pending(let make):
                let value = make()
                state = .made(value)
                return value
            }
        }
    }
}
