import CoolcalCalDAV
import CoolcalICal
import CoolcalSupport

/// The failures of writing one calendar (a file that cannot be written or locked, a
/// CalDAV server that refuses, a calendar that cannot be read back): `merge` leaves the
/// item pending and goes on, ending with the failure's status (`MergePass`, `MergeRun`).
enum CalendarWriteFailure {
    static func matches(_ error: any Error) -> Bool {
        error is WriteError || error is CalDAVError || error is ICalError
    }
}
