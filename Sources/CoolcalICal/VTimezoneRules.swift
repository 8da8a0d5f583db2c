internal import CLibical
import CoolcalModel
import CoolcalZones

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

    /// The zone of a VTIMEZONE the reader found plausible, or nil when it is not to be used.
    /// One whose DAYLIGHT and STANDARD observances begin at the same local time (Tine 2.0
    /// writes both `DTSTART:20111121T115910`, no rule) says two things of every moment after
    /// it, and libical picks the summer offset in November: it is left out, with a warning
    /// naming `file` and the zone, so its TZID is read in the system zone of that name;
    /// kept, with a warning, where there is none.
    package static func usable(_ vtz: OpaquePointer, file: String, warnings: inout [String]) -> VTimezoneRules? {
        guard let onset = sharedOnset(vtz) else { return VTimezoneRules(vtimezone: vtz) }
        let what = "\(file): VTIMEZONE \(ZoneChecks.tzid(of: vtz)): its DAYLIGHT and STANDARD observances both begin at \(onset.utcString.dropLast())"
        let name = icalcomponent_get_first_property(vtz, ICAL_TZID_PROPERTY).flatMap { ICalWalk.copy(icalproperty_get_tzid($0)) }
        if let name, ZoneBook.systemZone(named: name) != nil {
            warnings.append("\(what); the system zone of that name is used instead")
            return nil
        }
        warnings.append("\(what); no system zone has that name, so the zone is read as it is")
        return VTimezoneRules(vtimezone: vtz)
    }

    /// The earliest local time at which a DAYLIGHT and a STANDARD observance both begin, or nil.
    private static func sharedOnset(_ vtz: OpaquePointer) -> CivilDateTime? {
        func onsets(_ kind: icalcomponent_kind) -> Set<CivilDateTime> {
            Set(ICalWalk.children(of: vtz, kind: kind).compactMap { observance in
                let t = icalcomponent_get_dtstart(observance)
                return icaltime_is_null_time(t) != 0 ? nil : CivilDateTime(icaltime: t)
            })
        }
        return onsets(ICAL_XDAYLIGHT_COMPONENT).intersection(onsets(ICAL_XSTANDARD_COMPONENT)).min()
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
