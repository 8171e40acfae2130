#!/usr/bin/env python3
"""Check a scenario store against its truth: for every phase of truth.json,
the mean GPU utilisation nvidia-smi shows in the phase's window and how the
driver goroutine spent it (go_state clipped to the window, by state and
reason, and its mark assists), from a store made with

    trace-import -d s.db tests/data/scenario && trace-align -d s.db

Usage: check.py STORE TRUTH.json     (prints one line per phase)
Exit status 1 when an injected phase's utilisation is not below 30%, a
normal phase's not above 70%, or the driver's dominant state is not the
one its cause implies.
"""
import json
import sqlite3
import sys

# The driver's state (go_state.state/reason, or "assist") that each cause
# should make dominant, other than its wait for the GPU (blocked in a
# syscall while a kernel runs).
EXPECT = {
    "gc": {"assist", "running"},
    "chan": {"blocked/chan recv"},
    "sync": {"blocked/sync"},
    "syscall": {"blocked/syscall", "syscall/syscall"},
    "cpu": {"running"},
    "sched": {"runnable/syscall", "runnable/preempted",
              "runnable/unblocked"},
    "sleep": {"blocked/sleep"},
    "net": {"blocked/net"},
}


def clip(db, goid, a, b):
    """Seconds of each state/reason of goroutine goid within [a, b)."""
    q = """SELECT state, coalesce(reason, ''),
                  sum(min(ts + dur, ?2) - max(ts, ?1))
             FROM go_state
            WHERE goid = ?3 AND run_ts < ?2 AND run_end_ts > ?1
              AND ts < ?2 AND ts + dur > ?1
            GROUP BY 1, 2"""
    out = {}
    for st, why, ns in db.execute(q, (a, b, goid)):
        out[st + ("/" + why if why else "")] = ns / 1e9
    q = """SELECT sum(min(ts + dur, ?2) - max(ts, ?1)) FROM go_gc
            WHERE name = 'mark assist' AND json_extract(args, '$.goid') = ?3
              AND run_ts < ?2 AND run_end_ts > ?1
              AND ts < ?2 AND ts + dur > ?1"""
    assist = db.execute(q, (a, b, goid)).fetchone()[0] or 0
    return out, assist / 1e9


def gpu_busy_wait(db, goid, a, b):
    """The driver's blocked syscall time while a kernel ran: its GPU wait,
    taken as the blocked/syscall slices whose stack is in device.kernel."""
    q = """SELECT sum(min(g.ts + g.dur, ?2) - max(g.ts, ?1))
             FROM go_state g
            WHERE g.goid = ?3 AND g.run_ts < ?2 AND g.run_end_ts > ?1
              AND g.ts < ?2 AND g.ts + g.dur > ?1
              AND g.state = 'blocked' AND g.reason = 'syscall'
              AND EXISTS (SELECT 1 FROM stack s JOIN frame f
                           ON f.id = s.frame_id
                          WHERE s.callsite_id = g.callsite_id
                            AND f.name = 'main.(*device).kernel')"""
    return (db.execute(q, (a, b, goid)).fetchone()[0] or 0) / 1e9


def waker(db, goid, a, b):
    """The goroutine that woke goid most often in [a, b), its function,
    and its dominant state over the window."""
    q = """SELECT json_extract(args, '$.waker') w, count(*)
             FROM go_state
            WHERE goid = ?3 AND state = 'runnable' AND reason = 'unblocked'
              AND run_ts < ?2 AND run_end_ts > ?1 AND ts < ?2 AND ts >= ?1
            GROUP BY w ORDER BY 2 DESC LIMIT 1"""
    row = db.execute(q, (a, b, goid)).fetchone()
    if not row or row[0] is None:
        return None, None, None
    w = row[0]
    name = db.execute("SELECT name FROM go_goroutine WHERE goid = ?",
                      (w,)).fetchone()[0]
    states, _ = clip(db, w, a, b)
    top = max(states.items(), key=lambda kv: kv[1])[0] if states else None
    return w, name, top


def main():
    db = sqlite3.connect(sys.argv[1])
    truth = json.load(open(sys.argv[2]))
    goid = truth["driver_goid"]
    bad = 0
    print("phase    cause    window_s  smi_util  true_busy  "
          "driver (s, GPU wait excluded)")
    for p in truth["phases"]:
        a, b = p["start_ns"], p["end_ns"]
        util = db.execute(
            "SELECT avg(value), count(*) FROM gpu_metric"
            " WHERE metric = 'utilization.gpu' AND ts > ? AND ts <= ?",
            (a, b)).fetchone()
        states, assist = clip(db, goid, a, b)
        wait = gpu_busy_wait(db, goid, a, b)
        if "blocked/syscall" in states:
            states["blocked/syscall"] -= wait
        if assist:
            states["assist"] = assist
            states["running"] = states.get("running", 0) - assist
        top = sorted(states.items(), key=lambda kv: -kv[1])
        desc = ", ".join("%s %.2f" % kv for kv in top[:4] if kv[1] > 0.005)
        cause = p["cause"] or "-"
        print("%-8s %-8s %8.2f  %8.1f  %9.3f  gpu-wait %.2f; %s" %
              (p["name"], cause, (b - a) / 1e9, util[0] or 0,
               p["gpu_busy_share"], wait, desc))
        if p.get("waker_function"):
            w, name, wtop = waker(db, goid, a, b)
            print("  woken by goroutine %s %s, mostly %s" % (w, name, wtop))
            want = p.get("waker_state")
            if name != p["waker_function"] or want and \
                    (wtop is None or wtop.split("/")[-1] != want and
                     wtop != want):
                print("  FAIL: expected the waker %s mostly %s" %
                      (p["waker_function"], want))
                bad = 1
        if p["cause"]:
            if (util[0] or 100) >= 30:
                print("  FAIL: utilisation not below 30%")
                bad = 1
            if top[0][0] not in EXPECT[p["cause"]]:
                print("  FAIL: dominant state %s, expected %s" %
                      (top[0][0], sorted(EXPECT[p["cause"]])))
                bad = 1
        elif (util[0] or 0) <= 70:
            print("  FAIL: normal training below 70%")
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
