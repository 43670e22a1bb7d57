# SPDX-License-Identifier: GPL-2.0-only
"""The result JSON of a short udpping or rr run (tests/e2e/udpping.sh, rr.sh).

net_check.py BENCH JSON [MODE]: every job ok or skipped (with a reason), at
least one ok; MODE ok (the default): per repeat ops > 0, value > 0 (udpping:
rtt = (elapsed - lost_wait_s)/ops; rr: trans/s = ops/(elapsed - lost_wait_s),
every stream busy), percentiles ordered, planned CPU == seen CPU, stale at
most lost plus the timeouts outside the windows, loss_rate = lost/(lost + ops); lost: the same and lost > 0 somewhere;
loss:K (drop_every=K, one stream): the same, and the loss is what K implies
(1 in K round trips, per repeat and per job), and the waits for lost replies
stay out of the metric: per repeat the round trip the value says is not
half the waits (timeout/K, 2500 us for K=20 and 50 ms) over the mean
latency of the completed ones.  Not exactly that mean: the value also
holds the time between round trips (a client preempted on a loaded
machine), as it always has, and with a few starved round trips in a window
its edges weigh; not against p50: those few can put the mean far above it.
ends: only the status; skipped: every job skipped with a reason, none ran
(a job this machine cannot place, e.g. 2 streams on one CPU).  Prints what
is wrong, exits 1.
"""
import json
import sys

# What differs between the benches: the metric, how a repeat's value follows
# from its ops and elapsed time, and whether it has streams (a client and a
# server task each).
BENCHES = {
    "udpping": {
        "metric": "rtt", "better": "lower", "unit": "rtt",
        "formula": "(elapsed - lost_wait_s)/ops",
        "value": lambda r: busy(r) * 1e6 / max(r["ops"], 1), "streams": False,
        "rtt_us": lambda r: r["value"],
    },
    "rr": {
        "metric": "transactions", "better": "higher", "unit": "trans/s",
        "formula": "ops/(elapsed - lost_wait_s)", "value": lambda r: r["ops"] / busy(r),
        "streams": True, "rtt_us": lambda r: 1e6 / r["value"],
    },
}


def busy(r):
    """The window less the time spent waiting for lost replies."""
    return r["elapsed_s"] - r["lost_wait_s"]


def check_loss(b, j, r, where, every, bad):
    """loss:K: one round trip in K lost, and no wait in the value."""
    n = r["lost"] + r["ops"]
    if abs(r["lost"] - n / every) > 2 + r["stale"]:
        bad.append("%s: %d lost of %d round trips, drop_every=%d implies %.1f"
                   % (where, r["lost"], n, every, n / every))
    mean, rtt = r["latency"]["mean"], b["rtt_us"](r)
    wait_us = int(j["params"]["timeout_ms"]) * 1e3 / every	# per round trip, if counted
    if rtt - mean > wait_us / 2:
        bad.append("%s: the value says %.2f us a round trip, the completed ones took "
                   "%.2f us on average (the waits would add %.0f us)"
                   % (where, rtt, mean, wait_us))


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
    if any(k not in r for k in ("lost", "stale", "loss_rate", "lost_wait_s")):
        bad.append(where + ": no lost/stale/loss_rate/lost_wait_s")
        return 0
    if abs(r["loss_rate"] - r["lost"] / (r["lost"] + r["ops"])) > 1e-9:
        bad.append("%s: loss_rate %g is not lost/(lost + ops)" % (where, r["loss_rate"]))
    if not 0 <= r["lost_wait_s"] < r["elapsed_s"] or (r["lost"] == 0 and r["lost_wait_s"]):
        bad.append("%s: lost_wait_s %g (lost %d)" % (where, r["lost_wait_s"], r["lost"]))
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


def check_job(b, j, where, bad, every=0):
    """An ok job; returns (every repeat had round trips, lost datagrams).
    A window without ops (a busy shared VM can starve a task for a whole
    short window) is fine when it says so (a stall, no value)."""
    lost = 0
    if j["metric"]["name"] != b["metric"] or j["metric"]["better"] != b["better"]:
        bad.append(where + ": metric %r" % j["metric"])
    for t in j["cpus"]:
        if t["seen"] != [t["planned"]]:
            bad.append("%s: %s planned CPU %d, seen %r" % (where, t["role"], t["planned"], t["seen"]))
    zero, per = False, None
    for r in j["repeats"]:
        if r["ops"] == 0:
            # on a busy shared VM a CPU can stall for longer than a short
            # window; the repeat must then say so consistently
            print("# %s: a repeat with 0 ops (CPU stalled?), lost %d" % (where, r.get("lost", 0)))
            zero = True
            if r["value"] is not None or not r["stall"] or r["latency"] is not None:
                bad.append("%s: 0 ops but value %r stall %r latency %r"
                           % (where, r["value"], r["stall"], r["latency"]))
            continue
        if r["stall"]:
            bad.append(where + ": a stall with ops")
        lost += check_repeat(b, r, where, bad)
        if every:
            check_loss(b, j, r, where, every, bad)
        if b["streams"]:
            per = check_streams(j, r, where, per, bad)
    if sum(r["ops"] for r in j["repeats"]) <= 0:
        bad.append(where + ": no round trip in any repeat")
    if per and min(per) <= 0:
        bad.append("%s: a stream did nothing in any repeat: %r" % (where, per))
    metric = [r for r in j["repeats"] if r["in_summary"]]
    jl, jo = sum(r["lost"] for r in metric), sum(r["ops"] for r in metric)
    if j.get("lost") != jl or abs(j.get("loss_rate", -1) - jl / max(jl + jo, 1)) > 1e-9:
        bad.append("%s: job lost %r loss_rate %r, its metric repeats %d of %d"
                   % (where, j.get("lost"), j.get("loss_rate"), jl, jl + jo))
    if every and abs(j["loss_rate"] - 1 / every) > 0.5 / every:
        bad.append("%s: loss_rate %g, drop_every=%d implies %g"
                   % (where, j["loss_rate"], every, 1 / every))
    check_stale(j, where, bad)
    return not zero, lost


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
        every = int(mode.split(":")[1]) if mode.startswith("loss:") else 0
        lost += check_job(b, j, where, bad, every)[1]
    if mode == "skipped":
        if not d["jobs"]:
            bad.append("no job at all")
    elif not oks:
        bad.append("no job ran")
    if (mode == "lost" or mode.startswith("loss:")) and lost <= 0:
        bad.append("lost datagrams not counted")
    for m in bad:
        print(m)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
