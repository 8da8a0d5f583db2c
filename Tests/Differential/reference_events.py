"""Reference implementation of `coolcal events --json`, using recurring-ical-events + icalendar.

    reference_events.py [events] [--json] --tz ZONE --from YYYY-MM-DDTHH:MM:SSZ --to ... CAL...

Prints coolcal's JSON document.  The library is queried with the window widened by 2 days each
side; every occurrence is then converted to instants here (aware -> UTC, floating -> --tz, all-day
dates -> local midnight in --tz) and filtered with coolcal's half-open overlap rule.

Besides the library's values every occurrence carries an "RFC reading" (`alt_start`/`alt_end`,
`alt_reasons`) wherever the library is known to deviate from RFC 5545; compare.py and
known_differences.py use it.  The JSON printed by this script is the library's reading.
"""
import argparse, bisect, json, os, sys
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events
import x_wr_timezone
from dateutil import tz as dtz
from dateutil.rrule import rrulestr

UTC = timezone.utc
MARGIN = timedelta(days=2)


def parse_utc(text):
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def fmt(instant):
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")


def load(path):
    """(calendar name, icalendar.Calendar); a vdir directory is merged into one calendar."""
    path = path.rstrip("/")
    if not os.path.isdir(path):
        with open(path, "rb") as f:
            cal = icalendar.Calendar.from_ical(f.read())
        # Google/Apple: floating times are in X-WR-TIMEZONE (the package also moves UTC values:
        # the generator writes none there, see known_differences.py).
        return os.path.basename(path), x_wr_timezone.to_standard(cal) if "X-WR-TIMEZONE" in cal else cal
    merged = icalendar.Calendar()
    for name in sorted(os.listdir(path)):
        if name.endswith(".ics"):
            with open(os.path.join(path, name), "rb") as f:
                for comp in icalendar.Calendar.from_ical(f.read()).subcomponents:
                    merged.add_component(comp)
    return os.path.basename(path), merged


def lib_utc(value, zone):
    """How the library's value maps to an instant: aware as is, floating/dates in `zone`."""
    if not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day)
    if value.tzinfo is None:
        value = value.replace(tzinfo=zone)  # fold=0: RFC 5545 3.3.5 gap/fold reading
    return value.astimezone(UTC)


def rfc_utc(value, zone):
    """RFC 5545 3.3.5 reading: a wall time in a DST gap uses the offset from before the gap.
    zoneinfo already does this (fold=0); VTIMEZONE-derived dateutil tzinfos do not."""
    if isinstance(value, datetime) and value.tzinfo is not None and not isinstance(
            value.tzinfo, (ZoneInfo, timezone)) and not dtz.datetime_exists(value):
        before = value.tzinfo.utcoffset(value - timedelta(days=1))
        return (value.replace(tzinfo=None) - before).replace(tzinfo=UTC)
    return lib_utc(value, zone)


class Raw:
    """One occurrence as the library returned it (time-zone independent part)."""
    __slots__ = ("calendar", "uid", "summary", "status", "transparent", "start", "end", "rid",
                 "all_day", "end_rule", "shift", "until", "past_count")


_LAST_COUNTED = {}  # id(master) -> the library's last RRULE instance, which RFC 5545 does not give


def last_counted(comp):
    """The last instance of the master's single COUNT rule when DTSTART does not match the rule.

    RFC 5545 §3.3.10: "The DTSTART property value always counts as the first occurrence", so such a
    rule gives COUNT instances with DTSTART; the library (dateutil) gives DTSTART plus COUNT matches.
    None when DTSTART matches or the master has no such rule."""
    key = id(comp)
    if key not in _LAST_COUNTED:
        _LAST_COUNTED[key] = None
        rules = comp.get("RRULE", [])
        rules = rules if isinstance(rules, list) else [rules]
        if len(rules) == 1 and "COUNT" in rules[0]:
            start = comp["DTSTART"].dt
            dt = start if isinstance(start, datetime) else datetime(start.year, start.month, start.day)
            instances = list(rrulestr(rules[0].to_ical().decode(), dtstart=dt))
            if instances and instances[0] != dt:
                last = instances[-1]
                _LAST_COUNTED[key] = last if isinstance(start, datetime) else last.date()
    return _LAST_COUNTED[key]


def describe(calendar, occ, recurring_uids):
    adapter = occ._adapter
    comp = adapter._component
    raw = Raw()
    raw.calendar, raw.uid = calendar, str(comp.get("UID"))
    raw.summary = str(comp.get("SUMMARY", ""))
    status = comp.get("STATUS")
    raw.status = str(status).upper() if status is not None else None
    raw.transparent = str(comp.get("TRANSP", "OPAQUE")).upper() == "TRANSPARENT"
    raw.start, raw.end = occ.start, occ.end
    raw.all_day = not isinstance(occ.start, datetime)
    own = adapter.is_modification() and not adapter.this_and_future
    raw.shift = None  # (DTSTART, RECURRENCE-ID) of a RANGE=THISANDFUTURE override moving this instance
    raw.until = None  # the UTC UNTIL of the rule that generated this instance
    raw.past_count = False  # the COUNT rule's last instance, one too many by RFC 5545 (last_counted)
    if adapter.is_modification():
        raw.rid = (occ.start - adapter.move_recurrences_by) if adapter.this_and_future \
            else comp["RECURRENCE-ID"].dt
        own = own or occ.start == adapter.start
        if not own:
            raw.shift = (comp["DTSTART"].dt, comp["RECURRENCE-ID"].dt)
    else:
        raw.rid = occ.start if raw.uid in recurring_uids else None
        own = raw.rid is None
        raw.past_count = raw.rid is not None and last_counted(comp) == occ.start
        rules, rdates = comp.get("RRULE", []), comp.get("RDATE", [])
        untils = [u for r in (rules if isinstance(rules, list) else [rules]) for u in r.get("UNTIL", [])]
        if untils and getattr(untils[0], "tzinfo", None) and not isinstance(  # VTIMEZONE zones only
                getattr(raw.rid, "tzinfo", None), (ZoneInfo, timezone, type(None))) and all(
                lib_utc(d.dt[0] if isinstance(d.dt, tuple) else d.dt, UTC) != lib_utc(raw.rid, UTC)
                for r in (rdates if isinstance(rdates, list) else [rdates]) for d in r.dts):
            raw.until = untils[0]  # an RRULE instance (not an RDATE) in a VTIMEZONE-defined zone
    raw.end_rule = None  # how RFC 5545 says the end follows from the start, where it matters
    if raw.all_day:
        return raw
    duration = comp.get("DURATION")
    if own:
        if duration is not None:
            raw.end_rule = ("dur", duration.dt)
        return raw
    rdates = comp.get("RDATE", [])
    for rdate in rdates if isinstance(rdates, list) else [rdates]:
        for period in rdate.dts:
            p = period.dt
            if isinstance(p, tuple) and lib_utc(p[0], UTC) == lib_utc(occ.start, UTC):
                raw.end_rule = ("dur", p[1]) if isinstance(p[1], timedelta) else None
                return raw
    if "DTEND" in comp:
        raw.end_rule = ("dtend", comp["DTSTART"].dt, comp["DTEND"].dt)
    elif duration is not None:
        raw.end_rule = ("dur", duration.dt)
    return raw


class Reference:
    def __init__(self, paths):
        self.calendars = [load(p) for p in sorted(paths)]
        self.recurring = {}
        for name, cal in self.calendars:
            self.recurring[name] = {str(c.get("UID")) for c in cal.walk("VEVENT")
                                    if "RECURRENCE-ID" not in c and ("RRULE" in c or "RDATE" in c)}
        self.queries = [(n, recurring_ical_events.of(c)) for n, c in self.calendars]

    def raw(self, lo, hi):
        """Library occurrences for [lo - 2 days, hi + 2 days), lo/hi aware UTC."""
        a = (lo - MARGIN).replace(tzinfo=None)
        b = (hi + MARGIN).replace(tzinfo=None)
        return [describe(name, occ, self.recurring[name])
                for name, q in self.queries for occ in q._occurrences_between(a, b)]


class Occurrences:
    """Raw occurrences converted for one --tz, indexed for fast window queries."""

    def __init__(self, raws, tzname):
        zone = ZoneInfo(tzname)
        rows = []
        for raw in raws:
            s, e = lib_utc(raw.start, zone), lib_utc(raw.end, zone)
            alt_s, alt_e, reasons = s, e, []
            if not raw.all_day:
                alt_s = rfc_utc(raw.start, zone)
                if alt_s != s:
                    reasons.append("vtimezone-gap")
                moved = timedelta(0)
                if raw.shift:  # the override's start minus its RECURRENCE-ID, as an exact difference
                    shifted = rfc_utc(raw.rid, zone) + (rfc_utc(raw.shift[0], zone) - rfc_utc(raw.shift[1], zone))
                    if shifted != alt_s:
                        reasons.append("thisandfuture-exact-shift")
                        moved, alt_s = shifted - alt_s, shifted
                rule = raw.end_rule
                if rule and rule[0] == "dtend":
                    alt_e = alt_s + (rfc_utc(rule[2], zone) - rfc_utc(rule[1], zone))
                elif rule and rule[0] == "dur":
                    start0 = rfc_utc(raw.start, zone)
                    alt_e = alt_s + (rfc_utc(raw.start + timedelta(days=rule[1].days), zone) - start0) + \
                        timedelta(seconds=rule[1].seconds)
                else:
                    alt_e = rfc_utc(raw.end, zone) + moved
                if alt_e - alt_s != e - s and rule:
                    reasons.append("dtend-exact" if rule[0] == "dtend" else "duration-exact")
                elif alt_e != e and not reasons:
                    reasons.append("vtimezone-gap")
            if raw.until is not None and rfc_utc(raw.rid, zone) > raw.until:  # a gap time passed UNTIL
                reasons.append("vtimezone-gap")
                alt_s = alt_e = None
            if raw.past_count:  # DTSTART was the first of COUNT: not an instance at all
                reasons.append("count-unmatched-dtstart")
                alt_s = alt_e = None
            rid = raw.rid
            if rid is not None:
                rid = rid.isoformat() if not isinstance(rid, datetime) else fmt(rfc_utc(rid, zone))
            rows.append((min(s, alt_s or s), s, e, alt_s, alt_e, reasons, rid, raw))
        rows.sort(key=lambda r: r[0])
        self.rows = rows
        self.keys = [r[0] for r in rows]
        self.maxlen = max([max(r[2] - r[1], (r[4] - r[3]) if r[3] else timedelta(0)) for r in rows]
                          + [timedelta(0)])

    def window(self, ws, we):
        """Dicts for occurrences overlapping [ws, we) by the library's or the RFC's reading."""
        out = []
        lo = bisect.bisect_left(self.keys, ws - self.maxlen)
        hi = bisect.bisect_left(self.keys, we)
        for _, s, e, alt_s, alt_e, reasons, rid, raw in self.rows[lo:hi]:
            in_lib = overlaps(s, e, ws, we)
            in_alt = alt_s is not None and overlaps(alt_s, alt_e, ws, we)
            if not (in_lib or in_alt):
                continue
            d = as_json(raw, rid, s, e)
            d["_in_lib"], d["_in_alt"], d["_start"] = in_lib, in_alt, s
            if reasons:  # start/end None: not an instance at all by the RFC reading
                d["_alt"] = {"start": alt_s and fmt(alt_s), "end": alt_e and fmt(alt_e), "reasons": reasons}
            out.append(d)
        out.sort(key=lambda d: (d["_start"], d["uid"], d["recurrence_id"] or ""))
        return out


def overlaps(s, e, ws, we):
    if s == e:
        return ws <= s < we
    return s < we and e > ws


def as_json(raw, rid, s, e):
    return {"uid": raw.uid, "recurrence_id": rid, "summary": raw.summary, "calendar": raw.calendar,
            "start": raw.start.isoformat() if raw.all_day else fmt(s),
            "end": raw.end.isoformat() if raw.all_day else fmt(e),
            "all_day": raw.all_day,
            "busy": not raw.transparent and raw.status != "CANCELLED",
            "transparent": raw.transparent, "status": raw.status}


def document(ref, tzname, ws, we, raws=None):
    """The coolcal JSON document (as a dict) for one query, by the library's reading."""
    occ = Occurrences(ref.raw(ws, we) if raws is None else raws, tzname)
    events = [{k: v for k, v in d.items() if not k.startswith("_")} for d in occ.window(ws, we)
              if d["_in_lib"]]
    return {"window": {"start": fmt(ws), "end": fmt(we)}, "events": events}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="accepted for coolcal compatibility")
    ap.add_argument("--tz", required=True)
    ap.add_argument("--from", dest="start", required=True)
    ap.add_argument("--to", dest="end", required=True)
    ap.add_argument("calendars", nargs="+")
    argv = sys.argv[1:] if argv is None else argv
    a = ap.parse_args(argv[1:] if argv[:1] == ["events"] else argv)  # drop-in for `coolcal events`
    ws, we = parse_utc(a.start), parse_utc(a.end)
    json.dump(document(Reference(a.calendars), a.tz, ws, we), sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
