"""The write rows of bench/run.py: `cp` of the calendar into a new file (the floor of a
write), `accept` of a new event (into a fresh copy of the
calendar each run), `accept` of the same event again (already there: nothing to write),
and `merge` of a 10-invitation spool (a fresh spool and calendar copy each run). The
copies are made before each run and are not timed; each run gets a fresh state directory
(COOLCAL_STATE) except `accept` again, which must find what the first accept recorded."""
import json, os, shutil
from benchlib import OUT, measure

# Spread over 2021, an hour each, in the calendar's busy hours; merged with
# `--policy accept-all`, so that all ten are written (the most work a merge does).
SPOOL_INVITES = [{"title": f"Spool {i}", "start": f"2021-{1 + i:02d}-1{i % 9}T{8 + i:02d}:00:00Z",
                  "end": f"2021-{1 + i:02d}-1{i % 9}T{9 + i:02d}:00:00Z", "id": 100 + i} for i in range(10)]


def _warm(cal, work):
    """As many pages as the calendar has, written and freed just before a timed write: on a
    VM whose balloon reports free memory to the host (virtio-balloon free page reporting),
    pages freed more than ~2 s earlier are given back, and the next write into them faults in
    the host, in the guest's kernel memcpy: 647 MB then cost 1.25-1.54 s of system CPU instead
    of 0.15-0.34 s, for `cp` as for coolcal. Each write row (the `cp` floor too) starts alike."""
    scratch = os.path.join(work, "scratch.ics")
    shutil.copyfile(cal, scratch)
    os.remove(scratch)


def _fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)


def rows(coolcal, invite, cal, runs, env, tag):
    """Figures for accept, accept again and merge on `cal`; a refusal is kept, not fatal."""
    work = os.path.join(OUT, "work")
    os.makedirs(work, exist_ok=True)
    target, state = os.path.join(work, "accept.ics"), os.path.join(work, "state")
    spool = os.path.join(work, "spool")
    wenv = dict(env, COOLCAL_STATE=state)

    def fresh_copy():
        shutil.copyfile(cal, target)
        _fresh(state)
        _warm(cal, work)

    # The bytes written once: `cp` of the calendar into a new file, prepared as `accept`
    # is (a fresh copy of the calendar beside it), the floor of a write that keeps them all.
    copied = os.path.join(work, "copied.ics")

    def fresh_target():
        if os.path.exists(copied):
            os.remove(copied)
        fresh_copy()

    floor = measure("cp", ["/bin/cp", cal, copied], runs, ok_codes=(0,), setup=fresh_target, tolerate=True)
    new = measure("accept", [coolcal, "accept", invite, target], runs, ok_codes=(0,),
                  env=wenv, setup=fresh_copy, tolerate=True)
    fresh_copy()
    again = measure("accept again", [coolcal, "accept", invite, target], runs, ok_codes=(0,),
                    env=wenv, tolerate=True)

    def fresh_spool():
        _fresh(spool)
        for inv in SPOOL_INVITES:
            with open(os.path.join(spool, f"invite-{inv['id']}.json"), "w") as f:
                json.dump(inv, f)
        fresh_copy()

    merge = measure("merge 10", [coolcal, "merge", "--me", "bench@example.org", "--spool", spool, "--policy", "accept-all", target], runs,
                    ok_codes=(0, 1), env=wenv, setup=fresh_spool, tolerate=True)
    for p in (target, spool, state, copied):
        shutil.rmtree(p, ignore_errors=True) if os.path.isdir(p) else (os.path.exists(p) and os.remove(p))
    return {"cp (the bytes written once)": floor, "accept": new, "accept again": again, "merge 10": merge}
