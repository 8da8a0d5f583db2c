"""The `coolcal process` rows of bench/run.py (issue #32): a mail server's view of it.
For an empty calendar and the 100k-event one: each of N invitations delivered alone, one
after another (per-message wall time, median and p95, from `run`'s GNU time), then N
more delivered 8 at a time (messages per second over the whole burst, as an MTA with 8
delivery processes sees it). Each batch writes into a fresh copy of the calendar. Wall
times are the client's (fork, exec and wait included)."""
import os, shutil, statistics, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor
from benchlib import OUT

EMPTY = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nEND:VCALENDAR\r\n"


def message(i, tag):
    day = f"2031{1 + i % 12:02d}{1 + i % 28:02d}"
    ics = (f"BEGIN:VCALENDAR\r\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\r\nVERSION:2.0\r\nMETHOD:REQUEST\r\n"
           f"BEGIN:VEVENT\r\nUID:process-{tag}-{i}@google.com\r\nDTSTAMP:20261201T090000Z\r\n"
           f"DTSTART:{day}T{8 + i % 9:02d}0000Z\r\nDTEND:{day}T{9 + i % 9:02d}0000Z\r\nSUMMARY:Invitation {i}\r\n"
           f"ORGANIZER:mailto:p{i}@example.org\r\nATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:me@example.org\r\n"
           f"END:VEVENT\r\nEND:VCALENDAR\r\n")
    return (f"From: Person {i} <p{i}@example.org>\r\nTo: me@example.org\r\nSubject: Invitation {i}\r\n"
            f"Message-ID: <process-{tag}-{i}@example.org>\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: text/calendar; method=REQUEST; charset=UTF-8\r\n\r\n{ics}")


def batch(coolcal, calendar, n, tag, env):
    """A fresh work directory: the calendar copied, the state empty, n messages."""
    work = os.path.join(OUT, f"process-{tag}")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    cal = os.path.join(work, "cal.ics")
    if calendar:
        shutil.copyfile(calendar, cal)
    else:
        with open(cal, "w") as f:
            f.write(EMPTY)
    files = []
    for i in range(n):
        path = os.path.join(work, f"{i}.eml")
        with open(path, "w") as f:
            f.write(message(i, tag))
        files.append(path)
    argv = [coolcal, "process", "--recipient", "me@example.org", "--accept-from", "anyone", "--policy", "accept-all", "--deadline", "60",
            "--state", os.path.join(work, "state"), cal]
    return work, argv, files


def one(argv, path, env):
    """One delivery: (wall s, exit status, outcome line)."""
    with open(path, "rb") as f:
        t = time.perf_counter()
        p = subprocess.run(argv, stdin=f, capture_output=True, env=env)
        return time.perf_counter() - t, p.returncode, p.stdout.decode(errors="replace").strip()


def rows(coolcal, env, calendars, n=20, parallel=8):
    """[(name, per-message walls, messages/second, outcomes)] for each (name, calendar path or None)."""
    env = dict(env, COOLCAL_LOCK_TIMEOUT="60")
    figures = []
    for name, calendar in calendars:
        print(f"process into {name}:", file=sys.stderr)
        work, argv, files = batch(coolcal, calendar, n, name.replace(" ", "-") + "-alone", env)
        walls = []
        one(argv, files[0], env)  # warm-up (its own message: answered, then the rest)
        for path in files[1:]:
            wall, code, outcome = one(argv, path, env)
            if code != 0 or outcome != "added (accepted)":
                sys.exit(f"bench: process into {name}: exit {code}, {outcome}")
            walls.append(wall)
        work2, argv2, files2 = batch(coolcal, calendar, n, name.replace(" ", "-") + "-burst", env)
        t = time.perf_counter()
        with ThreadPoolExecutor(max_workers=parallel) as pool:
            results = list(pool.map(lambda p: one(argv2, p, env), files2))
        elapsed = time.perf_counter() - t
        outcomes = [r[2] for r in results]
        codes = [r[1] for r in results]
        if any(c != 0 for c in codes) or any(o != "added (accepted)" for o in outcomes):
            sys.exit(f"bench: process burst into {name}: exits {codes}, outcomes {sorted(set(outcomes))}")
        rate = n / elapsed
        walls.sort()
        p95 = walls[min(len(walls) - 1, int(round(0.95 * (len(walls) - 1))))]
        print(f"  alone: median {statistics.median(walls):.3f} s, p95 {p95:.3f} s; burst of {n}, {parallel} at a time: "
              f"{rate:.1f} messages/s", file=sys.stderr)
        figures.append((name, walls, p95, rate, n, parallel))
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(work2, ignore_errors=True)
    return figures
