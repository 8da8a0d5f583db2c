"""Differences where the reference (recurring-ical-events 3.8.2 / icalendar 7.3.2) is wrong by RFC 5545.

Each entry is applied to a difference (see compare.py) and explains it only when coolcal agrees
with the RFC reading that reference_events.py computes next to the library's value (`_alt`) and
every reason for that reading is listed here.  Anything else stays a failure.

Reference quirks the generator deliberately avoids (no RFC reading is modelled for them):
EXDATE and RECURRENCE-ID also match an instance whose local wall time equals their UTC time
(TZID=America/New_York EXDATE 20240305T090000 also drops an RDATE at 14:00 New York that day).
`FREQ=YEARLY;BYWEEKNO=n` without BYDAY: dateutil gives all seven days of week n; RFC 5545 §3.3.10
expands BYWEEKNO and takes the rest from DTSTART ("Information, not contained in the rule, necessary
to determine the various recurrence instance start time and dates are derived from the Start Time
("DTSTART") component attribute"), so coolcal gives DTSTART's weekday only; the generator writes no
BYWEEKNO (WeekNumberTests hold coolcal's reading).

X-WR-TIMEZONE (xwr.ics): the reference reads such a file through the pinned `x-wr-timezone` package,
which also moves UTC values into the named zone, so a UTC-based series follows that zone's DST
(`DTSTART:20240105T150000Z` + `RRULE:FREQ=WEEKLY` becomes 15:00 Chicago time in winter, 14:00Z in
summer). RFC 5545 §3.3.5: a UTC time (FORM #2) "is an absolute time"; only a floating time (FORM #1)
"is used to represent the same hour, minute, and second value regardless of which time zone is
currently being observed", and X-WR-TIMEZONE gives that zone; coolcal moves floating values only.
Likewise a floating UNTIL (`UNTIL=20250718T083000` on a floating DTSTART) comes out of the package
read as UTC, cutting the last instance; §3.3.10: "If the "DTSTART" property is specified as a date
with local time, then the UNTIL rule part MUST also be specified as a date with local time", i.e. in
the same zone as DTSTART.  The generator writes no UTC DTSTART in xwr.ics (a UTC RDATE, EXDATE or
RECURRENCE-ID of a zoned series keeps its instant either way) and writes its UNTILs in UTC (as Google
does), so neither shape is compared.
"""

FIELDS = ("start", "end", "all_day", "summary", "busy")

KNOWN = [
    {
        "id": "dtend-exact",
        "rfc": "RFC 5545 §3.8.5.3 (RRULE): \"If the duration of the recurring component is specified "
               "with the DTEND or DUE property, then the same exact duration will apply to all the "
               "members of the generated recurrence set.\"",
        "reading": "The library subtracts DTSTART from DTEND as wall-clock times (same tzinfo) and adds "
                   "that nominal span to each instance's wall-clock start, so when the first instance "
                   "or a later one crosses a DST change the instance's end is off by the DST shift. "
                   "E.g. DTSTART;TZID=America/New_York:20240310T023000 DTEND 043000 DAILY: exact 1h, "
                   "the library gives the 2024-03-11 instance 06:30Z-08:30Z instead of 06:30Z-07:30Z.",
    },
    {
        "id": "duration-exact",
        "rfc": "RFC 5545 §3.3.6 (DURATION): weeks and days are nominal, hours, minutes and seconds "
               "are exact: \"When computing an exact duration, the greatest order time components "
               "MUST be added first, that is, the number of days MUST be added first, followed by "
               "the number of hours, number of minutes, and number of seconds.\" (see also §3.8.2.5)",
        "reading": "The library adds the whole DURATION (also its hours/minutes) as wall-clock time. "
                   "E.g. DTSTART;TZID=America/New_York:20241103T010000 DURATION:PT1H30M ends at "
                   "02:30 EST = 07:30Z in the library, RFC: 05:00Z + 1h30m = 06:30Z.",
    },
    {
        "id": "vtimezone-gap",
        "rfc": "RFC 5545 §3.3.5 (DATE-TIME, form #3): \"If the local time described does not occur "
               "(when changing from standard to daylight time), the DATE-TIME value is interpreted "
               "using the UTC offset before the gap in local times.\"",
        "reading": "With a custom TZID defined by a VTIMEZONE block, icalendar uses dateutil's "
                   "tzicalvtz, which maps a skipped local time with the offset *after* the gap "
                   "(Custom/Sydney 20241006T023000 -> 15:30Z; RFC: +10:00 -> 16:30Z); such an instance "
                   "can also wrongly pass UNTIL (DAILY 02:45 Custom/Eastern, UNTIL=20250309T074400Z keeps "
                   "2025-03-09 02:45 = 07:45Z). IANA TZIDs (zoneinfo, fold=0) are right.",
    },
    {
        "id": "count-unmatched-dtstart",
        "rfc": "RFC 5545 §3.3.10 (RECUR, COUNT): \"The COUNT rule part defines the number of occurrences "
               "at which to range-bound the recurrence. The \"DTSTART\" property value always counts as the "
               "first occurrence.\"",
        "reading": "When DTSTART does not match its rule, the library adds DTSTART to COUNT instances that "
                   "match (dateutil counts matches only), one occurrence too many: DTSTART Friday 2024-07-12 "
                   "with FREQ=WEEKLY;COUNT=3;BYDAY=TU gives 07-12, 07-16, 07-23 and 07-30; by the RFC the "
                   "series ends on 07-23 (sabre/vobject and KCalendarCore count the same way). The generator "
                   "writes such series when a revision moves DTSTART off its rule (revisions.ics).",
    },
    {
        "id": "thisandfuture-exact-shift",
        "rfc": "RFC 5545 §3.8.4.4 (RECURRENCE-ID, RANGE=THISANDFUTURE): \"When the given recurrence "
               "instance is rescheduled, all subsequent instances are also rescheduled by the same time "
               "difference.\" Read as the exact difference of the two DATE-TIMEs, as DTEND - DTSTART "
               "is an exact duration in §3.8.5.3.",
        "reading": "JUDGEMENT CALL, the RFC does not say nominal or exact: the library adds the "
                   "wall-clock difference DTSTART - RECURRENCE-ID (same TZID) to each later instance. "
                   "E.g. DAILY 11:30 Europe/Berlin, RECURRENCE-ID;RANGE=THISANDFUTURE 20250314T113000 "
                   "moved to 20250329T113000: the library puts the 2025-03-15 instance at "
                   "2025-03-30 11:30 CEST = 09:30Z, the exact reading (15 x 24 h later) at 10:30Z. "
                   "Drop this entry to require the wall-clock reading instead.",
    },
]
IDS = {k["id"] for k in KNOWN}


def _explained(diff, reason):
    ref, cool, kind = diff.get("ref"), diff.get("cool"), diff["kind"]
    alt = (ref or {}).get("_alt")
    if not alt or reason not in alt["reasons"] or not set(alt["reasons"]) <= IDS:
        return False
    if kind == "missing":  # the library's end/start puts it in the window, the RFC reading does not
        return not ref["_in_alt"]
    if kind not in ("changed", "extra") or not ref["_in_alt"]:
        return False
    expect = dict(ref, start=alt["start"], end=alt["end"])
    return all(expect[f] == cool.get(f) for f in FIELDS)


for _entry in KNOWN:
    _entry["predicate"] = (lambda reason: lambda diff: _explained(diff, reason))(_entry["id"])


def explain(diff):
    """The id of the known difference that explains `diff`, or None."""
    for entry in KNOWN:
        if entry["predicate"](diff):
            return entry["id"]
    return None
