#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The clock verdicts of a real run, from injected probe readings
# ($PINBENCH_PROBE_FILE) on the fake E5450 tree (nominal 3.00 GHz): steady,
# disturbed, transient and sticky (the 2009 report).  The host's own clock
# plays no part: every probe the run takes reads the injected figures.
. "$(dirname "$0")/lib.sh"
need_pinbench

# clock NAME READINGS: a short same-CPU pipe job, its JSON in $T/NAME.json
clock() {
	printf '%s\n' "$2" >"$T/$1.probe"
	PINBENCH_PROBE_FILE=$T/$1.probe PINBENCH_SYSROOT=tests/sysroot/good \
		"$PB" bench pipe cpus=0,0 events=none --repeats 2 --duration 0.2 \
		--warmup 0.1 -q --format json -o "$T/res" >"$T/$1.json" 2>"$T/$1.err"
	ok $? "$1: the run exits 0" "$T/$1.err"
}
# kinds NAME 'python expression over k (the job's anomaly kinds) and m (messages)'
kinds() {
	python3 - "$T/$1.json" "$2" <<'PY' >"$T/kinds.out" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
k = [a["kind"] for a in j["anomalies"]]
m = " | ".join(a["message"] for a in j["anomalies"])
c = j["clock"][0]
ok = eval(sys.argv[2])
if not ok:
    print("kinds:", k, "\nmessages:", m, "\nclock:", c)
sys.exit(0 if ok else 1)
PY
	ok $? "$1: $3" "$T/kinds.out"
}

clock steady "0: 3000 3002 2998 3001"
kinds steady '"frequency-drift" not in k and "frequency-low" not in k and "probe-disturbed" not in k and c["reprobe"] is None' \
	"no clock verdict, no note, no re-probe"

# two probes before the job (the higher counts), then after, closed, re-probes
clock sticky "0: 3000 3001 2999 3000
0: 3000 3001 2999 3000
0: 2000 2001 1999 2000"
kinds sticky '"frequency-drift" in k and "frequency-low" in k and "persisted over 5 re-probes" in m and "3000 MHz before the job, 2000 MHz after (-33.3 %)" in m and "33.3 % below its nominal 3000 MHz (model-name)" in m' \
	"2009: D and L, confirmed by re-probes (2.0 vs 3.0 GHz)"
kinds sticky 'any(a["kind"] == "frequency-low" and a["severity"] == "error" for a in j["anomalies"]) and c["reprobe"]["median_mhz"] == 2000' \
	"2009: L is an error; the re-probes are in the JSON"

clock transient "0: 3000 3001 2999 3000
0: 3000 3001 2999 3000
0: 1500 1501 1499 1500
0: 3000 3001 2999 3000"
kinds transient '"frequency-drift" not in k and "frequency-low" not in k and "probe-disturbed" in k and "re-probes across" in m and "read 3000 MHz" in m' \
	"a low reading that goes away is probe-disturbed (info), not D or L"
kinds transient 'all(a["severity"] == "info" for a in j["anomalies"] if a["kind"] == "probe-disturbed")' \
	"probe-disturbed is info"

# a CPU still ramping its clock when first probed: the second probe before
# the job, at the clock the job gets, is the one the job is judged against
clock ramp "0: 2880 2881 2879 2880
0: 3000 3001 2999 3000"
kinds ramp '"frequency-drift" not in k and c["before_mhz"] == 3000 and "frequency-low" not in k' \
	"a clock still ramping before the job: the higher before-probe counts, no D"

clock disturbed "0: 3000 1500 3000 1500 3000 1500 3000 1500
0: 1200 off=0.5"
# (events=none: no counter was ever open, so no "closed" probe is taken)
kinds disturbed '"frequency-drift" not in k and "frequency-low" not in k and "probe-disturbed" in k and "disagree" in m and "off the CPU" in m and c["disturbed"] == ["before", "after"] and c["closed_mhz"] is None' \
	"disturbed probes: a note with their figures, no verdict"

# a probe after the job that another task disturbed for a moment is taken
# again at once: the clean one counts, and no second of re-probes is spent
clock retake "0: 3000 3001 2999 3000
0: 3000 3001 2999 3000
0: 3000 off=0.5
0: 3000 3001 2999 3000"
kinds retake 'c["reprobe"] is None and c["disturbed"] == [] and c["after_mhz"] == 3000 and "probe-disturbed" not in k' \
	"a disturbed probe after the job is taken again right away: no re-probes, no note"

# the text table carries no D or L mark for the transient run
PINBENCH_PROBE_FILE=$T/transient.probe PINBENCH_SYSROOT=tests/sysroot/good \
	"$PB" bench pipe cpus=0,0 events=none --repeats 2 --duration 0.2 --warmup 0.1 \
	-o "$T/res" >"$T/text.out" 2>&1
check "transient: the table row has no D or L" sh -c "! grep -E '^ *(cpus|same-cpu) .* [A-Z!]*[DL][A-Z!]*\$' '$T/text.out'"

# two CPUs probed together: the one whose clock dropped is re-probed with its
# batch-mate and judged, the steady one has no re-probe and no verdict
if [ "$C0" != "$C1" ]; then
	printf '%s: 3000 3001 2999 3000\n%s: 3000 3001 2999 3000\n%s: 2000 2001 1999 2000\n%s: 3000 3001 2999 3000\n' \
		"$C0" "$C0" "$C0" "$C1" >"$T/two.probe"
	PINBENCH_PROBE_FILE=$T/two.probe PINBENCH_SYSROOT=tests/sysroot/good \
		"$PB" bench pipe cpus=$C0,$C1 events=none --repeats 2 --duration 0.2 \
		--warmup 0.1 -q --format json -o "$T/res" >"$T/two.json" 2>"$T/two.err"
	ok $? "two CPUs: the run exits 0" "$T/two.err"
	check "two CPUs: the dropped one is re-probed and gets D and L, the steady one neither" \
		pyjson "$T/two.json" 'len(d["jobs"][0]["clock"]) == 2 and [c["reprobe"] is not None for c in d["jobs"][0]["clock"]] == [True, False] and d["jobs"][0]["clock"][0]["reprobe"]["median_mhz"] == 2000 and all(("cpu%d " % '"$C0"') in a["message"] for a in d["jobs"][0]["anomalies"] if a["kind"] in ("frequency-drift", "frequency-low")) and {"frequency-drift", "frequency-low"} <= {a["kind"] for a in d["jobs"][0]["anomalies"]}'
else
	skip "two CPUs: only one CPU here"
	skip "two CPUs: re-probes: only one CPU here"
fi

# a broken injection file is an error, not a silent real probe
printf '0: 3000\n0: fast\n' >"$T/bad.probe"
PINBENCH_PROBE_FILE=$T/bad.probe exits2 "a broken injection file: exit 2, the line named" \
	"PINBENCH_PROBE_FILE: .*bad.probe line 2" "$PB" bench pipe cpus=0,0 events=none \
	--repeats 1 --duration 0.1 -o "$T/res"
PINBENCH_PROBE_FILE=$T/bad.probe exits2 "doctor too" "bad.probe line 2" "$PB" doctor

done_testing
