#!/usr/bin/env python3
"""Seeded generator of one large, realistic calendar for the coolcal benchmark.

    gen_calendar.py --events N --seed S [--rules real|simple] --out FILE
    gen_calendar.py --events N --seed S [--rules real|simple] --vdir DIR


Writes exactly N VEVENTs (plus VTIMEZONEs) to FILE, shaped like a real export (~600 bytes
per event, so 100k events are ~60 MB): CRLF, folded at 75 octets, UID + DTSTAMP everywhere,
non-ASCII text, ORGANIZER/ATTENDEE lines, events in random order over 2015-2026.

    ~86%  single timed events, TZID=America/New_York|Europe/Berlin|Asia/Tokyo or UTC `Z`
     5%   all-day events (VALUE=DATE), mostly TRANSP:TRANSPARENT
     8%   recurring masters: RRULE DAILY/WEEKLY/MONTHLY with COUNT, UNTIL or open-ended,
          some with EXDATEs (always of real instances); with --rules real (the default)
          half of them take a shape clients write with BY parts (rule_shapes.py: weekly on
          a day, weekdays, the n-th weekday of the month, a month day, yearly ones)
     1%   RECURRENCE-ID overrides of real instances of those masters (half right after
          the master, half at the end of the file), some moved, some cancelled
Some events are TRANSP:TRANSPARENT, STATUS:CANCELLED or TENTATIVE, some use DURATION.
With --vdir the same events (same seed, same bytes) go into a vdir, as vdirsyncer keeps one:
one `UID.ics` per UID (a master and its overrides share a file), each a VCALENDAR with the
VTIMEZONEs that file uses; DIR must not exist yet.
Only the standard library; same seed and N give the same bytes.
"""
import argparse, itertools, os, random, sys, time
from datetime import date, datetime, timedelta

import rule_shapes

ZONES = ["America/New_York", "Europe/Berlin", "Asia/Tokyo", "UTC"]
ZONE_WEIGHTS = [40, 30, 10, 20]
FIRST_DAY = date(2015, 1, 1)
DAYS = (date(2026, 12, 31) - FIRST_DAY).days + 1
DTSTAMP = "20261115T093000Z"  # exports stamp every event with the export time

VTIMEZONES = {
    "America/New_York": [
        "BEGIN:VTIMEZONE", "TZID:America/New_York", "X-LIC-LOCATION:America/New_York",
        "BEGIN:DAYLIGHT", "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400", "TZNAME:EDT",
        "DTSTART:19700308T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "END:DAYLIGHT",
        "BEGIN:STANDARD", "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500", "TZNAME:EST",
        "DTSTART:19701101T020000", "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU", "END:STANDARD",
        "END:VTIMEZONE"],
    "Europe/Berlin": [
        "BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "X-LIC-LOCATION:Europe/Berlin",
        "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "TZNAME:CEST",
        "DTSTART:19700329T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
        "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "TZNAME:CET",
        "DTSTART:19701025T030000", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
        "END:VTIMEZONE"],
    "Asia/Tokyo": [
        "BEGIN:VTIMEZONE", "TZID:Asia/Tokyo", "X-LIC-LOCATION:Asia/Tokyo",
        "BEGIN:STANDARD", "TZOFFSETFROM:+0900", "TZOFFSETTO:+0900", "TZNAME:JST",
        "DTSTART:19700101T000000", "END:STANDARD", "END:VTIMEZONE"],
}

SUMMARIES = [
    "Weekly sync", "1:1 with Jürgen", "Design review", "Lunch with Zoë", "Dentist",
    "Sprint planning", "Retro", "Café with Amélie", "Budget\\, Q3", "Flight to Zürich ✈️",
    "会議: 日本チーム", "Team dinner 🍣", "Customer call – ACME", "Interview: backend",
    "Standup", "Yoga", "Release go/no-go", "Board prep", "Hiring committee",
    "Naïve Bayes reading group", "Offsite planning 🎉", "Doctor's appointment",
    "Quarterly business review", "Pair programming", "東京オフィス訪問", "Piano lesson 🎹",
]
LOCATIONS = [
    "", "", "Room 4.12", "Zoom", "https://meet.example.com/abc-defg-hij",
    "Café Müller\\, Hauptstraße 5\\, 10115 Berlin", "東京都千代田区丸の内1-1",
    "Conference room \"Everest\"", "Home", "Microsoft Teams Meeting",
]
PEOPLE = [
    ("Jürgen Müller", "juergen.mueller@example.de"), ("Amélie Dubois", "amelie@example.fr"),
    ("田中 太郎", "tanaka@example.jp"), ("Zoë Brontë", "zoe@example.co.uk"),
    ("Sam Lee", "sam.lee@example.com"), ("María José García", "mjgarcia@example.es"),
    ("Ola Nordmann", "ola@example.no"), ("Priya Raman", "priya.raman@example.in"),
    ("Bench User", "me@example.com"), ("Chris O'Neil", "chris.oneil@example.ie"),
    ("Łukasz Żółć", "lukasz@example.pl"), ("Björk Guðmundsdóttir", "bjork@example.is"),
]
PARTSTATS = ["ACCEPTED", "ACCEPTED", "ACCEPTED", "TENTATIVE", "NEEDS-ACTION", "DECLINED"]
DESC_SENTENCES = [
    "Please review the attached document before the meeting.",
    "Agenda: status updates\\, blockers\\, next steps.",
    "Join Zoom Meeting https://zoom.example.com/j/8675309?pwd=Q2FsZW5kYXJCZW5jaG1hcms",
    "Meeting ID: 867 5309 Passcode: 424242",
    "Bitte pünktlich sein – wir haben nur eine Stunde.",
    "Les détails sont dans le document partagé.",
    "日本語の資料は共有フォルダにあります。",
    "Bring snacks 🍪 and good vibes ✨.",
    "Dial-in: +1 555-0100\\,\\,8675309#",
    "This event was created from an email you received in Gmail.",
    "Notes from last time:\\n- decided to ship on Friday\\n- follow up with legal",
    "Invitation from Google Calendar: https://calendar.example.com/calendar/",
    "You are receiving this email because you are an attendee of the event.",
]


def fold(line):
    """CRLF content line(s) of `line`, folded at 75 octets without splitting UTF-8."""
    b = line.encode()
    if len(b) <= 75:
        return b + b"\r\n"
    out, i, width = [], 0, 75
    while len(b) - i > width:
        j = i + width
        while b[j] & 0xC0 == 0x80:  # never cut inside a multi-byte character
            j -= 1
        out.append(b[i:j])
        i, width = j, 74  # a continuation line starts with one space
    out.append(b[i:])
    return b"\r\n ".join(out) + b"\r\n"


class Gen:
    def __init__(self, seed, rules="real"):
        self.r = random.Random(seed)
        r = self.r
        # Starts are drawn from DAYS days; an end may run a week past the last of them (an
        # all-day event of 7 days, a timed one over midnight), so the table reaches further.
        self.days = [(FIRST_DAY + timedelta(d)).strftime("%Y%m%d") for d in range(DAYS + 8)]
        self.hms = [f"{m // 60:02d}{m % 60:02d}00" for m in range(24 * 60)]
        # Pools of pre-folded lines: folding every line of 1M events would be the slow part.
        self.summaries = [fold("SUMMARY:" + s) for s in SUMMARIES]
        self.locations = [fold("LOCATION:" + s) if s else b"" for s in LOCATIONS]
        self.descs = []
        for _ in range(400):
            k = r.randint(1, 4)
            self.descs.append(fold("DESCRIPTION:" + "\\n".join(r.sample(DESC_SENTENCES, k))))
        self.organizers = [fold(f'ORGANIZER;CN="{n}":mailto:{a}') for n, a in PEOPLE]
        self.attendees = [[fold(f'ATTENDEE;CN="{n}";CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;'
                                f'PARTSTAT={p};RSVP=TRUE:mailto:{a}') for p in PARTSTATS]
                          for n, a in PEOPLE]
        self.masters = []  # (uid, zone, first 60 instances, how many may be overridden, exdates, length)
        self.rules = rules
        self.late = []     # overrides emitted at the end of the file
        self.serial = 0

    # -- pieces -------------------------------------------------------------------------
    def uid(self):
        self.serial += 1
        h = (self.serial * 0x9E3779B97F4A7C15 + self.r.getrandbits(32)) & (2**80 - 1)
        return f"{h:020x}{self.serial}@google.com"

    def dt(self, name, zone, d, minute):
        """`d` is a day index, `minute` minutes after local midnight."""
        if zone == "UTC":
            return f"{name}:{self.days[d]}T{self.hms[minute]}Z\r\n".encode()
        return f"{name};TZID={zone}:{self.days[d]}T{self.hms[minute]}\r\n".encode()

    def dtv(self, name, zone, when):
        if zone == "UTC":
            return f"{name}:{when:%Y%m%dT%H%M%S}Z\r\n".encode()
        return f"{name};TZID={zone}:{when:%Y%m%dT%H%M%S}\r\n".encode()

    def common(self, r, uid, created_day):
        c = self.days[created_day]
        m = self.days[min(DAYS - 1, created_day + r.randint(1, 9))]
        out = [b"BEGIN:VEVENT\r\n", f"UID:{uid}\r\nDTSTAMP:{DTSTAMP}\r\n"
               f"CREATED:{c}T{self.hms[r.randrange(1440)]}Z\r\n"
               f"LAST-MODIFIED:{m}T{self.hms[r.randrange(1440)]}Z\r\n".encode(),
               r.choice(self.summaries), r.choice(self.locations), r.choice(self.descs)]
        n = r.choice((0, 0, 0, 1, 2, 3))
        if n:
            out.append(r.choice(self.organizers))
            out.extend(r.choice(a) for a in r.sample(self.attendees, n))
        return out

    def status(self, r, out, transparent_p, cancelled_p=0.02):
        x = r.random()
        if x < cancelled_p:
            out.append(b"STATUS:CANCELLED\r\n")
        elif x < cancelled_p + 0.03:
            out.append(b"STATUS:TENTATIVE\r\n")
        else:
            out.append(b"STATUS:CONFIRMED\r\n")
        out.append(b"TRANSP:TRANSPARENT\r\n" if r.random() < transparent_p else b"TRANSP:OPAQUE\r\n")

    def start(self, r):
        zone = r.choices(ZONES, ZONE_WEIGHTS)[0]
        d = r.randrange(DAYS)
        # business hours mostly (never inside a DST gap: 02:00-03:00 local is avoided)
        minute = (r.randint(7 * 4, 19 * 4) if r.random() < 0.9 else r.randint(4 * 4, 23 * 4)) * 15
        return zone, d, minute

    # -- events -------------------------------------------------------------------------
    def timed(self, r):
        zone, d, minute = self.start(r)
        out = self.common(r, self.uid(), max(0, d - r.randint(1, 60)))
        out.append(self.dt("DTSTART", zone, d, minute))
        length = r.choice((15, 30, 30, 45, 60, 60, 60, 90, 120, 180))
        if r.random() < 0.05:
            out.append(f"DURATION:PT{length // 60}H{length % 60}M\r\n".encode()
                       if length % 60 else f"DURATION:PT{length // 60}H\r\n".encode())
        else:
            end = minute + length
            out.append(self.dt("DTEND", zone, d + end // 1440, end % 1440))
        out.append(f"SEQUENCE:{r.choice((0, 0, 0, 1, 2))}\r\n".encode())
        self.status(r, out, 0.05)
        out.append(b"END:VEVENT\r\n")
        return out

    def all_day(self, r):
        d = r.randrange(DAYS - 7)
        out = self.common(r, self.uid(), max(0, d - r.randint(1, 90)))
        out.append(f"DTSTART;VALUE=DATE:{self.days[d]}\r\n".encode())
        out.append(f"DTEND;VALUE=DATE:{self.days[d + r.choice((1, 1, 1, 2, 3, 7))]}\r\n".encode())
        out.append(b"SEQUENCE:0\r\n")
        self.status(r, out, 0.7)
        out.append(b"END:VEVENT\r\n")
        return out

    @staticmethod
    def instance(start, freq, interval, k):
        if freq == "DAILY":
            return start + timedelta(days=k * interval)
        if freq == "WEEKLY":
            return start + timedelta(weeks=k * interval)
        m = start.month - 1 + k * interval  # MONTHLY: start day is <= 28
        return start.replace(year=start.year + m // 12, month=m % 12 + 1)

    def recurring(self, r):
        # With --rules real, half the masters take a shape clients write with BY parts.
        if self.rules == "real" and r.random() < 0.5:
            zone, d, minute = self.start(r)
            day = FIRST_DAY + timedelta(d)
            freq, by, start, interval, starts = rule_shapes.pick(r, datetime(day.year, day.month, day.day, minute // 60, minute % 60))
            return self.master(r, zone, d, start, freq, interval, ";" + by, list(itertools.islice(starts, 151)))
        zone, d, minute = self.start(r)
        freq = r.choices(("DAILY", "WEEKLY", "MONTHLY"), (2, 6, 2))[0]
        day = FIRST_DAY + timedelta(d)
        if freq == "MONTHLY" and day.day > 28:
            day = day.replace(day=r.randint(1, 28))
        start = datetime(day.year, day.month, day.day, minute // 60, minute % 60)
        interval = r.choice((1, 1, 1, 2)) if freq != "DAILY" else 1
        return self.master(r, zone, d, start, freq, interval, "", [self.instance(start, freq, interval, k) for k in range(151)])

    def master(self, r, zone, d, start, freq, interval, by, starts):
        """A recurring master drawn on day `d`: `starts` are its rule's first 151 instances."""
        uid = self.uid()
        out = self.common(r, uid, max(0, d - r.randint(1, 30)))
        out.append(self.dtv("DTSTART", zone, start))
        length = r.choice((15, 30, 30, 60, 60))
        out.append(self.dtv("DTEND", zone, start + timedelta(minutes=length)))
        kind = r.random()
        rule = f"RRULE:FREQ={freq}"
        if interval > 1:
            rule += f";INTERVAL={interval}"
        if freq == "WEEKLY" and r.random() < 0.3:
            rule += ";WKST=MO"
        rule += by
        if kind < 0.4:
            count = r.choice((5, 10, 20, 52, 100)) if freq != "DAILY" else r.choice((5, 10, 30))
            rule += f";COUNT={count}"
            last = count
        elif kind < 0.75:
            last = r.choice((8, 20, 60, 150))
            # a day late, so that instance last-1 is in, whatever the zone's offset
            until = starts[last - 1] + timedelta(days=1)
            rule += f";UNTIL={until:%Y%m%d}T235959Z"
        else:
            last = 500  # open-ended: only early instances get EXDATEs / overrides
        out.append((rule + "\r\n").encode())
        exdates = set()
        if r.random() < 0.4:
            exdates = set(r.sample(range(1, min(last, 60)), min(r.randint(1, 3), min(last, 60) - 1)))
            zone_part = "" if zone == "UTC" else f";TZID={zone}"
            z = "Z" if zone == "UTC" else ""
            vals = ",".join(f"{starts[k]:%Y%m%dT%H%M%S}{z}" for k in sorted(exdates))
            out.append(fold(f"EXDATE{zone_part}:{vals}"))
        out.append(b"SEQUENCE:0\r\n")
        self.status(r, out, 0.03, 0.01)
        out.append(b"END:VEVENT\r\n")
        self.masters.append([uid, zone, starts[:60], min(last, 60), exdates, length])
        return out

    def override(self, r):
        uid, zone, starts, last, exdates, length = r.choice(self.masters)
        ks = [k for k in range(1, last) if k not in exdates]
        if not ks:
            return None
        k = r.choice(ks)
        exdates.add(k)  # never two overrides of the same instance
        orig = starts[k]
        new = orig + timedelta(minutes=r.choice((-60, 30, 60, 120, 24 * 60)))
        out = self.common(r, uid, min(DAYS - 1, (orig.date() - FIRST_DAY).days))
        out.append(self.dtv("RECURRENCE-ID", zone, orig))
        out.append(self.dtv("DTSTART", zone, new))
        out.append(self.dtv("DTEND", zone, new + timedelta(minutes=length)))
        out.append(b"SEQUENCE:1\r\n")
        self.status(r, out, 0.03, 0.15)
        out.append(b"END:VEVENT\r\n")
        return out


HEAD = (b"BEGIN:VCALENDAR\r\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\r\n"
        b"VERSION:2.0\r\nCALSCALE:GREGORIAN\r\nMETHOD:PUBLISH\r\n")
ZONE_BYTES = {z: ("\r\n".join(v) + "\r\n").encode() for z, v in VTIMEZONES.items()}


class VdirSink:
    """Collects events by UID; `close` writes one UID.ics per UID, in first-seen order."""
    def __init__(self, path):
        os.mkdir(path)
        self.path, self.files = path, {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if exc[0] is None:
            self.close()

    def write(self, event):
        uid = event[event.index(b"UID:") + 4:event.index(b"\r\n", event.index(b"UID:"))]
        self.files.setdefault(uid.decode(), []).append(event)

    def close(self):
        for uid, events in self.files.items():
            body = b"".join(events)
            zones = b"".join(z for name, z in ZONE_BYTES.items() if b"TZID=" + name.encode() in body)
            with open(os.path.join(self.path, uid + ".ics"), "wb") as f:
                f.write(HEAD + zones + body + b"END:VCALENDAR\r\n")


def generate(n, seed, path, vdir=None, rules="real"):
    g = Gen(seed, rules)
    r = g.r
    with (VdirSink(vdir) if vdir else open(path, "wb", buffering=1 << 20)) as f:
        if not vdir:
            f.write(HEAD + fold("X-WR-CALNAME:Bench calendar – coolcal 📅") + b"".join(ZONE_BYTES.values()))
        for _ in range(n):
            x = r.random()
            ev = g.override(r) if x < 0.01 and g.masters else None
            if ev is not None:
                if r.random() < 0.5:
                    g.late.append(ev)
                    continue
            elif 0.01 <= x < 0.09:
                ev = g.recurring(r)
            elif 0.09 <= x < 0.14:
                ev = g.all_day(r)
            else:
                ev = g.timed(r)
            f.write(b"".join(ev))
        for ev in g.late:
            f.write(b"".join(ev))
        if not vdir:
            f.write(b"END:VCALENDAR\r\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--events", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", choices=("real", "simple"), default="real",
                    help="real: half the recurring events with the BY-part rules clients write "
                         "(rule_shapes.py); simple: only plain DAILY/WEEKLY/MONTHLY (the earlier mix)")
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--out", help="one calendar file")
    where.add_argument("--vdir", help="a new directory: one .ics per UID")
    a = ap.parse_args()
    t = time.perf_counter()
    generate(a.events, a.seed, a.out, a.vdir, a.rules)
    print(f"gen_calendar: {a.events} events -> {a.out or a.vdir} in {time.perf_counter() - t:.1f} s",
          file=sys.stderr)


if __name__ == "__main__":
    main()
