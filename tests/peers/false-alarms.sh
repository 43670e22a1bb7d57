#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# False-alarm benchmark for the anomaly marks: RUNS short quiet runs (pipe
# same-cpu and same-socket, udpping same-socket, a few seconds each), the
# anomaly marks counted by kind; then RUNS runs with a CPU hog pinned to
# HOG_CPU (a CPU the same-socket jobs use), counted the same way.  It prints
# figures; it does not judge.  V (noisy) and cpu-steal are true statements
# on a noisy host and are counted apart from the marks that claim a cause
# (D L N O).  Then RUNS runs with a hog on FLIP_CPU (a CPU every job uses)
# switched on for 1.5 s and off for 2 s throughout: the machine changes under
# the runs, which V (noisy) should say.  SERIES picks which series run.
#
#   RUNS=20 sh tests/peers/false-alarms.sh       (about 20 minutes on 2 CPUs)
PB=${PINBENCH:-./pinbench}
RUNS=${RUNS:-20}
HOG_CPU=${HOG_CPU:-1}
FLIP_CPU=${FLIP_CPU:-0}
SERIES=${SERIES:-quiet hog flip}
OUT=${TMPDIR:-/tmp}/pinbench-false-alarms.$$
mkdir -p "$OUT" || exit 2
trap 'kill $hog $flip 2>/dev/null; rm -rf "$OUT"' EXIT
trap 'exit 1' HUP INT TERM
cat >"$OUT/job.ini" <<'INI'
[global]
repeats=3
warmup=0.3
duration=1

[pipe]
bench=pipe
placement=same-cpu,same-socket

[udpping]
bench=udpping
duration=0.5
placement=same-socket
INI

series() {	# NAME: RUNS runs into $OUT/NAME-*.json
	i=1
	while [ "$i" -le "$RUNS" ]; do
		$PB run "$OUT/job.ini" -q --format json -o "$OUT/res" \
			>"$OUT/$1-$i.json" 2>"$OUT/$1-$i.err" ||
			echo "# $1 run $i exited $? (see its JSON)" >&2
		i=$((i + 1))
	done
}

flipper() {	# a hog on FLIP_CPU, 1.5 s on, 2 s off, until killed
	trap 'kill $h 2>/dev/null; exit 0' TERM
	while :; do
		taskset -c "$FLIP_CPU" sh -c 'while :; do :; done' &
		h=$!
		sleep 1.5
		kill $h
		sleep 2
	done
}

for s in $SERIES; do
	case $s in
	hog)	taskset -c "$HOG_CPU" sh -c 'while :; do :; done' &
		hog=$!;;
	flip)	flipper &
		flip=$!;;
	esac
	series "$s"
	kill $hog $flip 2>/dev/null
	hog= flip=
done

python3 - "$OUT" "$RUNS" "$HOG_CPU" $SERIES <<'PY'
import glob, json, sys
from collections import Counter
out, runs, hog_cpu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
MARK = {"counter-multiplexed": "M", "frequency-drift": "D", "frequency-low": "L",
        "counter-clock-mismatch": "C", "observer-effect": "O", "noisy-neighbor": "N",
        "noisy": "V", "migration": "G", "throttling": "T", "lost": "X"}
CLAIMS = "DLNO"
for name in sys.argv[4:]:
    rows = Counter()          # (job/placement, mark) -> rows with it
    runs_with = Counter()     # mark -> runs with it anywhere
    info = Counter()
    cells = Counter()
    hog_rows = hog_n = claimed = 0
    calm = calm_v = 0         # rows without N or cpu-steal, and V among them
    said, vsaid = [], []
    files = sorted(glob.glob("%s/%s-*.json" % (out, name)))
    for f in files:
        try:
            d = json.load(open(f))
        except ValueError:
            continue
        seen = set()
        for a in d.get("anomalies", []):
            if a["severity"] != "info":
                m = MARK.get(a["kind"], "!" + a["kind"])
                rows[("run", m)] += 1
                cells["run"] += 0
                seen.add(m[0])
        for j in d["jobs"]:
            cell = "%s/%s" % (j["name"], j["placement"])
            cells[cell] += 1
            uses_hog = any(c["planned"] == hog_cpu for c in j["cpus"])
            got_n = False
            for a in j["anomalies"]:
                if a["severity"] == "info":
                    info[a["kind"]] += 1
                    continue
                m = MARK.get(a["kind"], "!" + a["kind"])
                rows[(cell, m)] += 1
                seen.add(m[0])
                if m in CLAIMS and m != "N" or (m == "N" and not uses_hog):
                    said.append("%s %s: %s" % (cell, m, a["message"]))
                got_n |= m == "N"
                if m == "V":
                    vsaid.append("%s: %s" % (cell, a["message"]))
            kinds = set(a["kind"] for a in j["anomalies"] if a["severity"] != "info")
            if not kinds & {"noisy-neighbor", "cpu-steal"}:
                calm += 1
                calm_v += "noisy" in kinds
            if uses_hog:
                hog_rows += 1
                hog_n += got_n
        for m in seen:
            runs_with[m] += 1
        claimed += bool(seen & set(CLAIMS))
    cells["run"] = len(files)
    print("%s: %d runs, %d rows" % (name, len(files), sum(cells.values()) - len(files)))
    print("  runs with D, L, N or O anywhere: %d of %d" % (claimed, len(files)))
    for m in sorted(runs_with):
        print("  runs with %-3s %3d of %d" % (m, runs_with[m], len(files)))
    for (cell, m), n in sorted(rows.items()):
        print("  %-22s %-3s %3d of %d rows" % (cell, m, n, cells[cell]))
    for k, n in sorted(info.items()):
        print("  info %-18s %3d notes" % (k, n))
    nv = sum(n for (cell, m), n in rows.items() if m == "V" and cell != "run")
    print("  rows with V: %d of %d" % (nv, sum(cells.values()) - len(files)))
    print("  rows with V among rows without N or cpu-steal: %d of %d" % (calm_v, calm))
    for line in vsaid[:6]:
        print("  V said:", line[:200])
    for line in said[:10]:
        print("  said:", line[:200])
    if name == "hog":
        print("  rows on cpu%d flagged N: %d of %d" % (hog_cpu, hog_n, hog_rows))
PY
