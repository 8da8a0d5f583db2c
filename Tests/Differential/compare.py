"""Differential test: `coolcal events --json` against recurring-ical-events (reference_events.py).

    compare.py --coolcal PATH [--seed N] [--windows N] [--events K] [--tz ZONE ...] [--dir DIR]
    compare.py --self-check [...]   # the reference CLI (per-window library queries) stands in for coolcal

Generates calendars (gen_calendars.py), runs coolcal for every window x --tz, and compares the
occurrence sets keyed by (calendar, uid, recurrence_id) on start/end/all_day/summary/busy.
Differences explained by known_differences.py pass.  Exit 0 when every window passes, else 1.
The last line is `differential: N passed, N failed`.
"""
import argparse, collections, json, os, subprocess, sys, tempfile, time, traceback
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
import gen_calendars  # noqa: E402
import known_differences  # noqa: E402
import reference_events as ref_mod  # noqa: E402

FIELDS = known_differences.FIELDS
DEFAULT_TZ = ["America/New_York", "Australia/Sydney", "Asia/Kolkata"]


def key(e):
    return (e.get("calendar"), e.get("uid"), e.get("recurrence_id"))


def run(cmd, timeout=120):
    t = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr.decode(errors="replace"), time.monotonic() - t
    except (OSError, subprocess.TimeoutExpired) as e:
        return -1, b"", str(e), time.monotonic() - t


def diff_sets(ref_list, cool_events):
    """Differences between the reference's and coolcal's occurrences of one window."""
    ref_all = {}
    for d in sorted(ref_list, key=lambda d: d["_in_lib"]):  # an in-window entry wins a key clash
        ref_all[key(d)] = d
    diffs, cool = [], {}
    for d in ref_list:
        if d["_in_lib"] and ref_all[key(d)] is not d:
            diffs.append({"kind": "duplicate-in-reference", "key": key(d), "ref": d, "cool": None})
    for e in cool_events:
        if key(e) in cool:
            diffs.append({"kind": "duplicate", "key": key(e), "ref": None, "cool": e})
        cool[key(e)] = e
    ref_in = {k: d for k, d in ref_all.items() if d["_in_lib"]}
    for k in sorted(ref_in.keys() | cool.keys(), key=lambda k: tuple(x or "" for x in k)):
        r, c = ref_in.get(k), cool.get(k)
        if r and c:
            fields = [f for f in FIELDS if r[f] != c.get(f)]
            if fields:
                diffs.append({"kind": "changed", "key": k, "ref": r, "cool": c, "fields": fields})
        elif r:
            diffs.append({"kind": "missing", "key": k, "ref": r, "cool": None})
        else:
            diffs.append({"kind": "extra", "key": k, "ref": ref_all.get(k), "cool": c})
    return diffs


def show(d):
    cal, uid, rid = d["key"]
    head = f"  {d['kind']:<8} {cal} {uid} rid={rid}"
    def span(e):
        return f"{e['start']}..{e['end']}{' all-day' if e.get('all_day') else ''} busy={e.get('busy')} " \
               f"{json.dumps(e.get('summary'), ensure_ascii=False)}"
    if d["kind"] == "changed":
        return head + "".join(f"\n      {f}: reference {d['ref'][f]!r} coolcal {d['cool'].get(f)!r}"
                              for f in d["fields"])
    out = head
    if d["ref"]:
        out += f"\n      reference: {span(d['ref'])}" + ("" if d["ref"]["_in_lib"] else " (outside by library)")
        if d["ref"].get("_alt"):
            out += f"\n      RFC reading: {d['ref']['_alt']}"
    if d["cool"]:
        out += f"\n      coolcal:   {span(d['cool'])}"
    return out


def check_output(rc, out, err, ws, we):
    """(events, problem) from one coolcal run."""
    if rc != 0:
        return None, f"exit status {rc}: {err.strip()[-500:]}"
    try:
        doc = json.loads(out)
        events = doc["events"]
        if doc["window"] != {"start": ws, "end": we}:
            return events, f"window echoed as {doc['window']}"
        return events, None
    except (ValueError, KeyError, TypeError) as e:
        return None, f"bad JSON document ({e}): {out[:300]!r}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--coolcal", help="path to the coolcal binary")
    ap.add_argument("--self-check", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--windows", type=int)
    ap.add_argument("--events", type=int, default=2000)
    ap.add_argument("--tz", action="append")
    ap.add_argument("--dir", help="generate into DIR (kept) instead of a temporary directory")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--show", type=int, default=20, help="differences printed per window")
    a = ap.parse_args()
    if not a.coolcal and not a.self_check:
        ap.error("--coolcal PATH or --self-check is required")
    zones = a.tz or DEFAULT_TZ
    n_windows = a.windows or (8 if a.self_check else 200)
    tmp = None if a.dir else tempfile.TemporaryDirectory(prefix="coolcal-diff-")
    out_dir = a.dir or tmp.name
    t0 = time.monotonic()
    cals, windows, n_events = gen_calendars.generate(a.seed, out_dir, a.events, n_windows)
    print(f"generated {n_events} VEVENTs in {len(cals)} calendars, {len(windows)} windows "
          f"(seed {a.seed}) in {out_dir}; zones {', '.join(zones)}", flush=True)
    base = [sys.executable, os.path.join(HERE, "reference_events.py")] if a.self_check else \
        [os.path.abspath(a.coolcal)]
    tasks = [(i, w, z) for i, w in enumerate(windows) for z in zones]
    pool = ThreadPoolExecutor(max(1, a.jobs))
    futures = [pool.submit(run, base + ["events", "--json", "--tz", z, "--from", w["start"], "--to", w["end"]]
                           + cals) for _, w, z in tasks]

    t1 = time.monotonic()
    parse = ref_mod.parse_utc
    try:
        ref = ref_mod.Reference(cals)
        raws = ref.raw(min(parse(w["start"]) for w in windows), max(parse(w["end"]) for w in windows))
        per_zone = {z: ref_mod.Occurrences(raws, z) for z in zones}
        ref_results = [per_zone[z].window(parse(w["start"]), parse(w["end"])) for _, w, z in tasks]
    except Exception:  # a broken reference fails every window, with the traceback
        pool.shutdown(cancel_futures=True)
        traceback.print_exc(file=sys.stdout)
        print(f"differential: 0 passed, {len(tasks)} failed")
        return 1
    ref_time = time.monotonic() - t1
    print(f"reference: {len(raws)} occurrences in the windows' span, {ref_time:.1f}s", flush=True)

    passed = failed = 0
    known = collections.Counter()
    examples = {}
    cool_time = 0.0
    for (i, w, z), fut, ref_list in zip(tasks, futures, ref_results):
        rc, out, err, secs = fut.result()
        cool_time += secs
        label = f"window {i} [{w['start']}, {w['end']}) tz={z}"
        events, problem = check_output(rc, out, err, w["start"], w["end"])
        if events is None:
            failed += 1
            print(f"FAIL {label}: coolcal {problem}")
            continue
        unexplained = []
        for d in diff_sets(ref_list, events):
            kid = known_differences.explain(d)
            if kid:
                known[kid] += 1
                examples.setdefault(kid, (label, d))
            else:
                unexplained.append(d)
        if not unexplained and not problem:
            passed += 1
            continue
        failed += 1
        n_ref = sum(1 for d in ref_list if d["_in_lib"])
        print(f"FAIL {label}: reference {n_ref}, coolcal {len(events)}, {len(unexplained)} unexplained"
              + (f"; {problem}" if problem else ""))
        for d in unexplained[:a.show]:
            print(show(d))
        if len(unexplained) > a.show:
            kinds = collections.Counter(d["kind"] for d in unexplained)
            print(f"  ... {len(unexplained) - a.show} more ({dict(kinds)})")
    pool.shutdown()
    for kid, n in sorted(known.items()):
        entry = next(k for k in known_differences.KNOWN if k["id"] == kid)
        label, d = examples[kid]
        print(f"known difference {kid} x{n} ({entry['rfc'].split(':')[0]}); e.g. {label}\n{show(d)}")
    print(f"timing: total {time.monotonic() - t0:.1f}s, reference {ref_time:.1f}s, "
          f"{'reference CLI' if a.self_check else 'coolcal'} {cool_time:.1f}s over {len(tasks)} runs")
    if tmp:
        tmp.cleanup()
    print(f"differential: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
