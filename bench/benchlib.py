"""Shared pieces of bench/run.py: running one process under GNU time, medians of runs,
the generated calendars and vdirs, and the libical baseline binary."""
import os, shlex, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
OUT = os.path.join(ROOT, ".build", "bench")
TIME = "/usr/bin/time"  # GNU time


def run(argv, stdout=os.devnull, env=None):
    """Runs argv with stdout to a file; returns (wall s, cpu s, peak RSS MB, exit code, stderr).

    Peak RSS and CPU (user + sys) come from GNU time (`%M %U %S`, the child's rusage): a
    child spawned straight from Python would inherit Python's RSS as a floor (Linux keeps
    the pre-exec high-water mark), while GNU time forks from a ~2 MB process. Wall time is
    measured here (finer than `%e`); it includes GNU time's fork+exec, well under a ms.
    """
    err_path, rss_path = os.path.join(OUT, "stderr.txt"), os.path.join(OUT, "rss.txt")
    fa = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
          (os.POSIX_SPAWN_OPEN, 1, stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
          (os.POSIX_SPAWN_OPEN, 2, err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)]
    wrapped = [TIME, "-f", "%M %U %S", "-o", rss_path, *argv]
    t = time.perf_counter()
    pid = os.posix_spawn(TIME, wrapped, env if env is not None else os.environ, file_actions=fa)
    _, status, _ = os.wait4(pid, 0)
    wall = time.perf_counter() - t
    code = os.waitstatus_to_exitcode(status)
    with open(rss_path) as f:
        lines = f.read().split("\n")  # "Command exited with non-zero status 1" comes first
    with open(err_path, encoding="utf-8", errors="replace") as f:
        err = f.read()
    figures = [l.split() for l in lines if len(l.split()) == 3 and l.split()[0].isdigit()]
    if not figures:
        sys.exit(f"bench: {shlex.join(argv)}: no figures from {TIME}: {' '.join(lines)}\n{err[-2000:]}")
    rss, user, system = figures[-1]
    return wall, float(user) + float(system), int(rss) / 1024, code, err


class Figures:
    """Medians (and min/max) of timed runs, or why the command was refused."""
    def __init__(self, walls=(), cpus=(), rss=(), err="", refused=None):
        self.walls, self.cpus, self.rss, self.err, self.refused = list(walls), list(cpus), list(rss), err, refused

    @property
    def wall(self):
        return statistics.median(self.walls) if self.walls else float("nan")

    @property
    def cpu(self):
        return statistics.median(self.cpus) if self.cpus else float("nan")

    @property
    def mb(self):
        return statistics.median(self.rss) if self.rss else float("nan")

    def cell(self, digits=3):
        return f"refused: {self.refused}" if self.refused else f"{self.wall:.{digits}f}"


def measure(name, argv, runs, ok_codes=(0,), stdout=os.devnull, env=None, setup=None, tolerate=False):
    """Warm-up run (checked) + `runs` timed runs, `setup()` before each (not timed).

    A command that exits otherwise than `ok_codes` ends the benchmark, unless `tolerate`:
    then its figures say `refused` with the first line it printed on stderr.
    """
    if setup:
        setup()
    _, _, _, code, err = run(argv, stdout, env)
    if code not in ok_codes:
        first = next((l for l in err.splitlines() if l.strip()), f"exit {code}")
        if tolerate:
            print(f"  {name:<14} refused (exit {code}): {first}", file=sys.stderr)
            return Figures(err=err, refused=f"exit {code}: {first[:120]}")
        sys.exit(f"bench: {name} failed (exit {code}): {shlex.join(argv)}\n{err[-2000:]}")
    f = Figures(err=err)
    for _ in range(runs):
        if setup:
            setup()
        wall, cpu, mb, code, _ = run(argv, os.devnull, env)
        if code not in ok_codes:
            sys.exit(f"bench: {name} failed (exit {code}) in a timed run: {shlex.join(argv)}")
        f.walls.append(wall)
        f.cpus.append(cpu)
        f.rss.append(mb)
    print(f"  {name:<14} median {f.wall:8.3f} s  (min {min(f.walls):.3f}, max {max(f.walls):.3f})  "
          f"cpu {f.cpu:7.3f} s  peak RSS {f.mb:7.1f} MB", file=sys.stderr)
    return f


def generated(size, seed, vdir=False, rules="real"):
    """The calendar (or vdir) of `size` events, made by gen_calendar.py and cached;
    `rules` "simple" is the earlier mix of recurrence rules (no BY parts)."""
    mix = "" if rules == "real" else f"-{rules}"
    path = os.path.join(OUT, f"{'vdir' if vdir else 'cal'}-{size}-s{seed}{mix}{'' if vdir else '.ics'}")
    gen = os.path.join(BENCH, "gen_calendar.py")
    shapes = os.path.join(BENCH, "rule_shapes.py")
    if not os.path.exists(path) or os.path.getmtime(path) < max(os.path.getmtime(gen), os.path.getmtime(shapes)):
        tmp = path + ".tmp"
        subprocess.run(["rm", "-rf", tmp], check=True)
        t = time.perf_counter()
        subprocess.run([sys.executable, gen, "--events", str(size), "--seed", str(seed), "--rules", rules,
                        "--vdir" if vdir else "--out", tmp], check=True, stderr=subprocess.DEVNULL)
        subprocess.run(["rm", "-rf", path], check=True)
        os.replace(tmp, path)
        print(f"generated {os.path.relpath(path, ROOT)} in {time.perf_counter() - t:.1f} s",
              file=sys.stderr)
    return path


def tree_size(path):
    """(files, bytes) of the .ics files in a directory."""
    names = [n for n in os.listdir(path) if n.endswith(".ics")]
    return len(names), sum(os.path.getsize(os.path.join(path, n)) for n in names)


def build_libical_parse():
    src = os.path.join(BENCH, "libical_parse.c")
    exe = os.path.join(OUT, "libical_parse")
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libical"], check=True,
                               capture_output=True, text=True).stdout.split()
        subprocess.run(["cc", "-O2", src, "-o", exe, *flags], check=True)
    return exe
