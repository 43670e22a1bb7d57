# SPDX-License-Identifier: GPL-2.0-only
"""The result JSON of a short udpping or rr run (tests/e2e/udpping.sh, rr.sh).

net_check.py BENCH JSON [MODE]: every job ok or skipped (with a reason), at
least one ok; MODE ok (the default): per repeat with ops, value > 0
(udpping: rtt = elapsed/ops; rr: trans/s = ops/elapsed) and percentiles
ordered; a repeat without ops (a shared VM can stall a CPU for a whole
window) flagged as a stall; round trips over the job, every stream busy;
planned CPU == seen CPU; stale replies no more than the requests that can
have timed out; lost: the same, lost > 0 somewhere and, with drop_every=N,
at least one in N requests lost in every window; ends: only the status;
skipped: every job skipped with a reason, none ran (a job this machine
cannot place, e.g. 2 streams on one CPU).  Prints what is wrong, exits 1.

Only relations that hold however busy the machine is: nothing here may
depend on a window being long enough for this machine to get work done.
"""
import json
import sys

# What differs between the benches: the metric, how a repeat's value follows
# from its ops and elapsed time, and whether it has streams (a client and a
# server task each).
BENCHES = {
    "udpping": {
        "metric": "rtt", "better": "lower", "unit": "rtt", "formula": "elapsed/ops",
        "value": lambda r: r["elapsed_s"] * 1e6 / max(r["ops"], 1), "streams": False,
    },
    "rr": {
        "metric": "transactions", "better": "higher", "unit": "trans/s",
        "formula": "ops/elapsed", "value": lambda r: r["ops"] / r["elapsed_s"],
        "streams": True,
    },
}


def check_streams(j, r, where, per, bad):
    """rr: two tasks per stream; returns the ops per task summed so far."""
    n = int(j["params"]["streams"])
    if len(j["cpus"]) != 2 * n or len(r.get("task_ops", [0, 0])) != 2 * n:
        bad.append("%s: %d tasks for %d streams" % (where, len(j["cpus"]), n))
        return per
    return [a + b for a, b in zip(per or [0] * 2 * n, r["task_ops"])]


def check_repeat(b, r, where, bad):
    """One repeat with ops; returns its lost datagrams."""
    lat = r["latency"] or {}
    q = [lat.get(k, -1) for k in ("min", "p50", "p90", "p99", "p99.9", "max")]
    if r["ops"] <= 0 or r["value"] <= 0:
        bad.append("%s: ops %d %s %g" % (where, r["ops"], b["unit"], r["value"]))
    if q[0] <= 0 or q != sorted(q):
        bad.append("%s: percentiles not ordered: %r" % (where, q))
    if abs(r["value"] - b["value"](r)) > 1e-6 * r["value"]:
        bad.append("%s: %s %g is not %s" % (where, b["unit"], r["value"], b["formula"]))
    if "lost" not in r or "stale" not in r:
        bad.append(where + ": no lost/stale counts")
    return r.get("lost", 0)


def check_stale(j, where, bad):
    """A stale reply answers a request that timed out before: one lost in a
    window, or outside the windows (warm-up, between them), where a client
    task times out at most once per timeout_ms, plus one per boundary."""
    clients = sum(1 for t in j["cpus"] if t["role"] == "client")
    timeout_s = int(j["params"].get("timeout_ms", "100")) / 1000.0
    reps = j["repeats"]
    outside = max(j["wall_s"] - sum(r["elapsed_s"] for r in reps), 0)
    room = clients * (int(outside / timeout_s) + len(reps) + 1)
    stale, lost = sum(r.get("stale", 0) for r in reps), sum(r.get("lost", 0) for r in reps)
    if stale > lost + room:
        bad.append("%s: %d stale replies > %d lost + %d that can have timed out "
                   "outside the windows" % (where, stale, lost, room))


def check_drops(j, where, bad):
    """drop_every=N: the server drops every Nth request it receives, and the
    requests a window resolved reached it one after the other: at least one
    in N of them per client was lost (more when replies came late)."""
    n = int(j["params"].get("drop_every", "0") or 0)
    if n <= 0:
        return
    clients = sum(1 for t in j["cpus"] if t["role"] == "client")
    for i, r in enumerate(j["repeats"]):
        tries = r["ops"] + r.get("lost", 0)
        if r.get("lost", 0) < tries / n - clients:
            bad.append("%s: window %d: %d lost of %d requests, drop_every=%d" %
                       (where, i + 1, r.get("lost", 0), tries, n))


def check_job(b, j, where, bad, mode):
    """An ok job; returns its lost datagrams."""
    lost = 0
    if j["metric"]["name"] != b["metric"] or j["metric"]["better"] != b["better"]:
        bad.append(where + ": metric %r" % j["metric"])
    for t in j["cpus"]:
        if t["seen"] != [t["planned"]]:
            bad.append("%s: %s planned CPU %d, seen %r" % (where, t["role"], t["planned"], t["seen"]))
    per = None
    stalls = [a["message"].split(" no ")[0] for a in j["anomalies"] if a["kind"] == "stall"]
    for i, r in enumerate(j["repeats"]):
        if r["ops"] == 0:
            # on a busy shared VM a CPU can stall for longer than a short
            # window; the repeat must then say so consistently
            print("# %s: a repeat with 0 ops (CPU stalled?), lost %d" % (where, r.get("lost", 0)))
            if r["value"] != 0 or r["latency"] is not None:
                bad.append("%s: 0 ops but value %g latency %r" % (where, r["value"], r["latency"]))
            if "window %d:" % (i + 1) not in stalls:
                bad.append("%s: window %d without ops not flagged as a stall" % (where, i + 1))
            continue
        lost += check_repeat(b, r, where, bad)
        if b["streams"]:
            per = check_streams(j, r, where, per, bad)
    if sum(r["ops"] for r in j["repeats"]) <= 0:
        bad.append(where + ": no round trip in any repeat")
    if per and min(per) <= 0:
        bad.append("%s: a stream did nothing in any repeat: %r" % (where, per))
    check_stale(j, where, bad)
    if mode == "lost":
        check_drops(j, where, bad)
    return lost


def main():
    b = BENCHES[sys.argv[1]]
    d = json.load(open(sys.argv[2]))
    mode = sys.argv[3] if len(sys.argv) > 3 else "ok"
    oks, lost, bad = 0, 0, []
    for j in d["jobs"]:
        where = "%s/%s" % (j["name"], j["placement"])
        if mode == "skipped" and j["status"] != "skipped":
            bad.append("%s: %s, not skipped" % (where, j["status"]))
            continue
        if j["status"] == "skipped":
            if not j["reason"]:
                bad.append(where + ": skipped without a reason")
            continue
        if j["status"] != "ok":
            bad.append("%s: %s: %s" % (where, j["status"], j["reason"]))
            continue
        oks += 1
        if mode == "ends":
            continue
        lost += check_job(b, j, where, bad, mode)
    if mode == "skipped":
        if not d["jobs"]:
            bad.append("no job at all")
    elif not oks:
        bad.append("no job ran")
    if mode == "lost" and lost <= 0:
        bad.append("lost datagrams not counted")
    for m in bad:
        print(m)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
