#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# hostile_input.sh - numbers, names and escapes a hostile user or a
# careless script hands pinbench (issue 21, items 4, 6, 9 and the CSV
# formula cells): a number is decimal, finite and in range or the command
# exits 2 naming the option and the value; nothing pinbench prints carries
# a terminal escape; JUnit XML stays well-formed and CSV cells stay text.
# Nothing here runs a workload (--dry-run, generated result files).
. "$(dirname "$0")/lib.sh"
need_pinbench
genresults
ESC=$(printf '\033')
BEL=$(printf '\007')
CR=$(printf '\r')

$G -o "$T/base.json" --seed 1 --label 6.1 --repeats 8
$G -o "$T/new.json" --seed 2 --label 6.2 --repeats 8 --shift 5

# ---- item 4: every numeric option and key is a finite decimal in its range
for cmd in compare report nightly export; do
	case $cmd in
	compare) args="$T/base.json $T/new.json" ;;
	report) args="$T/base.json $T/new.json -o $T/rep" ;;
	nightly) args="--history $T/h configs/quick.ini" ;;
	export) args="--format ktap --baseline $T/base.json $T/new.json" ;;
	esac
	for v in nan 1e309 -1 0x10 inf " 1" 0x1p3 ""; do
		# shellcheck disable=SC2086
		exits2 "$cmd --min-change '$v'" "^pinbench $cmd: --min-change: '$v' is " \
			env PINBENCH_SELF=/bin/false "$PB" $cmd --min-change "$v" $args
	done
done
exits2 "compare --min-change 1001: out of its range, named" \
	"^pinbench compare: --min-change: '1001' is out of range 0..1000$" \
	"$PB" compare --min-change 1001 "$T/base.json" "$T/new.json"
"$PB" compare --fail-on-regression --min-change 1e2 "$T/base.json" "$T/new.json" \
	>"$T/out" 2>&1
ok $? "compare --min-change 1e2: a decimal exponent is a number (+5 % is below it)" "$T/out"
"$PB" compare --fail-on-regression --min-change 0.5 "$T/base.json" "$T/new.json" \
	>"$T/out" 2>&1
rc=$?
[ $rc = 1 ]
ok $? "compare --min-change 0.5: the +5 % regression fails it (exit $rc)" "$T/out"
for v in 0x10 0x1p3 inf nan 1e309 " 1" "1 " 1e; do
	exits2 "bench --duration '$v'" "^pinbench bench: --duration: '$v' is not a number" \
		"$PB" bench pipe --duration "$v" --dry-run
done
exits2 "a job key: warmup = 0x1p-1" "q.ini:3: warmup: '0x1p-1' is not a number" \
	sh -c "printf '[j]\nbench = pipe\nwarmup = 0x1p-1\n' >$T/q.ini && \"$PB\" run --dry-run $T/q.ini"
exits2 "percentiles=50,0x10" "percentiles: '0x10' is not a percentile" \
	"$PB" bench pipe percentiles=50,0x10 --dry-run
exits2 "percentiles=nan" "percentiles: 'nan' is not a percentile" \
	"$PB" bench pipe percentiles=nan --dry-run
"$PB" bench pipe percentiles=50,99.9 --dry-run >"$T/out" 2>&1
ok $? "percentiles=50,99.9 still passes" "$T/out"
for v in 0x1p12 inf nan 1e309 " 3000"; do
	exits2 "doctor --nominal-mhz '$v'" "^pinbench doctor: --nominal-mhz: '$v' is " \
		"$PB" doctor --perf-stat tests/perfstat/clean-text.txt --nominal-mhz "$v"
done
exits2 "run --seed ' 5'" "^pinbench run: --seed ' 5'" \
	"$PB" run --dry-run --seed " 5" configs/quick.ini
exits2 "server --port ' 80'" "^pinbench server: --port ' 80'" \
	timeout 20 "$PB" server --port " 80"
exits2 "nightly --min-change -1 names the value" \
	"^pinbench nightly: --min-change: '-1' is out of range 0..1000$" \
	"$PB" nightly --history "$T/h" --min-change -1 configs/quick.ini
check "nightly ran nothing for a bad --min-change" test ! -e "$T/h"

# ---- hostile job names in result files (JSON escapes: jansson hands them over)
python3 - "$T/base.json" "$T/new.json" <<'PY'
import json, sys
names = {"pingpong": "a\ufffeb\uffffc\u0001d\u001b[2Je\ud7ff\ue000\U0001f600",
         "stream": '=HYPERLINK("http://x","y")'}
for f in sys.argv[1:]:
    d = json.load(open(f))
    for j in d["jobs"]:
        j["name"] = names[j["name"]]
    json.dump(d, open(f.replace(".json", "-h.json"), "w"))
PY
ok $? "result files with hostile job names"

# ---- item 6: JUnit XML holds only what XML 1.0 allows
"$PB" export --format junit --baseline "$T/base-h.json" -o "$T/j.xml" "$T/new-h.json" \
	>"$T/out" 2>&1
ok $? "export --format junit of U+FFFE, U+FFFF, C0 and C1 names" "$T/out"
check "the JUnit XML parses (xml.etree), the names' allowed characters kept" \
	python3 - "$T/j.xml" <<'PY'
import sys
import xml.etree.ElementTree as ET
names = {s.get("name") for s in ET.parse(sys.argv[1]).getroot().iter("testsuite")}
assert "a?b?c?d?[2Je\ud7ff\ue000\U0001f600" in names, names
assert '=HYPERLINK("http://x","y")' in names, names
PY

# ---- CSV: a cell that starts like a formula stays text
"$PB" compare --format csv "$T/base-h.json" "$T/new-h.json" >"$T/csv" 2>"$T/err"
ok $? "compare --format csv of the hostile names" "$T/err"
check "a '=HYPERLINK(...)' job name gets a leading quote, the name kept" \
	python3 - "$T/csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
jobs = {r["job"] for r in rows}
assert "'=HYPERLINK(\"http://x\",\"y\")" in jobs, jobs
for r in rows:
    for v in r.values():
        assert v[:1] not in ("=", "+", "@", "\t", "\r"), r
PY

done_testing
