import CoolcalModel
import CoolcalState
import CoolcalWriting

/// The calendar was written, but the answer could not be recorded in the state (nor so
/// mailed or sent): never "the calendar is as it was" when it is not. Exit 2
/// (`ExitStatus.unrecorded`); the next run finds the event in the calendar, records the
/// answer and mails it, once. For `process` a retry mends it: the message is parked and
/// the status is 75 (`Fault.transient`).
package struct UnrecordedAnswer: StatusError, CustomStringConvertible {
    /// The calendars written, as shown.
    package var written: [String]
    /// Why the answer could not be recorded.
    package var cause: any Error

    package var exitStatus: ExitStatus { .unrecorded }
    package var fault: Fault { .transient }

    package var description: String {
        "written to \(written.joined(separator: ", ")); the answer is not recorded: \(cause); run again to record and mail it"
    }

    package init(written: [String], cause: any Error) {
        self.written = written
        self.cause = cause
    }

    /// Runs `body`, the recording that follows a calendar write: a fault of the state's
    /// (`SQLiteError`, `StateError`) is said as this; any other error stands. Nothing
    /// written (`written` empty): nothing to say but the fault.
    @discardableResult
    package static func recording<T>(after written: [String], _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch where !written.isEmpty && (error is SQLiteError || error is StateError) {
            throw UnrecordedAnswer(written: written, cause: error)
        }
    }
}

extension WriteOutcome {
    /// The calendar now differs from before the write (an event added, updated,
    /// cancelled, removed or declined in place).
    package var changedCalendar: Bool {
        switch self {
        case .added, .updated, .cancelled, .removed, .declinedInPlace: return true
        case .unchanged, .stale, .absent, .othersCancelled, .held: return false
        }
    }
}
