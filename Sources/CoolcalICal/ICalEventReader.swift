internal import CLibical
import Foundation
import CoolcalModel
import CoolcalScan

/// Turns one VEVENT into an `ICalEvent`.
package enum ICalEventReader {
    package static func event(from vevent: OpaquePointer) -> ICalEvent {
        var event = ICalEvent()
        for prop in ICalWalk.properties(of: vevent) {
            read(prop, into: &event)
        }
        return event
    }

    private static func read(_ prop: OpaquePointer, into event: inout ICalEvent) {
        switch icalproperty_isa(prop) {
        case ICAL_UID_PROPERTY:
            event.uid = ICalWalk.copy(icalproperty_get_uid(prop))
        case ICAL_SUMMARY_PROPERTY:
            event.summary = ICalWalk.copy(icalproperty_get_summary(prop))
        case ICAL_STATUS_PROPERTY:
            event.status = ICalWalk.copy(icalproperty_get_value_as_string(prop))?.uppercased()
        case ICAL_TRANSP_PROPERTY:
            event.transparent = ICalWalk.copy(icalproperty_get_value_as_string(prop))?.uppercased() == "TRANSPARENT"
            event.hasTransp = true
        case ICAL_DTSTART_PROPERTY:
            if event.start == nil { event.start = time(icalproperty_get_dtstart(prop), prop) }
            else { event.problems.append("more than one DTSTART; the first is used") }
        case ICAL_DTEND_PROPERTY:
            if event.end == nil { event.end = time(icalproperty_get_dtend(prop), prop) }
        case ICAL_DURATION_PROPERTY:
            event.duration = duration(icalproperty_get_duration(prop))
        case ICAL_RECURRENCEID_PROPERTY:
            event.recurrenceID = time(icalproperty_get_recurrenceid(prop), prop)
            if let range = ICalWalk.parameter(prop, ICAL_RANGE_PARAMETER) {
                event.thisAndFuture = icalparameter_get_range(range) == ICAL_RANGE_THISANDFUTURE
            }
        case ICAL_RRULE_PROPERTY:
            let recur = icalproperty_get_rrule(prop)
            if let reason = ICalRule.disallowed(recur) {
                event.problems.append("an RRULE that RFC 5545 does not allow (\(reason)); only DTSTART is used")
            } else if let rule = ICalRule(recur) {
                event.rules.append(rule)
            } else {
                event.problems.append("an RRULE libical cannot read")
            }
        case ICAL_RDATE_PROPERTY:
            if let rdate = recurrenceDate(icalproperty_get_rdate(prop), prop) { event.rdates.append(rdate) }
        case ICAL_EXDATE_PROPERTY:
            event.exdates.append(time(icalproperty_get_exdate(prop), prop))
        case ICAL_ATTENDEE_PROPERTY:
            if let address = ICalWalk.copy(icalproperty_get_attendee(prop)) {
                let partstat = ICalWalk.parameter(prop, ICAL_PARTSTAT_PARAMETER).flatMap {
                    ICalWalk.copy(icalparameter_get_xvalue($0)) ?? partstatName(icalparameter_get_partstat($0))
                }
                var attendee = ICalAttendee(address: address, partstat: partstat)
                attendee.delegatedTo = addresses(prop, "DELEGATED-TO")
                attendee.delegatedFrom = addresses(prop, "DELEGATED-FROM")
                attendee.name = ICalWalk.parameter(prop, ICAL_CN_PARAMETER).flatMap { ICalWalk.copy(icalparameter_get_cn($0)) }
                attendee.language = ICalWalk.parameter(prop, ICAL_LANGUAGE_PARAMETER).flatMap { ICalWalk.copy(icalparameter_get_language($0)) }
                event.attendees.append(attendee)
            }
        case ICAL_SEQUENCE_PROPERTY:
            event.sequence = Int(icalproperty_get_sequence(prop))
        case ICAL_DTSTAMP_PROPERTY:
            event.stamp = time(icalproperty_get_dtstamp(prop), prop)
        case ICAL_LASTMODIFIED_PROPERTY:
            event.lastModified = time(icalproperty_get_lastmodified(prop), prop)
        case ICAL_ORGANIZER_PROPERTY:
            event.organizer = ICalWalk.copy(icalproperty_get_organizer(prop))
        case ICAL_XLICERROR_PROPERTY:
            if let message = ICalWalk.copy(icalproperty_get_xlicerror(prop)) { event.problems.append(message) }
        case ICAL_X_PROPERTY:
            switch ICalWalk.copy(icalproperty_get_x_name(prop))?.uppercased() {
            case "X-COOLCAL-INVITE-ID":
                event.inviteID = ICalWalk.copy(icalproperty_get_value_as_string(prop))
            case "X-MICROSOFT-CDO-BUSYSTATUS":
                if event.busyStatus == nil { event.busyStatus = outlookStatus(prop) }
            case "X-MICROSOFT-CDO-INTENDEDSTATUS":
                if event.intendedStatus == nil { event.intendedStatus = outlookStatus(prop) }
            default:
                break
            }
        default:
            break
        }
    }

    private static func outlookStatus(_ prop: OpaquePointer) -> String? {
        ICalWalk.copy(icalproperty_get_value_as_string(prop)).map { String($0.filter { $0 != " " && $0 != "\t" }).uppercased() }
    }

    /// The calendar addresses of a list-valued parameter (`"mailto:a","mailto:b"`).
    private static func addresses(_ prop: OpaquePointer, _ name: String) -> [String] {
        guard let raw = icalproperty_get_parameter_as_string_r(prop, name) else { return [] }
        defer { free(raw) }
        return String(cString: raw).split(separator: ",").map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        }.filter { !$0.isEmpty }
    }

    private static func partstatName(_ value: icalparameter_partstat) -> String? {
        switch value {
        case ICAL_PARTSTAT_ACCEPTED: return "ACCEPTED"
        case ICAL_PARTSTAT_DECLINED: return "DECLINED"
        case ICAL_PARTSTAT_TENTATIVE: return "TENTATIVE"
        case ICAL_PARTSTAT_DELEGATED: return "DELEGATED"
        case ICAL_PARTSTAT_NEEDSACTION: return "NEEDS-ACTION"
        case ICAL_PARTSTAT_COMPLETED: return "COMPLETED"
        case ICAL_PARTSTAT_INPROCESS: return "IN-PROCESS"
        default: return nil
        }
    }

    /// A time value with the TZID parameter of its property.
    static func time(_ t: icaltimetype, _ prop: OpaquePointer) -> ICalTime {
        let reference: ICalTime.Reference
        if icaltime_is_utc(t) != 0 {
            reference = .utc
        } else if let tz = ICalWalk.parameter(prop, ICAL_TZID_PARAMETER),
                  let id = ICalWalk.copy(icalparameter_get_tzid(tz)) {
            reference = .zoned(id)
        } else {
            reference = .floating
        }
        return ICalTime(fields: CivilDateTime(icaltime: t), isDate: t.is_date != 0, reference: reference)
    }

    private static func duration(_ d: icaldurationtype) -> ICalDuration {
        ICalDuration(
            negative: d.is_neg != 0,
            days: Int(d.days) + 7 * Int(d.weeks),
            seconds: Int(d.hours) * 3600 + Int(d.minutes) * 60 + Int(d.seconds))
    }

    private static func recurrenceDate(_ value: icaldatetimeperiodtype, _ prop: OpaquePointer) -> ICalRecurrenceDate? {
        if icaltime_is_null_time(value.time) == 0 {
            return .time(time(value.time, prop))
        }
        let period = value.period
        guard icaltime_is_null_time(period.start) == 0 else { return nil }
        let start = time(period.start, prop)
        if icaltime_is_null_time(period.end) == 0 {
            return .period(start: start, end: time(period.end, prop))
        }
        return .periodDuration(start: start, duration: duration(period.duration))
    }
}
