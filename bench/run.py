#!/usr/bin/env python3
"""coolcal speed/memory benchmark: `coolcal conflicts` against a bare libical parse.

    bench/run.py [--sizes 1000,10000,100000] [--runs 5] [--seed 1] [--coolcal PATH]
                 [--python PATH]

For each size: generates a calendar (bench/gen_calendar.py, cached in .build/bench/), then
times, one process after another, `cat FILE`, `libical_parse FILE` (whole-file
icalparser_parse_string) and `coolcal conflicts --json INVITE FILE`: one warm-up run (not
counted; its output is checked), then --runs runs each, reporting the median wall time and the
median peak RSS (the child's ru_maxrss, through GNU /usr/bin/time). For 10k, also Python's
recurring-ical-events doing the same query. Prints a Markdown table and writes it to
.build/bench/results.md.
"""
import argparse, json, os, platform, shlex, statistics, subprocess, sys, time
from datetime import datetime, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
OUT = os.path.join(ROOT, ".build", "bench")
INVITE = {"title": "Bench", "start": "2021-06-15T14:00:00Z", "end": "2021-06-15T15:00:00Z", "id": 1}
GOAL_RATIO, GOAL_RSS_MB, GOAL_SIZE = 0.10, 120, 100_000
TIME = "/usr/bin/time"  # GNU time

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


def run(argv, stdout=os.devnull, env=None):
    """Runs argv with stdout to a file; returns (wall s, peak RSS MB, exit code, stderr).

    Peak RSS comes from GNU time (`%M`, the child's ru_maxrss): a child spawned straight from
    Python would inherit Python's RSS as a floor (Linux keeps the pre-exec high-water mark),
    while GNU time forks from a ~2 MB process. Wall time is measured here (finer than `%e`);
    it includes GNU time's fork+exec, well under a millisecond.
    """
    err_path, rss_path = os.path.join(OUT, "stderr.txt"), os.path.join(OUT, "rss.txt")
    fa = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
          (os.POSIX_SPAWN_OPEN, 1, stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
          (os.POSIX_SPAWN_OPEN, 2, err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)]
    wrapped = [TIME, "-f", "%M", "-o", rss_path, *argv]
    t = time.perf_counter()
    pid = os.posix_spawn(TIME, wrapped, env if env is not None else os.environ, file_actions=fa)
    _, status, _ = os.wait4(pid, 0)
    wall = time.perf_counter() - t
    code = os.waitstatus_to_exitcode(status)
    with open(rss_path) as f:
        lines = f.read().split("\n")  # "Command exited with non-zero status 1" comes first
    with open(err_path, encoding="utf-8", errors="replace") as f:
        err = f.read()
    rss = [l for l in lines if l.strip().isdigit()]
    if not rss:
        sys.exit(f"bench: {shlex.join(argv)}: no RSS from {TIME}: {' '.join(lines)}\n{err[-2000:]}")
    return wall, int(rss[-1]) / 1024, code, err


def measure(name, argv, runs, ok_codes=(0,), stdout=os.devnull, env=None):
    """Warm-up run (checked) + `runs` timed runs; returns (median s, median MB, warm-up stderr)."""
    w, _, code, err = run(argv, stdout, env)
    if code not in ok_codes:
        sys.exit(f"bench: {name} failed (exit {code}): {shlex.join(argv)}\n{err[-2000:]}")
    walls, rss = [], []
    for _ in range(runs):
        wall, mb, code, _ = run(argv, os.devnull, env)
        if code not in ok_codes:
            sys.exit(f"bench: {name} failed (exit {code}) in a timed run: {shlex.join(argv)}")
        walls.append(wall)
        rss.append(mb)
    print(f"  {name:<10} median {statistics.median(walls):8.3f} s  (min {min(walls):.3f}, "
          f"max {max(walls):.3f})  peak RSS {statistics.median(rss):7.1f} MB", file=sys.stderr)
    return statistics.median(walls), statistics.median(rss), err


def calendar(size, seed):
    path = os.path.join(OUT, f"cal-{size}-s{seed}.ics")
    gen = os.path.join(BENCH, "gen_calendar.py")
    if not os.path.exists(path) or os.path.getmtime(path) < os.path.getmtime(gen):
        tmp = path + ".tmp"
        t = time.perf_counter()
        subprocess.run([sys.executable, gen, "--events", str(size), "--seed", str(seed),
                        "--out", tmp], check=True, stderr=subprocess.DEVNULL)
        os.replace(tmp, path)
        print(f"generated {os.path.relpath(path, ROOT)} in {time.perf_counter() - t:.1f} s",
              file=sys.stderr)
    return path


def build_libical_parse():
    src = os.path.join(BENCH, "libical_parse.c")
    exe = os.path.join(OUT, "libical_parse")
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libical"], check=True,
                               capture_output=True, text=True).stdout.split()
        subprocess.run(["cc", "-O2", src, "-o", exe, *flags], check=True)
    return exe


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1000,10000,100000",
                    help="comma-separated event counts (default 1000,10000,100000)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per command (default 5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--coolcal", default=os.path.join(ROOT, ".build", "release", "coolcal"))
    ap.add_argument("--python", default=os.path.join(ROOT, ".build", "pyenv", "bin", "python"),
                    help="Python with recurring-ical-events, for the 10k comparison")
    a = ap.parse_args()
    sizes = [int(s.replace("_", "")) for s in a.sizes.split(",") if s.strip()]
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

    rows, notes = [], []
    for size in sizes:
        cal = calendar(size, a.seed)
        mb = os.path.getsize(cal) / 1e6
        print(f"{size} events, {mb:.1f} MB:", file=sys.stderr)
        cat_s, _, _ = measure("cat", ["/bin/cat", cal], a.runs)
        lib_s, lib_mb, lib_err = measure("libical", [libical, cal], a.runs)
        if lib_err.split()[:1] != [str(size)]:
            notes.append(f"{size}: libical_parse counted `{lib_err.strip()}`, expected {size}")
        out = os.path.join(OUT, f"coolcal-{size}.json")
        cc_s, cc_mb, cc_err = measure("coolcal", [coolcal, "conflicts", "--json", invite, cal],
                                      a.runs, ok_codes=(0, 1), stdout=out, env=env)
        with open(out) as f:
            answer = json.load(f)
        n_conf, n_ign = len(answer.get("conflicts", [])), len(answer.get("ignored", []))
        notes.append(f"{size}: coolcal found {n_conf} conflicts, {n_ign} ignored "
                     f"(output: {os.path.relpath(out, ROOT)})")
        warnings = [l for l in cc_err.splitlines() if l.strip()]
        if warnings:
            notes.append(f"{size}: coolcal printed {len(warnings)} lines on stderr, e.g.: "
                         + " | ".join(f"`{w}`" for w in warnings[:3]))
        rows.append((size, mb, cat_s, lib_s, cc_s, cc_s / lib_s, cc_mb, lib_mb))
        if size >= GOAL_SIZE:
            ok = cc_s / lib_s <= GOAL_RATIO and cc_mb <= GOAL_RSS_MB
            notes.append(f"{size}: goal (coolcal/libical <= {GOAL_RATIO:.2f}, peak RSS <= "
                         f"{GOAL_RSS_MB} MB): {'PASS' if ok else 'FAIL'}")

        if size == 10_000:
            if not os.access(a.python, os.X_OK) or subprocess.run(
                    [a.python, "-c", "import recurring_ical_events"],
                    capture_output=True).returncode != 0:
                notes.append(f"10000: recurring-ical-events skipped: not importable in "
                             f"{os.path.relpath(a.python, ROOT)} (`make test` creates it)")
            else:
                py_out = os.path.join(OUT, "recurring-ical-events-10000.txt")
                py_s, py_mb, _ = measure("python", [a.python, "-c", PY_QUERY, cal,
                                                    INVITE["start"], INVITE["end"]],
                                         a.runs, stdout=py_out)
                with open(py_out) as f:
                    in_window, busy = f.read().split()
                notes.append(f"10000: Python recurring-ical-events (parse + between(start-2h, "
                             f"end+2h), interpreter start included): {py_s:.3f} s, peak RSS "
                             f"{py_mb:.0f} MB, {in_window} events in the window, {busy} busy "
                             f"(coolcal: {n_conf} conflicts); coolcal is "
                             f"{py_s / cc_s:.1f}x faster")

    head = ("| events | file MB | cat s | libical s | coolcal s | coolcal/libical "
            "| coolcal peak RSS MB | libical peak RSS MB |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n")
    table = head + "".join(f"| {s:,} | {mb:.1f} | {c:.3f} | {l:.3f} | {k:.3f} | {r:.3f} "
                           f"| {km:.0f} | {lm:.0f} |\n" for s, mb, c, l, k, r, km, lm in rows)
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    meta = (f"coolcal `{os.path.relpath(coolcal, ROOT)}`, median of {a.runs} runs (after 1 "
            f"warm-up), seed {a.seed}, {os.cpu_count()} CPUs, {platform.platform()}, {stamp}\n")
    text = (meta + "\n" + table + ("\n" + "\n".join(f"- {n}" for n in notes) + "\n"
                                   if notes else ""))
    print(text)
    with open(os.path.join(OUT, "results.md"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
