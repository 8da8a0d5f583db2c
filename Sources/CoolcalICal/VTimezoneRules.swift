internal import CLibical
import CoolcalModel

/// A time zone defined by a VTIMEZONE in a calendar file, evaluated by libical.
package final class VTimezoneRules: ZoneRules {
    private let zone: OpaquePointer
    package let identifier: String

    /// Takes a clone of the VTIMEZONE; nil when it has no TZID.
    package init?(vtimezone: OpaquePointer) {
        guard let clone = icalcomponent_new_clone(vtimezone) else { return nil }
        guard let zone = icaltimezone_new() else {
            icalcomponent_free(clone)
            return nil
        }
        guard icaltimezone_set_component(zone, clone) != 0 else {
            // Refused (no TZID): the zone did not take the clone, so it is ours to free.
            icalcomponent_free(clone)
            icaltimezone_free(zone, 1)
            return nil
        }
        guard let tzid = ICalWalk.copy(icaltimezone_get_tzid(zone)) else {
            icaltimezone_free(zone, 1)
            return nil
        }
        self.zone = zone
        self.identifier = tzid
    }

    deinit {
        icaltimezone_free(zone, 1)
    }

    package func offset(atUTC seconds: Int64) -> Int {
        let f = CivilDateTime(utcSeconds: seconds)
        var t = icaltime_null_time()
        t.year = Int32(f.year)
        t.month = Int32(f.month)
        t.day = Int32(f.day)
        t.hour = Int32(f.hour)
        t.minute = Int32(f.minute)
        t.second = Int32(f.second)
        var isDaylight: Int32 = 0
        return Int(icaltimezone_get_utc_offset_of_utc_time(zone, &t, &isDaylight))
    }
}
