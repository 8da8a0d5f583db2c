"""Recurrence rules with BY parts, as calendar clients write them, for gen_calendar.py.

Each shape is what a client's recurrence menu writes (named per shape below); the weights
among them are an estimate, not a count: the issue that asked for them (#30) counted rules
with BY parts about as common as rules without in 379 public test calendars and the 125
real e-mails of ../shared/corpora/mail-real (whose 11 event rules are 7
`FREQ=WEEKLY;BYDAY=<one day>`, Google's plain weekly meeting, and 4 `FREQ=DAILY`), so
gen_calendar.py gives half its recurring events one of these shapes and half the plain
DAILY/WEEKLY/MONTHLY rules it always had; within this half, the weekly rule Google writes
for every weekly event is the largest share. Every DTSTART is an instance of its rule, as
clients write them, and `instances` lists them in order, so EXDATEs, overrides and UNTIL
fall on real instances.
"""
from calendar import monthrange
from datetime import timedelta

WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

# (shape, weight): who writes it.
SHAPES = [
    ("weekly-one-day", 40),        # Google/Outlook "weekly on Tuesday": FREQ=WEEKLY;BYDAY=TU
    ("weekly-days", 12),           # "Mon, Wed, Fri": FREQ=WEEKLY;BYDAY=MO,WE,FR (Outlook: MO,TU,WE,TH,FR)
    ("weekdays", 12),              # Google "every weekday": FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR
    ("monthly-nth", 14),           # Google/Outlook "second Tuesday", "last Friday": FREQ=MONTHLY;BYDAY=2TU
    ("monthly-day", 10),           # Apple monthly: FREQ=MONTHLY;BYMONTHDAY=15
    ("monthly-last-weekday", 3),   # Outlook "last weekday": BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1
    ("yearly-day", 6),             # Apple yearly: FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=12
    ("yearly-nth", 3),             # Outlook "fourth Thursday of November": FREQ=YEARLY;BYMONTH=11;BYDAY=4TH
]
DAY_SETS = [(0, 2, 4), (1, 3), (0, 1, 2, 3, 4), (0, 3)]


def nth_weekday(year, month, weekday, n):
    """The n-th (1..4, or -1: last) `weekday` (0 = Monday) of a month, as a day number."""
    first, days = monthrange(year, month)
    if n > 0:
        return 1 + (weekday - first) % 7 + 7 * (n - 1)
    last = (first + days - 1) % 7
    return days - (last - weekday) % 7


def last_weekday(year, month):
    first, days = monthrange(year, month)
    last = (first + days - 1) % 7
    return days - max(0, last - 4)


def add_months(year, month, k):
    m = month - 1 + k
    return year + m // 12, m % 12 + 1


def pick(r, start):
    """A shape for a master starting near `start` (a datetime): (FREQ, BY text, DTSTART,
    interval, instances) where `instances` is a generator of the rule's starts."""
    shape = r.choices([s for s, _ in SHAPES], [w for _, w in SHAPES])[0]
    at = lambda d: start.replace(year=d.year, month=d.month, day=d.day)
    if shape == "weekly-one-day":
        interval = r.choice((1, 1, 1, 2))
        return "WEEKLY", f"BYDAY={WEEKDAYS[start.weekday()]}", start, interval, weekly(start, {start.weekday()}, interval)
    if shape in ("weekly-days", "weekdays"):
        days = set(range(5)) if shape == "weekdays" else set(r.choice(DAY_SETS))
        while start.weekday() not in days:
            start += timedelta(days=1)
        by = "BYDAY=" + ",".join(WEEKDAYS[d] for d in sorted(days))
        if shape == "weekdays":
            return "DAILY", by, start, 1, weekly(start, days, 1)
        interval = r.choice((1, 1, 2))
        return "WEEKLY", by, start, interval, weekly(start, days, interval)
    if shape in ("monthly-nth", "yearly-nth"):
        n = r.choice((1, 2, 3, 4, -1))
        wd = start.weekday()
        yearly = shape == "yearly-nth"
        step = 12 if yearly else r.choice((1, 1, 1, 3))
        day = lambda y, m: nth_weekday(y, m, wd, n)
        first = start.replace(day=day(start.year, start.month))
        by = (f"BYMONTH={start.month};" if yearly else "") + f"BYDAY={n}{WEEKDAYS[wd]}"
        return ("YEARLY" if yearly else "MONTHLY"), by, first, step // 12 if yearly else step, monthly(first, step, day)
    if shape in ("monthly-day", "yearly-day"):
        yearly = shape == "yearly-day"
        first = start.replace(day=min(start.day, 28))
        step = 12 if yearly else r.choice((1, 1, 2))
        by = (f"BYMONTH={first.month};" if yearly else "") + f"BYMONTHDAY={first.day}"
        return ("YEARLY" if yearly else "MONTHLY"), by, first, 1 if yearly else step, monthly(first, step, lambda y, m: first.day)
    # monthly-last-weekday
    first = start.replace(day=last_weekday(start.year, start.month))
    return "MONTHLY", "BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", first, 1, monthly(first, 1, last_weekday)


def weekly(start, days, interval):
    """Starts on `days` (0 = Monday) of every `interval`-th week (weeks from Monday)."""
    monday = start - timedelta(days=start.weekday())
    week = 0
    while True:
        for d in sorted(days):
            t = monday + timedelta(days=7 * week + d)
            if t >= start:
                yield t
        week += interval


def monthly(start, step, day):
    """Starts on `day(year, month)` of every `step`-th month from `start`'s."""
    k = 0
    while True:
        y, m = add_months(start.year, start.month, k)
        yield start.replace(year=y, month=m, day=day(y, m))
        k += step
