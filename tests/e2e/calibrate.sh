#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End to end: pinbench calibrate on a tiny job (pipe, 0.05 s windows, two
# rounds, three blocks).  The profile it writes is a pinbench-noise/1
# (against schemas/ when python3-jsonschema is there); it covers the
# invocation and run levels of this one boot, not the boot level, and its
# between figure is the invocations' standing in, with df = blocks - 1.
# compare --noise names it in its header, finds it in a results folder
# without --noise, and says why it does not use one of another host
# class; report and nightly name it too.  calibrate --from result files of two boots measures the boot
# level.  Usage errors exit 2.
. "$(dirname "$0")/lib.sh"
need_pinbench

cat >"$T/tiny.ini" <<'EOF'
[global]
repeats=2
warmup=0
duration=0.05
rounds=2

[pingpong]
bench=pipe
placement=same-cpu
EOF

mkdir "$T/tmp"
TMPDIR=$T/tmp $PB calibrate --blocks 3 -o "$T/prof" "$T/tiny.ini" >"$T/cal.out" 2>"$T/cal.err"
ok $? "calibrate --blocks 3 of a tiny job" "$T/cal.err"
P=$(sed -n 's/^noise profile: //p' "$T/cal.out")
[ -f "$P" ] && case $P in "$T/prof/noise-"*.json) true ;; *) false ;; esac
ok $? "it names its profile, DIR/noise-CLASS-DATE.json: $P" "$T/cal.out"
grep -q "block 3 of 3" "$T/cal.err"
ok $? "three blocks ran" "$T/cal.err"
check "no temporary folder of runs is left" sh -c "! ls -A '$T/tmp' | grep -q ."

if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	check "the profile is a valid pinbench-noise/1" /usr/bin/python3 tests/e2e/schemas.py "$P"
else
	skip "no python3-jsonschema"
fi
check "schema and one table, pingpong same-cpu" pyjson "$P" \
	'(d["schema"] == "pinbench-noise/1" and len(d["tables"]) == 1 and
	  d["tables"][0]["job"] == "pingpong" and d["tables"][0]["placement"] == "same-cpu")'
check "the job's keys are there" pyjson "$P" \
	'd["tables"][0]["params"]["bench"] == "pipe" and d["tables"][0]["params"]["size"] == "0"'
check "3 invocations, 6 runs, one boot" pyjson "$P" \
	'(d["tables"][0]["invocations"] == 3 and d["tables"][0]["runs"] == 6 and
	  d["tables"][0]["boots"] == 1 and len(d["boot_ids"]) == 1)'
check "it covers invocation and run, not the boot level" pyjson "$P" \
	'(d["covers"] == ["invocation", "run"] and not d["boot"]["covered"] and
	  not d["tables"][0]["levels"]["boot"]["covered"] and
	  d["tables"][0]["levels"]["invocation"]["df"] == 2 and
	  d["tables"][0]["levels"]["run"]["df"] == 3)'
check "the between figure is the invocations', standing in, df 2" pyjson "$P" \
	'(lambda t, b: b["stands_in"] and b["level"] == "invocation" and b["df"] == 2 and
	  b["sd"] == t["levels"]["invocation"]["sd"])(d["tables"][0], d["tables"][0]["between"])'
check "host class, kernel and date" pyjson "$P" \
	'("; " in d["host_class"] and d["kernel"] == __import__("os").uname().release and
	  d["date"].endswith("Z"))'

# two labels to compare, beside the profile
$PB run -q --label A -o "$T/res" "$T/tiny.ini" >/dev/null 2>"$T/why"
rca=$(ran $?)
$PB run -q --label B -o "$T/res" "$T/tiny.ini" >/dev/null 2>"$T/why"
ok $([ $rca = 0 ] && [ "$(ran $?)" = 0 ] && echo 0 || echo 1) "two short runs to compare" "$T/why"
$PB compare --noise "$P" "$T/res" >"$T/cmp.out" 2>"$T/cmp.err"
ok $? "compare --noise P" "$T/cmp.err"
head -n 1 "$T/cmp.out" | grep -qF "noise profile: $P ("
ok $? "its header names the profile" "$T/cmp.out"
$PB compare --format json --noise "$P" "$T/res" >"$T/cmp.json" 2>"$T/cmp.err"
grep -qF "noise profile: $P (" "$T/cmp.err" && python3 -m json.tool "$T/cmp.json" >/dev/null
ok $? "with --format json: said on stderr, the JSON stays JSON" "$T/cmp.err"
cp "$P" "$T/res/"
$PB compare "$T/res" >"$T/auto.out" 2>"$T/auto.err"
grep -q "^noise profile: $T/res/noise-.*json (" "$T/auto.out" && ! grep -q skipping "$T/auto.err"
ok $? "without --noise: the profile in the results folder, not skipped as a result" \
	"$T/auto.out"
python3 - "$P" "$T/other.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["host_class"] = "Other CPU; 64 packages"
json.dump(d, open(sys.argv[2], "w"))
PY
$PB compare --noise "$T/other.json" "$T/res" >"$T/other.out" 2>&1
grep -q "noise profile $T/other.json not used: of another host class (Other CPU" "$T/other.out"
ok $? "a profile of another host class: said, not used" "$T/other.out"
exits2 "compare --noise with --by-class" "not --by-class" \
	$PB compare --by-class --noise "$P" "$T/res"
$PB report --no-plot -o "$T/rep" "$T/res/A" "$T/res/B" >"$T/rep.out" 2>"$T/rep.err"
ok $? "report A B, the profile in their parent folder" "$T/rep.err"
grep -q "^noise profile: $T/res/noise-.*json (" "$T/rep/report.md" &&
	grep -q "^noise profile: $T/res/noise-.*json (" "$T/rep.out"
ok $? "report.md and the text name it under the title" "$T/rep.out"
mkdir "$T/hist" && cp "$P" "$T/hist/"
# k2 is another kernel and the profile gives a between-boot figure, so
# nightly may find a regression in two tiny runs (exit 1): allowed here
$PB nightly "$T/tiny.ini" --history "$T/hist" --label k1 --no-plot >"$T/n1.out" 2>&1
rc1=$?
$PB nightly "$T/tiny.ini" --history "$T/hist" --label k2 --no-plot >"$T/n2.out" 2>&1
rc2=$?
[ $rc1 -le 1 ] && [ $rc2 -le 1 ] && [ -f "$T/hist/k2/report.md" ]
ok $? "two nights, the profile in the history (exits $rc1 $rc2: 0 or 1)" "$T/n2.out"
grep -q "^noise profile: $T/hist/noise-.*json (" "$T/n2.out" &&
	grep -q "^noise profile: $T/hist/noise-.*json (" "$T/hist/k2/report.md" &&
	! grep -q "skipping" "$T/n2.out"
ok $? "nightly names it on stdout and in report.md, and does not skip it" "$T/n2.out"
exits2 "compare --noise a job file" "not a noise profile\|cannot read" \
	$PB compare --noise "$T/tiny.ini" "$T/res"

# run --dry-run with the profile: what each cell will resolve, and what
# --min-change takes
$PB run --dry-run --noise "$P" "$T/tiny.ini" >"$T/plan.out" 2>&1
ok $? "run --dry-run --noise P" "$T/plan.out"
grep -qF "resolution, noise profile: $P (" "$T/plan.out" &&
	grep -q "^  pingpong same-cpu: one boot a kernel, 2 rounds: resolves ±[0-9.]* %$" \
		"$T/plan.out" &&
	grep -q "^    more rounds a boot: ±[0-9.]* % at best$" "$T/plan.out" &&
	grep -q "^    ±1.0 % (--min-change): " "$T/plan.out" &&
	grep -q "variation between invocations stands in for boots" "$T/plan.out"
ok $? "it names the profile, says what one boot a kernel resolves, and what rounds can" \
	"$T/plan.out"
# one boot resolves less than 1000 % on a calibration of tiny runs, unless
# the machine was slow and noisy during it (a sanitizer build under load:
# ±1412 %): then the plan must say more boots, which the next check is not
one=$(sed -n 's/^  pingpong same-cpu: one boot a kernel, 2 rounds: resolves ±\([0-9]*\).*/\1/p' \
	"$T/plan.out")
$PB run --dry-run --noise "$P" --min-change 1000 "$T/tiny.ini" >"$T/plan2.out" 2>&1
if [ -n "$one" ] && [ "$one" -lt 1000 ]; then
	grep -q "^    ±1000.0 % (--min-change): one boot a kernel does$" "$T/plan2.out"
	ok $? "--min-change 1000: one boot a kernel does (one resolves ±$one %)" "$T/plan2.out"
else
	grep -q "^    ±1000.0 % (--min-change): [0-9]* boots a kernel" "$T/plan2.out"
	ok $? "--min-change 1000 beyond one boot's ±$one %: the boots it takes" "$T/plan2.out"
fi
$PB run --dry-run -o "$T/res" "$T/tiny.ini" >"$T/plan3.out" 2>&1
grep -q "^resolution, noise profile: $T/res/noise-.*json (" "$T/plan3.out"
ok $? "without --noise: the profile in the results folder" "$T/plan3.out"
$PB run --dry-run --noise "$T/other.json" "$T/tiny.ini" >"$T/plan4.out" 2>&1
grep -q "^resolution, noise profile $T/other.json not used: of another host class" \
	"$T/plan4.out" && ! grep -q "resolves" "$T/plan4.out"
ok $? "a profile of another host class: said, not used" "$T/plan4.out"
$PB run --dry-run --noise "$P" --set size=64 "$T/tiny.ini" >"$T/plan5.out" 2>&1
grep -q "pingpong same-cpu: the profile's keys differ (size: " "$T/plan5.out"
ok $? "other workload keys: said, not planned" "$T/plan5.out"
exits2 "run --noise without --dry-run" "only with --dry-run" \
	$PB run --noise "$P" "$T/tiny.ini"
exits2 "run --dry-run --min-change -1" "min-change" \
	$PB run --dry-run --min-change -1 "$T/tiny.ini"
exits2 "run --dry-run --noise a job file" "not a noise profile\|cannot read\|noise" \
	$PB run --dry-run --noise "$T/tiny.ini" "$T/tiny.ini"

# --from: the runs of two boots (the second's boot id rewritten)
mkdir -p "$T/boots"
for f in "$T"/res/A/*.json; do cp "$f" "$T/boots/b1.json"; done
for f in "$T"/res/B/*.json; do
	python3 - "$f" "$T/boots/b2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["boot_id"] = "0123abcd-0000-4000-8000-00000000beef"
json.dump(d, open(sys.argv[2], "w"))
PY
done
$PB calibrate --from -o "$T/boots.json" "$T/boots" >"$T/from.out" 2>"$T/from.err"
ok $? "calibrate --from two boots' results" "$T/from.err"
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	check "that profile is a valid pinbench-noise/1 too" /usr/bin/python3 tests/e2e/schemas.py \
		"$T/boots.json"
else
	skip "no python3-jsonschema"
fi
check "the boot level is measured, nothing stands in" pyjson "$T/boots.json" \
	'(lambda b: len(d["boot_ids"]) == 2 and d["boot"]["covered"] and not b["stands_in"] and
	  b["level"] == "boot" and b["df"] == 1 and d["blocks"] == 0)(d["tables"][0]["between"])'

exits2 "--blocks and --precision together" "not both" \
	$PB calibrate --blocks 3 --precision 50 "$T/tiny.ini"
exits2 "--precision 0" "precision" $PB calibrate --precision 0 "$T/tiny.ini"
exits2 "--blocks 2.5" "want a whole number" $PB calibrate --blocks 2.5 "$T/tiny.ini"
exits2 "no job file" "no job file" $PB calibrate
TMPDIR=$T/tmp $PB calibrate --blocks 5 --budget 0.01 -o "$T/short.json" "$T/tiny.ini" \
	>"$T/short.out" 2>"$T/short.err"
ok $? "--budget 0.01 minutes: a profile still" "$T/short.err"
grep -q "budget of 0.01 min: 2 of 5 blocks" "$T/short.err" &&
	python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["blocks"] == 2' \
		"$T/short.json"
ok $? "it stops after the two blocks a profile needs, and says so" "$T/short.err"
done_testing
