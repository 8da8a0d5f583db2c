#!/usr/bin/env python3
"""coolcal speed/memory benchmark: `coolcal conflicts` against a bare libical parse, the
write commands against `conflicts`, and a vdir against `cat` of its files.

    bench/run.py [--sizes 1000,10000,100000] [--vdir-sizes 10000,100000] [--simple-sizes 100000]
                 [--runs 5] [--seed 1] [--coolcal PATH] [--python PATH] [--no-writes] [--maildir 10000]

For each size: generates a calendar (bench/gen_calendar.py, cached in .build/bench/), then
times, one process after another, `wc -l FILE`, `cat FILE`, `libical_parse FILE` (whole-file
icalparser_parse_string) and `coolcal conflicts --json INVITE FILE`; then `accept` (new
event, into a fresh copy of the calendar each run), `accept` again (already there) and
`merge` of a 10-invitation spool (bench/writes.py). For each vdir size, the same events as
a vdir (`gen_calendar.py --vdir`: one file per UID) and `conflicts` on it next to `cat` of
all its files. For each --simple-sizes size, the calendar again with the earlier, plain
recurrence rules (`gen_calendar.py --rules simple`), libical and `conflicts` on it. Each command: one warm-up run (not counted; its output is checked), then
--runs runs, reporting the median wall time (min/max on stderr), the median CPU time (user
+ sys) and the median peak RSS (the child's rusage, through GNU /usr/bin/time). A command
that refuses (accept over a size limit) is printed as refused in its row. For 10k, also
Python's recurring-ical-events doing the same query. Then `merge` over a generated Maildir
(bench/maildir.py): its first run and a run when nothing arrived, next to `--version`; and
`coolcal process` (bench/process.py): per-message wall time and messages per second into
an empty calendar and the largest one. Prints Markdown tables and writes them
to .build/bench/results.md.
"""
import argparse, json, os, platform, statistics, subprocess, sys
from datetime import datetime, timezone
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import ROOT, OUT, TIME, measure, generated, tree_size, build_libical_parse  # noqa: E402
import writes  # noqa: E402
import maildir  # noqa: E402
import process  # noqa: E402

INVITE = {"title": "Bench", "start": "2021-06-15T14:00:00Z", "end": "2021-06-15T15:00:00Z", "id": 1}
GOAL_RATIO, GOAL_RSS_MB, GOAL_SIZE = 0.05, 120, 100_000

# recurring-ical-events, the same query as coolcal (2 h buffer), parsing included.
PY_QUERY = r"""
import sys, icalendar, recurring_ical_events
from datetime import datetime, timedelta
start, end = (datetime.fromisoformat(s.replace("Z", "+00:00")) for s in sys.argv[2:4])
with open(sys.argv[1], "rb") as f:
    cal = icalendar.Calendar.from_ical(f.read())
evs = recurring_ical_events.of(cal).between(start - timedelta(hours=2), end + timedelta(hours=2))
busy = [e for e in evs if str(e.get("TRANSP", "OPAQUE")).upper() != "TRANSPARENT"
        and str(e.get("STATUS", "")).upper() != "CANCELLED"]
print(len(evs), len(busy))
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1000,10000,100000",
                    help="comma-separated event counts (default 1000,10000,100000)")
    ap.add_argument("--vdir-sizes", default="10000,100000",
                    help="event counts also benchmarked as a vdir, if in --sizes (default 10000,100000)")
    ap.add_argument("--simple-sizes", default="100000",
                    help="event counts also benchmarked with the earlier, plain recurrence rules, "
                         "if in --sizes (default 100000)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per command (default 5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--coolcal", default=os.path.join(ROOT, ".build", "release", "coolcal"))
    ap.add_argument("--python", default=os.path.join(ROOT, ".build", "pyenv", "bin", "python"),
                    help="Python with recurring-ical-events, for the 10k comparison")
    ap.add_argument("--no-writes", action="store_true", help="skip the accept/merge rows")
    ap.add_argument("--process-messages", type=int, default=20,
                    help="invitations per coolcal process row (default 20; 0 skips them)")
    ap.add_argument("--maildir", type=int, default=10_000,
                    help="messages in the generated Maildir for the merge rows (default 10000; 0 skips them)")
    a = ap.parse_args()
    number = lambda text: [int(x.replace("_", "")) for x in text.split(",") if x.strip()]
    sizes, vdir_sizes, simple_sizes = number(a.sizes), set(number(a.vdir_sizes)), set(number(a.simple_sizes))
    coolcal, a.python = os.path.abspath(a.coolcal), os.path.abspath(a.python)
    if not os.access(coolcal, os.X_OK):
        sys.exit(f"bench: no coolcal binary at {coolcal} (build it: swift build -c release)")
    if not os.access(TIME, os.X_OK):
        sys.exit(f"bench: needs GNU time at {TIME} (Debian package `time`)")
    os.makedirs(OUT, exist_ok=True)
    libical = build_libical_parse()
    invite = os.path.join(OUT, "invite.json")
    with open(invite, "w") as f:
        json.dump(INVITE, f)
    env = dict(os.environ, TZ="UTC", NO_COLOR="1")  # all-day events read in UTC: reproducible

    rows, write_rows, vdir_rows, notes = [], [], [], []
    for size in sizes:
        cal = generated(size, a.seed)
        mb = os.path.getsize(cal) / 1e6
        print(f"{size} events, {mb:.1f} MB:", file=sys.stderr)
        wc = measure("wc -l", ["/usr/bin/wc", "-l", cal], a.runs)
        cat = measure("cat", ["/bin/cat", cal], a.runs)
        lib = measure("libical", [libical, cal], a.runs)
        if lib.err.split()[:1] != [str(size)]:
            notes.append(f"{size}: libical_parse counted `{lib.err.strip()}`, expected {size}")
        out = os.path.join(OUT, f"coolcal-{size}.json")
        cc = measure("conflicts", [coolcal, "conflicts", "--json", invite, cal],
                     a.runs, ok_codes=(0, 1), stdout=out, env=env)
        with open(out) as f:
            answer = json.load(f)
        n_conf, n_ign = len(answer.get("conflicts", [])), len(answer.get("ignored", []))
        notes.append(f"{size}: coolcal found {n_conf} conflicts, {n_ign} ignored "
                     f"(output: {os.path.relpath(out, ROOT)})")
        warnings = [l for l in cc.err.splitlines() if l.strip()]
        if warnings:
            notes.append(f"{size}: coolcal printed {len(warnings)} lines on stderr, e.g.: "
                         + " | ".join(f"`{w}`" for w in warnings[:3]))
        rows.append((f"{size:,}", mb, wc, cat, lib, cc))
        if cat.cpu > 0:
            notes.append(f"{size}: conflicts' CPU ÷ cat's CPU: {cpu_ratio(cc, cat)} (issue #48's goal: at most 10)")
        if size in simple_sizes:
            rows.append(simple_row(size, a, libical, invite, env, n_conf, notes))
        if size >= GOAL_SIZE:
            ok = cc.wall / lib.wall <= GOAL_RATIO and cc.mb <= GOAL_RSS_MB
            notes.append(f"{size}: goal (conflicts/libical <= {GOAL_RATIO:.2f}, peak RSS <= "
                         f"{GOAL_RSS_MB} MB): {'met' if ok else 'not met'} "
                         f"({cc.wall / lib.wall:.3f}, {cc.mb:.0f} MB)")
        if not a.no_writes:
            write_rows.append((size, cc, writes.rows(coolcal, invite, cal, a.runs, env, size)))
        if size in vdir_sizes:
            vdir = generated(size, a.seed, vdir=True)
            files, total = tree_size(vdir)
            print(f"{size} events as a vdir, {files} files, {total / 1e6:.1f} MB:", file=sys.stderr)
            vcat = measure("cat vdir", ["/usr/bin/find", vdir, "-name", "*.ics", "-exec", "/bin/cat", "{}", "+"], a.runs)
            vout = os.path.join(OUT, f"coolcal-vdir-{size}.json")
            vcc = measure("conflicts vdir", [coolcal, "conflicts", "--json", invite, vdir],
                          a.runs, ok_codes=(0, 1), stdout=vout, env=env)
            with open(vout) as f:
                v_conf = len(json.load(f).get("conflicts", []))
            if v_conf != n_conf:
                notes.append(f"{size}: the vdir gave {v_conf} conflicts, the file {n_conf}")
            vdir_rows.append((size, files, total / 1e6, vcat, vcc, cc))
        if size == 10_000:
            notes.append(python_note(a, cal, cc, n_conf))
    delivery = None
    if a.process_messages:
        calendars = [("an empty calendar", None)] + [(f"{s:,} events", generated(s, a.seed)) for s in sizes if s >= GOAL_SIZE]
        delivery = process.rows(coolcal, env, calendars, n=a.process_messages)
    spool = None
    if a.maildir:
        print(f"a Maildir of {a.maildir} messages:", file=sys.stderr)
        spool = maildir.rows(coolcal, a.runs, env, n=a.maildir, seed=a.seed)
        notes.extend(maildir_goals(*spool))
    print_tables(a, coolcal, rows, write_rows, vdir_rows, notes, spool, delivery)


def maildir_goals(n, first, noop, unstamped, version):
    """The Maildir goals of issue #30, as notes."""
    met = lambda ok: "met" if ok else "not met"
    return [f"Maildir of {n:,}: no-op within --version + 30 ms and + 5 MB: "
            f"{met(noop.wall <= version.wall + 0.030 and noop.mb <= version.mb + 5)} "
            f"(+{(noop.wall - version.wall) * 1000:.0f} ms, +{noop.mb - version.mb:.1f} MB)",
            f"Maildir of {n:,}: no-op under 50 ms: {met(noop.wall <= 0.050)} ({noop.wall * 1000:.0f} ms); "
            f"first run under 15 s: {met(first.wall <= 15)} ({first.wall:.2f} s)"]


def span(f):
    """A median with its min–max."""
    return f"{f.wall:.3f} ({min(f.walls):.3f}–{max(f.walls):.3f})"


def simple_row(size, a, libical, invite, env, n_conf, notes):
    """The same size with the earlier mix of recurrence rules (plain DAILY/WEEKLY/MONTHLY,
    no BY parts): the row that shows what the rules people write cost."""
    cal = generated(size, a.seed, rules="simple")
    mb = os.path.getsize(cal) / 1e6
    print(f"{size} events with plain rules, {mb:.1f} MB:", file=sys.stderr)
    wc = measure("wc -l", ["/usr/bin/wc", "-l", cal], a.runs)
    cat = measure("cat", ["/bin/cat", cal], a.runs)
    lib = measure("libical", [libical, cal], a.runs)
    out = os.path.join(OUT, f"coolcal-{size}-simple.json")
    cc = measure("conflicts", [os.path.abspath(a.coolcal), "conflicts", "--json", invite, cal],
                 a.runs, ok_codes=(0, 1), stdout=out, env=env)
    with open(out) as f:
        notes.append(f"{size} (plain rules): coolcal found {len(json.load(f).get('conflicts', []))} conflicts "
                     f"(with the rules people write: {n_conf})")
    return (f"{size:,} (plain rules)", mb, wc, cat, lib, cc)


def python_note(a, cal, cc, n_conf):
    if not os.access(a.python, os.X_OK) or subprocess.run(
            [a.python, "-c", "import recurring_ical_events"], capture_output=True).returncode != 0:
        return (f"10000: recurring-ical-events skipped: not importable in "
                f"{os.path.relpath(a.python, ROOT)} (`make test` creates it)")
    py_out = os.path.join(OUT, "recurring-ical-events-10000.txt")
    py = measure("python", [a.python, "-c", PY_QUERY, cal, INVITE["start"], INVITE["end"]],
                 a.runs, stdout=py_out)
    with open(py_out) as f:
        in_window, busy = f.read().split()
    return (f"10000: Python recurring-ical-events (parse + between(start-2h, end+2h), interpreter "
            f"start included): {py.wall:.3f} s, peak RSS {py.mb:.0f} MB, {in_window} events in the "
            f"window, {busy} busy (coolcal: {n_conf} conflicts); coolcal is {py.wall / cc.wall:.1f}x faster")


def cpu_ratio(f, base):
    """f's CPU ÷ base's, or "-" when base's rounds to 0 (GNU time counts in 10 ms steps)."""
    return f"{f.cpu / base.cpu:.2f}" if base.cpu > 0 else "-"


def print_tables(a, coolcal, rows, write_rows, vdir_rows, notes, spool=None, delivery=None):
    t = ("| events | file MB | wc -l s | cat s | libical s (min–max) | conflicts s (min–max) | conflicts cpu s "
         "| conflicts/libical | conflicts peak RSS MB | libical peak RSS MB |\n"
         "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
    t += "".join(f"| {s} | {mb:.1f} | {wc.wall:.3f} | {c.wall:.3f} | {span(l)} | {span(k)} "
                 f"| {k.cpu:.3f} | {k.wall / l.wall:.3f} | {k.mb:.0f} | {l.mb:.0f} |\n"
                 for s, mb, wc, c, l, k in rows)
    if write_rows:
        t += ("\n| events | command | s (min–max) | cpu s | ÷ conflicts | ÷ conflicts cpu | peak RSS MB |\n"
              "|---:|---|---:|---:|---:|---:|---:|\n")
        for s, cc, figures in write_rows:
            for name, f in figures.items():
                t += (f"| {s:,} | {name} | {f.cell()} | - | - | - | - |\n" if f.refused else
                      f"| {s:,} | {name} | {span(f)} | {f.cpu:.3f} | {f.wall / cc.wall:.2f} "
                      f"| {cpu_ratio(f, cc)} | {f.mb:.0f} |\n")
    if vdir_rows:
        t += ("\n| events | vdir files | MB | cat of its files s | conflicts s | conflicts cpu s "
              "| ÷ cat | ÷ conflicts on one file | peak RSS MB |\n"
              "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
        t += "".join(f"| {s:,} | {n:,} | {mb:.1f} | {c.wall:.3f} | {k.wall:.3f} | {k.cpu:.3f} "
                     f"| {k.wall / c.wall:.2f} | {k.wall / one.wall:.2f} | {k.mb:.0f} |\n"
                     for s, n, mb, c, k, one in vdir_rows)
    if delivery:
        t += ("\n| coolcal process into | per message s, median | p95 | messages/s, 8 at a time |\n|---|---:|---:|---:|\n")
        t += "".join(f"| {name} | {statistics.median(walls):.3f} | {p95:.3f} | {rate:.1f} ({n} messages) |\n"
                     for name, walls, p95, rate, n, _ in delivery)
    if spool:
        n, first, noop, unstamped, version = spool
        t += (f"\n| Maildir of {n:,} messages | s (min–max) | cpu s | peak RSS MB |\n|---|---:|---:|---:|\n"
              f"| merge, first run (fresh state) | {span(first)} | {first.cpu:.3f} | {first.mb:.0f} |\n"
              f"| merge, nothing arrived | {span(noop)} | {noop.cpu:.3f} | {noop.mb:.1f} |\n"
              f"| merge, nothing arrived, no stamp | {span(unstamped)} | {unstamped.cpu:.3f} | {unstamped.mb:.1f} |\n"
              f"| coolcal --version | {span(version)} | {version.cpu:.3f} | {version.mb:.1f} |\n")
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    meta = (f"coolcal `{os.path.relpath(coolcal, ROOT)}`, median of {a.runs} runs (after 1 "
            f"warm-up), seed {a.seed}, {os.cpu_count()} CPUs, {platform.platform()}, {stamp}\n")
    text = meta + "\n" + t + ("\n" + "\n".join(f"- {n}" for n in notes) + "\n" if notes else "")
    print(text)
    with open(os.path.join(OUT, "results.md"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
