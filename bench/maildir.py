"""The Maildir rows of bench/run.py: `merge` over a generated Maildir of 10,000 messages
(~2 % invitations, the rest ordinary mail of realistic sizes), its first run (a fresh
state each run) and a run when nothing arrived (every message remembered): as cron's runs
are, with the stamp the last such run left (the state last written seconds before), and
without it (every name looked up in the state) — next to `coolcal --version` (process
start alone).

Goals (issue #30): the no-op run within `--version` + 30 ms and + 5 MB, and under 50 ms
as a line; the first run under 15 s."""
import os, random, shutil, sys, time
from benchlib import OUT, measure, run

WORDS = ("meeting notes budget quarter review travel lunch project update invoice reminder "
         "team plan draft schedule report design release customer feedback").split()


def message(r, i):
    """Message `i`: 2 % Gmail-style invitations, else plain or HTML mail of 1–60 KB."""
    head = (f"From: Person {i} <p{i}@example.org>\nTo: me@example.org\nSubject: {' '.join(r.sample(WORDS, 3))}\n"
            f"Date: Tue, 1 Dec 2026 10:00:00 +0100\nMessage-ID: <m{i}@example.org>\nMIME-Version: 1.0\n")
    if r.random() < 0.02:
        day = f"2031{1 + i % 12:02d}{1 + i % 28:02d}"
        ics = (f"BEGIN:VCALENDAR\r\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\r\nVERSION:2.0\r\nMETHOD:REQUEST\r\n"
               f"BEGIN:VEVENT\r\nUID:bench-{i}@google.com\r\nDTSTAMP:20261201T090000Z\r\nDTSTART:{day}T{8 + i % 9:02d}0000Z\r\n"
               f"DTEND:{day}T{9 + i % 9:02d}0000Z\r\nSUMMARY:Invitation {i}\r\nORGANIZER:mailto:p{i}@example.org\r\n"
               f"ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:me@example.org\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        return (head + f'Content-Type: multipart/alternative; boundary="b{i}"\n\n--b{i}\nContent-Type: text/plain\n\n'
                f"You are invited.\n--b{i}\nContent-Type: text/calendar; method=REQUEST; charset=UTF-8\n\n{ics}\n--b{i}--\n")
    text = "\n".join(" ".join(r.choice(WORDS) for _ in range(12)) for _ in range(r.randint(10, 700)))
    if r.random() < 0.5:
        return head + "Content-Type: text/plain; charset=utf-8\n\n" + text + "\n"
    return (head + f'Content-Type: multipart/alternative; boundary="a{i}"\n\n--a{i}\nContent-Type: text/plain\n\n{text}\n'
            f"--a{i}\nContent-Type: text/html\n\n<html><body><p>{text}</p></body></html>\n--a{i}--\n")


def generated(n, seed):
    """The Maildir of `n` messages (cached in .build/bench, made again when this file changes)."""
    path = os.path.join(OUT, f"maildir-{n}-s{seed}")
    if os.path.isdir(path) and os.path.getmtime(path) >= os.path.getmtime(__file__):
        return path
    shutil.rmtree(path, ignore_errors=True)
    for folder in ("cur", "new", "tmp"):
        os.makedirs(os.path.join(path, folder))
    r = random.Random(seed)
    for i in range(n):
        with open(os.path.join(path, "cur", f"{1_700_000_000 + i}.M{i}P1.bench:2,S"), "w") as f:
            f.write(message(r, i))
    os.utime(path)
    return path


def rows(coolcal, runs, env, n=10_000, seed=1):
    """Figures for the first run, the no-op run and --version."""
    maildir = generated(n, seed)
    work = os.path.join(OUT, "maildir-work")
    state, cal = os.path.join(work, "state"), os.path.join(work, "cal.ics")
    argv = [coolcal, "merge", "-q", "--me", "me@example.org", "--accept-from", "anyone",
            "--state", state, "--spool", maildir, cal]

    def fresh():
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        with open(cal, "w") as f:
            f.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nEND:VCALENDAR\r\n")

    first = measure("maildir first", argv, runs, ok_codes=(0,), env=env, setup=fresh)
    fresh()
    run(argv, os.devnull, env)  # every message remembered (the state written)
    run(argv, os.devnull, env)  # nothing written: the stamp
    # A stamp is trusted once the state was last written two seconds before it (file
    # times are coarse): cron's next run is minutes later; this one 2.5 s.
    time.sleep(2.5)
    run(argv, os.devnull, env)
    noop = measure("maildir no-op", argv, runs, ok_codes=(0,), env=env)
    told = run([a if a != "-q" else "-v" for a in argv], os.devnull, env)[4]
    if "listed as the last run left it" not in told:
        print("  (the no-op runs did not use the stamp: " + told.strip() + ")", file=sys.stderr)
    unstamped = measure("no-op, no stamp", argv, runs, ok_codes=(0,), env=env,
                        setup=lambda: [os.remove(os.path.join(state, f)) for f in os.listdir(state) if f.endswith(".listed")])
    version = measure("--version", [coolcal, "--version"], runs, env=env)
    shutil.rmtree(work, ignore_errors=True)
    return n, first, noop, unstamped, version
