#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Estimator benchmark: which per-repeat estimator (estimator=) is steadiest
# from one invocation to the next.  RUNS A/A invocations of the same job
# (pipe same-cpu and udpping same-cpu, alternated, REPEATS x DURATION s
# each, no counter passes); every repeat's JSON carries every estimate
# (mean_value, slices.median, slices.trimmed, slices.p50), so one series
# measures them all.  Per workload and estimator it prints the run-to-run
# CV of the per-run value (the mean of its repeats), the within-run CV
# (the CV of the repeats inside one run, averaged over the runs) and the
# outlier slices per repeat.  It prints figures; it does not judge.
#
#   RUNS=12 sh tests/peers/estimators.sh            (about 3 minutes on 2 CPUs)
#   LOCK=/tmp/measure.lock ...  runs each invocation under flock LOCK
PB=${PINBENCH:-./pinbench}
RUNS=${RUNS:-12}
REPEATS=${REPEATS:-3}
DURATION=${DURATION:-1.5}
CPU=${CPU:-0}
OUT=${TMPDIR:-/tmp}/pinbench-estimators.$$
mkdir -p "$OUT" || exit 2
trap 'rm -rf "$OUT"' EXIT
trap 'exit 1' HUP INT TERM

one() {		# BENCH I
	${LOCK:+flock "$LOCK"} $PB bench "$1" cpus="$CPU,$CPU" repeats="$REPEATS" \
		duration="$DURATION" warmup=0.5 events=none estimator=mean \
		-q --format json -o "$OUT/res" >"$OUT/$1-$2.json" 2>"$OUT/$1-$2.err" ||
		echo "# $1 run $2 exited $? (see $OUT/$1-$2.err)" >&2
}

i=1
while [ "$i" -le "$RUNS" ]; do	# A B A B: drift lands on both
	one pipe "$i"
	one udpping "$i"
	i=$((i + 1))
done

python3 - "$OUT" <<'PY'
import glob, json, statistics as st, sys
out = sys.argv[1]
EST = (("mean", lambda r: r.get("mean_value")),
       ("median", lambda r: r.get("slices", {}).get("median")),
       ("trimmed", lambda r: r.get("slices", {}).get("trimmed")),
       ("p50", lambda r: r.get("slices", {}).get("p50")))
def cv(v):
    return st.stdev(v) / st.mean(v) if len(v) > 1 and st.mean(v) else float("nan")
for bench in ("pipe", "udpping"):
    runs = []
    for f in sorted(glob.glob("%s/%s-*.json" % (out, bench))):
        try:
            d = json.load(open(f))
        except ValueError:
            continue
        reps = [r for j in d["jobs"] if j["status"] == "ok"
                for r in j["repeats"] if r.get("in_summary") and not r.get("stall")]
        if reps:
            runs.append(reps)
    if not runs:
        print("%s: no run finished" % bench)
        continue
    unit = d["jobs"][0]["metric"]["unit"]
    nsl = [r["slices"]["n"] for reps in runs for r in reps]
    outl = [r["slices"]["outliers"] for reps in runs for r in reps]
    print("%s same-cpu: %d runs x %d repeats, %d slices per repeat, "
          "outlier slices per repeat: mean %.1f, max %d"
          % (bench, len(runs),
             len(runs[0]), round(st.mean(nsl)), st.mean(outl), max(outl)))
    print("  %-8s %12s %12s %12s" % ("estimator", "value (%s)" % unit, "between-run",
                                     "within-run"))
    best = None
    for name, get in EST:
        per_run, within = [], []
        for reps in runs:
            v = [get(r) for r in reps]
            if any(x is None for x in v):
                break
            per_run.append(st.mean(v))
            within.append(cv(v))
        else:
            b = cv(per_run)
            print("  %-8s %12.4f %11.2f %% %11.2f %%" % (name, st.mean(per_run), 100 * b,
                                                      100 * st.mean(within)))
            if best is None or b < best[1]:
                best = (name, b)
    print("  lowest between-run CV: %s" % best[0])
PY
