#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# How often a verdict at the level of the variance is wrong, on this
# machine: A/A in blocks judged with a calibrated noise profile, A/A
# alternated, the power for an injected +5 % in blocks, and whether the
# "resolves ±X %" compare states holds (a change of X found in 80 % of
# block pairs).  It prints figures; it does not judge.
#
# A block is R consecutive runs of the job, each its own invocation (as a
# kernel's runs after one boot are); a block pair is two blocks in a row
# judged as two kernels: `pinbench compare --noise PROFILE`.  One boot a
# side, so the verdict rests on the profile's between figure (the
# invocations', standing in for boots) and is widened by it.
#
# Phase 1: `pinbench calibrate` of the job (--precision, default 50 %).
# Phase 2: PAIRS cycles of three blocks: A, A2, B5 (B5 = A with the
#   reader spinning test_spin_ns for +5 % of the round trip, nominal:
#   the measured change is printed).  (A, A2) is an A/A block pair,
#   (A2, B5) a +5 % block pair, and the 2R runs of A and A2 split by
#   parity are an alternated A/A pair.
# Phase 3: X = the median "resolves" of the A/A block pairs; PAIRS cycles
#   of A, BX blocks (BX: +X % nominal): how often X is found.
#
#   sh tests/peers/levels.sh                 (R=3 PAIRS=40: about 20 minutes)
#   CPU=0 R=3 PAIRS=40 REPEATS=2 DURATION=0.3 WARMUP=0.1 PRECISION=50 KEEP=1
#   ANALYSE=DIR judges the runs kept in DIR again
PB=${PINBENCH:-./pinbench}
CPU=${CPU:-0}
R=${R:-3}
PAIRS=${PAIRS:-40}
REPEATS=${REPEATS:-2}
DURATION=${DURATION:-0.3}
WARMUP=${WARMUP:-0.1}
PRECISION=${PRECISION:-50}
OUT=${ANALYSE:-${TMPDIR:-/tmp}/pinbench-levels.$$}
mkdir -p "$OUT" || exit 2
[ -n "$KEEP$ANALYSE" ] || trap 'rm -rf "$OUT"' EXIT
trap 'exit 1' HUP INT TERM

job() {	# SPIN: the job file on stdout
	cat <<INI
[global]
bench=pipe
repeats=$REPEATS
duration=$DURATION
warmup=$WARMUP
events=none

[rtt]
cpus=$CPU,$CPU
test_spin_ns=$1
INI
}

run() {	# SPIN DIR: one run (one invocation) into DIR
	job "$1" >"$OUT/job-$1.ini"
	$PB run "$OUT/job-$1.ini" --wait -q -o "$2" >/dev/null 2>"$OUT/err" ||
		{ echo "# a run failed:" >&2; cat "$OUT/err" >&2; }
}

block() {	# SPIN DIR: R runs
	i=0
	while [ $i -lt "$R" ]; do
		run "$1" "$2/$i"
		i=$((i + 1))
	done
}

mean_rtt() {	# DIR: the mean of the runs' means under DIR
	python3 - "$1" <<'PY'
import glob, json, sys
v = [j["summary"]["mean"] for f in glob.glob(sys.argv[1] + "/**/*.json", recursive=True)
     for j in json.load(open(f))["jobs"] if j.get("summary")]
print(sum(v) / len(v))
PY
}

if [ -z "$ANALYSE" ]; then
	t0=$(date +%s)
	job 0 >"$OUT/job-0.ini"
	$PB calibrate --precision "$PRECISION" -o "$OUT/profile.json" "$OUT/job-0.ini" \
		>"$OUT/cal.out" 2>"$OUT/cal.err" || { cat "$OUT/cal.err" >&2; exit 1; }
	echo "# calibrate: $(( $(date +%s) - t0 )) s"
	sed 's/^/#   /' "$OUT/cal.out"
	run 0 "$OUT/first"
	rtt=$(mean_rtt "$OUT/first")
	spin5=$(python3 -c "print(round(0.05 * $rtt * 1e3))")
	echo "# rtt $rtt µs; +5 % nominal: test_spin_ns=$spin5"
	t1=$(date +%s)
	c=0
	while [ $c -lt "$PAIRS" ]; do
		block 0 "$OUT/p2/$c/A"
		block 0 "$OUT/p2/$c/A2"
		block "$spin5" "$OUT/p2/$c/B5"
		c=$((c + 1))
	done
	echo "# phase 2: $(( $(date +%s) - t1 )) s for $PAIRS cycles of 3 blocks of $R runs"
fi

# judge: DIR_A DIR_B blocks|alt noise|none -> one json line of compare's row
judge() {
	python3 - "$PB" "$OUT/profile.json" "$@" <<'PY'
import glob, json, os, subprocess, sys, tempfile
pb, prof, da, db, parity, mode = sys.argv[1:7]
fa = sorted(glob.glob(da + "/**/*.json", recursive=True), key=lambda f: json.load(open(f))["started"])
fb = sorted(glob.glob(db + "/**/*.json", recursive=True), key=lambda f: json.load(open(f))["started"])
if parity == "alt":	# the 2R runs in time order, odd against even
    allr = sorted(fa + fb, key=lambda f: json.load(open(f))["started"])
    fa, fb = allr[0::2], allr[1::2]
with tempfile.TemporaryDirectory() as t:
    args = []
    for label, fs in (("X0", fa), ("X1", fb)):
        for i, f in enumerate(fs):
            d = json.load(open(f))
            d["label"] = label
            q = os.path.join(t, "%s-%d.json" % (label, i))
            json.dump(d, open(q, "w"))
            args.append(q)
    noise = ["--noise", prof] if mode == "noise" else []
    r = subprocess.run([pb, "compare", "--format", "json", "--order", "given", "--baseline", "X0",
                        "--allow-different", "test_spin_ns"] + noise + args,
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit("compare failed: " + r.stderr)
    row = [x for x in json.loads(r.stdout)["results"] if x["label"] == "X1"][0]
    print(json.dumps({k: row.get(k) for k in ("significant", "change", "change_ci95", "resolves",
                                                 "verdict_level", "verdict", "tested_unit")}))
PY
}

tally() {	# NAME FILE: how many of the judged pairs were significant
	python3 - "$@" <<'PY'
import json, statistics as st, sys
name, f = sys.argv[1:3]
rows = [json.loads(l) for l in open(f) if l.strip()]
sig = sum(bool(r["significant"]) for r in rows)
res = [r["resolves"] for r in rows if r["resolves"] is not None]
ch = [r["change"] for r in rows if r["change"] is not None]
lv = sorted(set(str(r["verdict_level"]) for r in rows))
print("%-28s %2d of %2d significant (%4.1f %%); median change %+.2f %%, median resolves ±%.1f %%; "
      "level %s" % (name, sig, len(rows), 100.0 * sig / max(1, len(rows)),
                    st.median(ch) if ch else float("nan"), st.median(res) if res else float("nan"),
                    ", ".join(lv)))
PY
}

: >"$OUT/aa-blocks"; : >"$OUT/aa-alt"; : >"$OUT/b5"
: >"$OUT/aa-blocks-w"; : >"$OUT/aa-alt-w"; : >"$OUT/b5-w"
c=0
while [ -d "$OUT/p2/$c" ]; do
	judge "$OUT/p2/$c/A" "$OUT/p2/$c/A2" blocks noise >>"$OUT/aa-blocks"
	judge "$OUT/p2/$c/A" "$OUT/p2/$c/A2" alt noise >>"$OUT/aa-alt"
	judge "$OUT/p2/$c/A2" "$OUT/p2/$c/B5" blocks noise >>"$OUT/b5"
	judge "$OUT/p2/$c/A" "$OUT/p2/$c/A2" blocks none >>"$OUT/aa-blocks-w"
	judge "$OUT/p2/$c/A" "$OUT/p2/$c/A2" alt none >>"$OUT/aa-alt-w"
	judge "$OUT/p2/$c/A2" "$OUT/p2/$c/B5" blocks none >>"$OUT/b5-w"
	c=$((c + 1))
done
echo "R = $R runs a block, $REPEATS repeats x $DURATION s a run, pipe cpus=$CPU,$CPU"
echo "judged with the profile (one boot a side, widened by its between figure):"
tally "A/A in blocks" "$OUT/aa-blocks"
tally "A/A alternated" "$OUT/aa-alt"
tally "+5 % (nominal) in blocks" "$OUT/b5"
echo "judged without it (changed within its boot at most: the invocations as the units):"
tally "A/A in blocks" "$OUT/aa-blocks-w"
tally "A/A alternated" "$OUT/aa-alt-w"
tally "+5 % (nominal) in blocks" "$OUT/b5-w"
python3 - "$OUT" "$R" <<'PY'
import glob, json, math, os, statistics as st, sys
out, R = sys.argv[1], int(sys.argv[2])
def block(d):
    return [math.log(j["summary"]["mean"]) for f in glob.glob(d + "/**/*.json", recursive=True)
            for j in json.load(open(f))["jobs"] if j.get("summary")]
bl = []
c = 0
while os.path.isdir("%s/p2/%d" % (out, c)):
    bl += [block("%s/p2/%d/A" % (out, c)), block("%s/p2/%d/A2" % (out, c))]
    c += 1
bl = [b for b in bl if len(b) > 1]
vi = st.mean(st.variance(b) for b in bl)
bm = [st.mean(b) for b in bl]
sb = math.sqrt(max(0, st.variance(bm) - vi / R))
d = [bm[2 * i + 1] - bm[2 * i] for i in range(len(bm) // 2)]
print("why: the invocations of a block vary by %.1f %% (sd of ln); the blocks' means by %.1f %%,"
      " %.1f %% of it above the invocations (the machine drifts over minutes); consecutive"
      " blocks differ by %.1f %% (%.1f %% expected from the invocations alone)" % (
      100 * math.sqrt(vi), 100 * st.stdev(bm), 100 * sb, 100 * st.stdev(d),
      100 * math.sqrt(2 * vi / R)))
PY
echo "the +5 % spin measured, all B5 runs against all A and A2 runs:" \
	"$(python3 -c "print('%+.2f %%' % (100 * ($(mean_rtt "$OUT/p2/*/B5") / $(mean_rtt "$OUT/p2/*/A*") - 1)))")"

X=$(python3 -c "
import json, statistics as st
print('%.1f' % st.median(json.loads(l)['resolves'] for l in open('$OUT/aa-blocks') if l.strip()))")
if [ -z "$ANALYSE" ] || [ ! -d "$OUT/p3" ]; then
	rtt=$(mean_rtt "$OUT/p2/0/A")
	spinx=$(python3 -c "print(round($X / 100 * $rtt * 1e3))")
	echo "# phase 3: X = ±$X %: test_spin_ns=$spinx"
	c=0
	while [ $c -lt "$PAIRS" ]; do
		block 0 "$OUT/p3/$c/A"
		block "$spinx" "$OUT/p3/$c/BX"
		c=$((c + 1))
	done
fi
: >"$OUT/bx"
c=0
while [ -d "$OUT/p3/$c" ]; do
	judge "$OUT/p3/$c/A" "$OUT/p3/$c/BX" blocks noise >>"$OUT/bx"
	c=$((c + 1))
done
tally "+$X % (the resolution)" "$OUT/bx"
echo "what the profile says ±5 % takes (run --dry-run --noise, $R rounds a boot):"
$PB run --dry-run --noise "$OUT/profile.json" --rounds "$R" --min-change 5 "$OUT/job-0.ini" |
	sed -n 's/^  \(rtt\|  \)/&/p'
[ -n "$KEEP" ] && echo "runs kept in $OUT"
