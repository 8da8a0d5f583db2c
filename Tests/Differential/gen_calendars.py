"""Seeded generator of RFC 5545 calendars and query windows for the coolcal differential test.

    gen_calendars.py --seed N --out DIR [--events K] [--windows W]

Writes DIR/{work,travel,holidays,dst,range,tzdefs,revisions,exchange,xwr}.ics, a vdir DIR/personal/ (one .ics per UID)
and DIR/windows.json (a list of {"start","end"} UTC windows).  CRLF, folded at 75 octets, IANA
TZIDs without VTIMEZONE, except tzdefs.ics which defines custom TZIDs with VTIMEZONE blocks.
"""
import argparse, json, math, os, random, re
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo
from dateutil.rrule import rrulestr

UTC = timezone.utc
DST_ZONES = ["America/New_York", "Europe/Berlin", "Australia/Sydney"]
START, END = datetime(2024, 1, 1), datetime(2026, 1, 1)  # span the windows cover
VTZ = {  # custom TZID -> (IANA equivalent, [(kind, DTSTART, BYMONTH..., from, to)]), rules valid 2008..
    "Custom/Eastern": ("America/New_York", [("DAYLIGHT", "20070311T020000", "3;BYDAY=2SU", "-0500", "-0400"),
                                            ("STANDARD", "20071104T020000", "11;BYDAY=1SU", "-0400", "-0500")]),
    "Custom/Berlin": ("Europe/Berlin", [("DAYLIGHT", "19810329T020000", "3;BYDAY=-1SU", "+0100", "+0200"),
                                        ("STANDARD", "19961027T030000", "10;BYDAY=-1SU", "+0200", "+0100")]),
    "Custom/Sydney": ("Australia/Sydney", [("STANDARD", "20080406T030000", "4;BYDAY=1SU", "+1100", "+1000"),
                                           ("DAYLIGHT", "20081005T020000", "10;BYDAY=1SU", "+1000", "+1100")])}
WORDS = ["Standup", "Review", "Lunch", "Sync", "Yoga", "Dentist", "Planning", "Retro", "1:1",
         "Café", "Zürich trip", "会議", "Demo 🎉", "Budget, Q3", "A;B test", "Release\\notes"]


def instant(wall, form):
    """UTC instant of a wall time in `form` (tz:IANA, vtz:custom, utc, float = New York here, date)."""
    kind, _, name = form.partition(":")
    zone = ZoneInfo(name if kind == "tz" else VTZ[name][0] if kind == "vtz" else
                    "America/New_York" if kind == "float" else "UTC")
    return wall.replace(tzinfo=zone).astimezone(UTC)


def prop(name, wall, form, extra=""):
    """Content line for a DATE / DATE-TIME value of `wall` in `form`."""
    if form == "date":
        return f"{name}{extra};VALUE=DATE:{wall:%Y%m%d}"
    tzid = f";TZID={form.split(':', 1)[1]}" if ":" in form else ""
    return f"{name}{extra}{tzid}:{wall:%Y%m%dT%H%M%S}" + ("Z" if form == "utc" else "")


def dur_text(td):
    if td.days and td.days % 7 == 0 and not td.seconds:
        return f"P{td.days // 7}W"
    h, m = divmod(td.seconds // 60, 60)
    t = ("T" + (f"{h}H" if h else "") + (f"{m}M" if m else "")) if td.seconds else ""
    return f"P{td.days}D{t}" if td.days else f"P{t}"


def text(s):
    return s.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def fold(line):
    out, cur, size = [], "", 0
    for ch in line:
        n = len(ch.encode())
        if size + n > (75 if not out else 74):
            out.append(cur)
            cur, size = "", 0
        cur, size = cur + ch, size + n
    out.append(cur)
    return "\r\n ".join(out) + "\r\n"


class Gen:
    def __init__(self, seed):
        self.r, self.n = random.Random(seed), 0

    def summary(self):
        r = self.r
        s = " ".join(r.choice(WORDS) for _ in range(r.choice([1, 1, 2, 3])))
        return s + (" — " + "long description " * r.randint(3, 6)).rstrip() if r.random() < .1 else s

    def duration(self, form):
        """('dtend'|'duration'|'none', timedelta)."""
        r = self.r
        kind = r.choices(["dtend", "duration", "none"], [45, 35, 20])[0]
        if form == "date":
            return kind, timedelta(days=r.choice([1, 1, 2, 3, 7]))
        return kind, timedelta(minutes=r.choice([15, 30, 45, 60, 90, 120, 180, 240, 480, 1500, 2880]))

    def end_lines(self, start, form, kind, td):
        if kind != "dtend":
            return [f"DURATION:{dur_text(td)}"] if kind == "duration" else []
        end = start + td
        if form != "date":  # keep the exact (absolute) duration positive, e.g. around skipped hours
            while instant(end, form) <= instant(start, form) or (
                    form == "float" and any(end.replace(tzinfo=ZoneInfo(z)).astimezone(UTC) <=
                                            start.replace(tzinfo=ZoneInfo(z)).astimezone(UTC) for z in DST_ZONES)):
                end += timedelta(hours=1)
        return [prop("DTEND", end, form)]

    def rule(self, start, form, dst=False):
        r = self.r
        freq = "DAILY" if dst and r.random() < .7 else r.choices(
            ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"], [30, 35, 22, 13])[0]
        parts = [f"FREQ={freq}"]
        if r.random() < .3:
            parts.append(f"INTERVAL={r.choice([2, 3])}")
        days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        if freq == "WEEKLY" and r.random() < .5:
            by = {days[start.weekday()]} | set(r.sample(days, r.randint(0, 2)))
            parts.append("BYDAY=" + ",".join(d for d in days if d in by))
        elif freq in ("MONTHLY", "YEARLY") and r.random() < .5:
            nth = (start.day - 1) // 7 + 1
            if (start + timedelta(days=7)).month != start.month and r.random() < .5:
                nth = -1
            if freq == "YEARLY":
                parts.append(f"BYMONTH={start.month}")
            if freq == "MONTHLY" and r.random() < .4:
                last = (start + timedelta(days=1)).month != start.month
                parts.append("BYMONTHDAY=-1" if last and r.random() < .5 else
                             f"BYMONTHDAY={start.day}" + (",%d" % r.randint(1, 28) if r.random() < .5 else ""))
            else:
                parts.append(f"BYDAY={nth}{days[start.weekday()]}")
        cand = [d.replace(tzinfo=None) for d in
                rrulestr(";".join(parts), dtstart=start).xafter(start - timedelta(seconds=1), 60, inc=True)]
        bound = r.choices(["count", "until", "none"], [40, 30, 30 if freq != "DAILY" else 8])[0]
        if bound == "count":
            k = r.randint(2, 40)
            parts.append(f"COUNT={k}")
            cand = cand[:k]
        elif bound == "until":
            k = r.randint(1, min(40, len(cand) - 1))
            u = cand[k] + r.choice([timedelta(0), timedelta(hours=1), -timedelta(minutes=1)])
            cand = [c for c in cand if instant(c, form) <= instant(u, form)] if form != "date" else \
                [c for c in cand if c <= u]
            parts.append("UNTIL=" + (f"{u:%Y%m%d}" if form == "date" else f"{u:%Y%m%dT%H%M%S}" if form == "float"
                                     else f"{instant(u, form):%Y%m%dT%H%M%SZ}"))
        return ";".join(parts), cand

    def series(self, uid, form, start, dst=False, future=False, recurring=None):
        """VEVENT blocks (master + overrides) of one UID, each a list of content lines."""
        r = self.r
        kind, td = self.duration(form)
        if dst and form != "date" and r.random() < .6:
            kind = r.choice(["dtend", "duration"])
            td = timedelta(minutes=r.choice([60, 90, 120, 180, 1440, 1500]))
        base = [f"UID:{uid}", "DTSTAMP:20240101T000000Z"]
        master = base + [prop("DTSTART", start, form)] + self.end_lines(start, form, kind, td)
        master += ["SUMMARY:" + text(self.summary())] + ["TRANSP:TRANSPARENT"] * (r.random() < .15)
        st = r.choices([None, "CONFIRMED", "TENTATIVE", "CANCELLED"], [50, 30, 12, 8])[0]
        master += [f"STATUS:{st}"] * bool(st)
        recurring = r.random() < .75 if recurring is None else recurring
        cand = [start]
        if recurring:
            rule, cand = self.rule(start, form, dst)
            master.append("RRULE:" + rule)
        blocks, ex = [master], []
        if len(cand) > 2 and r.random() < .3:  # EXDATEs (never all instances)
            ex = r.sample(cand[1:], min(len(cand) - 2, r.randint(1, 3)))
            cand = [c for c in cand if c not in ex]
            for e in ex:
                f = "utc" if form.startswith("tz:") and r.random() < .3 else form
                master.append(prop("EXDATE", e if f == form else instant(e, form).replace(tzinfo=None), f))
        if r.random() < (.25 if recurring else .1):  # RDATEs, off the quarter hour so never on an instance
            for days in sorted(set(r.randint(1, 90) for _ in range(r.randint(1, 3)))):  # distinct instants
                w = start + timedelta(days=days, minutes=0 if form == "date" else 7)
                f = form if form in ("date", "float") or r.random() < .5 else "utc"
                v = w if f == form else instant(w, form).replace(tzinfo=None)
                if form != "date" and not future and r.random() < .4:
                    e = (v + timedelta(minutes=r.choice([30, 150])))
                    ev = f"{e:%Y%m%dT%H%M%S}" + ("Z" if f == "utc" else "") if r.random() < .5 else \
                        dur_text(timedelta(minutes=r.choice([20, 95])))
                    master.append(prop("RDATE", v, f, ";VALUE=PERIOD") + "/" + ev)
                else:
                    master.append(prop("RDATE", v, f))
                if w not in cand and w not in ex:
                    cand.append(w)
        if recurring and len(cand) > 1 and r.random() < (1 if future else .3):
            for inst in r.sample(cand, 1 if future else min(len(cand), r.randint(1, 2))):
                blocks.append(self.override(base, inst, form, future))
        return blocks

    def override(self, base, inst, form, future):
        r = self.r
        shift = timedelta(days=r.choice([0, 1, -1, 2, 20])) if form == "date" else r.choice(  # far: out of window
            [timedelta(0), timedelta(hours=r.choice([1, -2, 5])), timedelta(days=r.choice([1, -1, 3])),
             timedelta(days=r.randint(10, 35))])
        rf = "utc" if form.startswith("tz:") and r.random() < .25 else form
        rid = inst if rf == form else instant(inst, form).replace(tzinfo=None)
        lines = base + [prop("RECURRENCE-ID", rid, rf, ";RANGE=THISANDFUTURE" if future else ""),
                        prop("DTSTART", inst + shift, form)]
        kind, td = self.duration(form)
        lines += self.end_lines(inst + shift, form, kind, td)
        lines.append("SUMMARY:" + text(self.summary() + " (moved)"))
        lines += ["STATUS:CANCELLED"] * (r.random() < .25 and not future)  # a cancelled instance
        return lines + ["TRANSP:TRANSPARENT"] * (r.random() < .2)

    def revisions(self, uid, form, start):
        """A series and 1-2 later revisions of its master (SEQUENCE 1, 2: moved, retitled), in any
        order in the file; and, for a recurring one, an override revised once (same RECURRENCE-ID)."""
        r = self.r
        blocks = self.series(uid, form, start)
        master = blocks[0]
        revs = [master]
        for seq in range(1, r.randint(2, 3)):
            move = timedelta(days=r.choice([0, 1, 7, 40, -3])) + (timedelta(0) if form == "date" else
                                                                    timedelta(hours=r.choice([0, 1, -2])))
            rev = []
            for line in master:
                name = line.split(":", 1)[0].split(";", 1)[0]
                if name in ("DTSTART", "DTEND") and not line.startswith(("DTSTART;VALUE=PERIOD",)):
                    value = line.rsplit(":", 1)[1]
                    fmt = "%Y%m%d" if len(value) == 8 else "%Y%m%dT%H%M%SZ" if value.endswith("Z") else "%Y%m%dT%H%M%S"
                    value = (datetime.strptime(value, fmt) + move).strftime(fmt)
                    line = line.rsplit(":", 1)[0] + ":" + value
                elif name == "SUMMARY":
                    line += f" (rev {seq})"
                elif name == "EXDATE":  # dropped: a moved one could hit the reference quirk in known_differences.py
                    continue
                rev.append(line)
            revs.append(rev + [f"SEQUENCE:{seq}"])
        r.shuffle(revs)
        overrides = blocks[1:]
        if overrides and not any("RANGE=" in line for line in overrides[0]):
            again = [line + " (rev 1)" if line.startswith("SUMMARY:") else line for line in overrides[0]]
            overrides.append(again + ["SEQUENCE:1"])
        return revs + overrides

    def exchange(self, uid, start):
        """An all-day weekly series whose overrides name their instance by a UTC midnight."""
        r = self.r
        base = [f"UID:{uid}", "DTSTAMP:20240101T000000Z"]
        count = r.randint(3, 20)
        master = base + [prop("DTSTART", start, "date"), prop("DTEND", start + timedelta(days=1), "date"),
                         f"RRULE:FREQ=WEEKLY;COUNT={count}", "SUMMARY:" + text(self.summary())]
        blocks = [master]
        for k in sorted(r.sample(range(count), min(count, r.randint(1, 2)))):
            inst = start + timedelta(weeks=k)
            moved = inst + timedelta(days=r.choice([0, 1, 2, -1]))
            blocks.append(base + [f"RECURRENCE-ID:{inst:%Y%m%d}T000000Z", prop("DTSTART", moved, "date"),
                                  prop("DTEND", moved + timedelta(days=1), "date"), "SUMMARY:Moved " + text(self.summary())])
        return blocks

    def start(self, form):
        r = self.r
        d = START - timedelta(days=90) + timedelta(days=r.randint(0, (END - START).days + 60))
        return d if form == "date" else d + timedelta(minutes=15 * r.randint(0, 95))

    def dst_start(self, zone):
        """A wall time in, just before, or around a DST transition of `zone` (gap or fold)."""
        r = self.r
        t, before, after = r.choice(transitions(zone))
        lo = (t + min(before, after)).replace(tzinfo=None)  # first wall time of the gap / fold
        steps = abs(after - before) // timedelta(minutes=15)
        wall = lo + timedelta(minutes=15 * (r.randrange(steps) if r.random() < .5 else r.randint(-12, 8)))
        return wall - timedelta(days=r.choice([0, 0, 1, 3, 7, 14]))

    def uid(self, tag):
        self.n += 1
        return f"{tag}-{self.n:05d}@coolcal.test"


def transitions(zone, lo=datetime(2023, 10, 1, tzinfo=UTC), hi=datetime(2026, 1, 1, tzinfo=UTC)):
    z, out, t = ZoneInfo(zone), [], lo
    prev = t.astimezone(z).utcoffset()
    while t < hi:
        off = (t + timedelta(days=1)).astimezone(z).utcoffset()
        if off != prev:
            s = t
            while s.astimezone(z).utcoffset() == prev:
                s += timedelta(minutes=15)
            out.append((s, prev, off))
            prev = off
        t += timedelta(days=1)
    return out


XWR_HEAD = "X-WR-CALNAME:Family\r\nX-WR-TIMEZONE:America/Chicago\r\n"


def vcalendar(blocks, vtimezones=""):
    body = "".join("BEGIN:VEVENT\r\n" + "".join(fold(line) for line in b) + "END:VEVENT\r\n" for b in blocks)
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//coolcal//differential//EN\r\n"
            + vtimezones + body + "END:VCALENDAR\r\n")


def vtimezone_blocks():
    return "".join(f"BEGIN:VTIMEZONE\r\nTZID:{tzid}\r\n" + "".join(
        f"BEGIN:{kind}\r\nDTSTART:{dt}\r\nRRULE:FREQ=YEARLY;BYMONTH={rule}\r\nTZOFFSETFROM:{frm}\r\n"
        f"TZOFFSETTO:{to}\r\nEND:{kind}\r\n" for kind, dt, rule, frm, to in parts) + "END:VTIMEZONE\r\n"
        for tzid, (_, parts) in VTZ.items())


def write(path, text):
    with open(path, "w", newline="", encoding="utf-8") as f:
        f.write(text)


def windows(r, n):
    trans = [t for z in DST_ZONES for t, _, _ in transitions(z) if START.replace(tzinfo=UTC) <= t < END.replace(tzinfo=UTC)]
    out = []
    for i in range(n):
        length = timedelta(minutes=15 * max(4, round(math.exp(r.uniform(math.log(3600), math.log(40 * 86400))) / 900)))
        if i % 4 == 0:  # around a DST transition
            s, length = r.choice(trans) - timedelta(minutes=15 * r.randint(0, 96)), min(length, timedelta(days=3))
        elif i % 4 == 1:  # a local day or week, as a UI would ask
            z = ZoneInfo(r.choice(DST_ZONES + ["Asia/Kolkata"]))
            d = START + timedelta(days=r.randint(0, (END - START).days - 8))
            s = d.replace(tzinfo=z).astimezone(UTC)
            length = (d + timedelta(days=r.choice([1, 7]))).replace(tzinfo=z).astimezone(UTC) - s
        else:
            span = (END - START - length).total_seconds() // 900
            s = START.replace(tzinfo=UTC) + timedelta(minutes=15 * r.randint(0, int(span)))
        out.append({"start": f"{s:%Y-%m-%dT%H:%M:%SZ}", "end": f"{s + length:%Y-%m-%dT%H:%M:%SZ}"})
    return out


def generate(seed, out, events=2000, n_windows=200):
    g = Gen(seed)
    os.makedirs(os.path.join(out, "personal"), exist_ok=True)
    r = g.r
    plan = {  # file -> (share of events, forms)
        "work.ics": (.30, ["tz:America/New_York", "tz:Europe/Berlin", "utc", "tz:UTC"]),
        "travel.ics": (.15, ["tz:Australia/Sydney", "tz:Asia/Kolkata", "float"]),
        "holidays.ics": (.15, ["date"]),
        "tzdefs.ics": (.05, ["vtz:" + k for k in VTZ]),
        "personal": (.15, ["tz:Europe/Berlin", "tz:America/New_York", "float", "date", "utc"]),
    }
    files = {}
    for name, (share, forms) in plan.items():
        files[name] = [g.series(g.uid(name.split(".")[0]), f, g.start(f))
                       for f in (r.choice(forms) for _ in range(max(1, int(events * share))))]
    for _ in range(max(1, int(events * .04))):  # VTIMEZONE-defined zones around their transitions
        tzid = r.choice(list(VTZ))
        files["tzdefs.ics"].append(g.series(g.uid("tzdefs"), "vtz:" + tzid, g.dst_start(VTZ[tzid][0]), dst=True))
    files["dst.ics"] = []
    for z in (r.choice(DST_ZONES) for _ in range(max(1, int(events * .18)))):  # around DST transitions
        form = r.choice([f"tz:{z}"] * 5 + ["float", "utc"])
        files["dst.ics"].append(g.series(g.uid("dst"), form, g.dst_start(z), dst=True, recurring=r.random() < .8))
    files["range.ics"] = []  # RANGE=THISANDFUTURE, half of them shifting instances across a DST change
    forms = ["tz:Europe/Berlin", "tz:America/New_York", "utc", "date"]
    for f in (r.choice(forms) for _ in range(max(1, events // 80))):
        near = f.startswith("tz:") and r.random() < .6
        files["range.ics"].append(g.series(g.uid("range"), f, g.dst_start(f[3:]) if near else g.start(f),
                                           dst=near, future=True, recurring=True))
    files["revisions.ics"] = []  # an event edited and exported again (Confluence): same UID, rising SEQUENCE
    for f in (r.choice(["tz:Europe/Berlin", "utc", "date", "float"]) for _ in range(max(1, int(events * .04)))):
        files["revisions.ics"].append(g.revisions(g.uid("revisions"), f, g.start(f)))
    files["exchange.ics"] = []  # Exchange: all-day series, overrides with RECURRENCE-ID:YYYYMMDDT000000Z
    for _ in range(max(1, int(events * .02))):
        files["exchange.ics"].append(g.exchange(g.uid("exchange"), g.start("date")))
    files["xwr.ics"] = []  # Google/Apple: floating times read in X-WR-TIMEZONE (no UTC values: see
    for f in (r.choice(["float"] * 4 + ["tz:Europe/Berlin", "date"]) for _ in range(max(1, int(events * .05)))):
        files["xwr.ics"].append(g.series(g.uid("xwr"), f, g.start(f)))  # known_differences.py)
    for name, series in files.items():
        if name == "personal":  # vdir: one calendar file per UID
            for s in series:
                write(os.path.join(out, name, s[0][0][4:].split("@")[0] + ".ics"), vcalendar(s))
        else:
            head = vtimezone_blocks() if name == "tzdefs.ics" else XWR_HEAD if name == "xwr.ics" else ""
            if name == "xwr.ics":  # Google writes UNTIL in UTC (a floating one: known_differences.py)
                series = [[[re.sub(r"UNTIL=(\d{8}T\d{6})(?=;|$)", lambda m: "UNTIL=" + instant(
                    datetime.strptime(m[1], "%Y%m%dT%H%M%S"), "tz:America/Chicago").strftime("%Y%m%dT%H%M%SZ"), line)
                    for line in b] for b in s] for s in series]
            write(os.path.join(out, name), vcalendar([b for s in series for b in s], head))
    wins = windows(random.Random(seed * 7919 + 1), n_windows)
    write(os.path.join(out, "windows.json"), json.dumps(wins, indent=0))
    vevents = sum(len(s) for series in files.values() for s in series)
    return sorted(os.path.join(out, name) for name in files), wins, vevents


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--events", type=int, default=2000)
    ap.add_argument("--windows", type=int, default=200)
    a = ap.parse_args()
    cals, wins, n = generate(a.seed, a.out, a.events, a.windows)
    print(json.dumps({"calendars": cals, "vevents": n, "windows": len(wins)}))


if __name__ == "__main__":
    main()
