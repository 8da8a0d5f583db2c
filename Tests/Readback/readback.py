"""Reads calendar files with Python's icalendar (an independent parser) and prints
their VEVENTs as JSON lines: uid, summary, start, end (UTC `...Z` or a date),
sequence, status and X-COOLCAL-INVITE-ID. Used by the accept tests to check that what
coolcal writes reads back the same in libical and here."""
import datetime
import json
import sys

import icalendar


def value(prop):
    if prop is None:
        return None
    v = prop.dt
    if isinstance(v, datetime.datetime):
        if v.tzinfo is None:
            return v.strftime("%Y-%m-%dT%H:%M:%S")
        return v.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return v.strftime("%Y-%m-%d")


def main(paths):
    for path in paths:
        with open(path, "rb") as f:
            cal = icalendar.Calendar.from_ical(f.read())
        for event in cal.walk("VEVENT"):
            seq = event.get("SEQUENCE")
            print(json.dumps({
                "uid": str(event.get("UID")),
                "summary": str(event.get("SUMMARY")) if event.get("SUMMARY") is not None else None,
                "start": value(event.get("DTSTART")),
                "end": value(event.get("DTEND")),
                "sequence": int(seq) if seq is not None else None,
                "status": str(event.get("STATUS")) if event.get("STATUS") is not None else None,
                "invite_id": str(event.get("X-COOLCAL-INVITE-ID")) if event.get("X-COOLCAL-INVITE-ID") is not None else None,
            }, ensure_ascii=False, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
