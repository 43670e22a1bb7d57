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
# a second boot a side (a generated file is a boot of its own): the +5 % is
# then a regression at the boot level, which --fail-on-regression counts
mkdir "$T/b2"
$G -o "$T/b2/base.json" --seed 3 --label 6.1 --repeats 8
$G -o "$T/b2/new.json" --seed 4 --label 6.2 --repeats 8 --shift 5

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
			env PINBENCH_RUN_STANDIN=/bin/false "$PB" $cmd --min-change "$v" $args
	done
done
exits2 "compare --min-change 1001: out of its range, named" \
	"^pinbench compare: --min-change: '1001' is out of range 0..1000$" \
	"$PB" compare --min-change 1001 "$T/base.json" "$T/new.json"
"$PB" compare --fail-on-regression --min-change 1e2 "$T/base.json" "$T/new.json" "$T/b2" \
	>"$T/out" 2>&1
ok $? "compare --min-change 1e2: a decimal exponent is a number (+5 % is below it)" "$T/out"
"$PB" compare --fail-on-regression --min-change 0.5 "$T/base.json" "$T/new.json" "$T/b2" \
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
ok $? "export --format junit of U+FFFE, U+FFFF and C0 names" "$T/out"
check "the JUnit XML parses (xml.etree), the names' allowed characters kept" \
	python3 - "$T/j.xml" <<'PY'
import sys
import xml.etree.ElementTree as ET
names = {s.get("name") for s in ET.parse(sys.argv[1]).getroot().iter("testsuite")}
assert "a?b?c?d?[2Je\ud7ff\ue000\U0001f600" in names, names
assert '=HYPERLINK("http://x","y")' in names, names
PY
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout --schema tests/junit/junit.xsd "$T/j.xml" >"$T/out" 2>&1
	ok $? "the JUnit XML of hostile names: valid against tests/junit/junit.xsd" "$T/out"
elif [ -n "${PINBENCH_CI:-}" ]; then
	ok 1 "xmllint is not installed (CI must have it: make check installs libxml2-utils)"
else
	skip "the JUnit schema: xmllint is not installed (apt-get install libxml2-utils)"
fi
"$PB" export --format ktap --baseline "$T/base-h.json" "$T/new-h.json" >"$T/k" 2>"$T/out" &&
	python3 tests/e2e/ktap_check.py "$T/k" >>"$T/out" 2>&1
ok $? "the KTAP of hostile names: KTAP v1 grammar (tests/e2e/ktap_check.py)" "$T/out"

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

# ---- item 9: nothing printed carries ESC, BEL or CR
# clean NAME COMMAND...: COMMAND's stdout and stderr hold no ESC, BEL, CR
clean() {
	_what=$1
	shift
	"$@" >"$T/clean.out" 2>&1
	_rc=$?
	! grep -q "[$ESC$BEL$CR]" "$T/clean.out" && [ -s "$T/clean.out" ]
	ok $? "$_what: no ESC, BEL or CR in the output (exit $_rc)" "$T/clean.out"
}
printf '[job%s]0;pwn%s]\nbench = pipe\n' "$ESC" "$BEL" >"$T/sec.ini"
clean "a job file's section name with ESC]0;...BEL" "$PB" run --dry-run "$T/sec.ini"
printf '[j]\nbench = pipe\ncpus = 0%s[2J\n' "$ESC" >"$T/val.ini"
clean "a job file's value with ESC[2J" "$PB" run --dry-run "$T/val.ini"
printf '[j]\nbench = pipe\nplacement = same%s-cpu\n' "$CR" >"$T/cr.ini"
clean "a job file's value with CR" "$PB" run --dry-run "$T/cr.ini"
printf '[j]\nbench = pipe\nwarm%s[2Jup = 1\n' "$ESC" >"$T/key.ini"
clean "a job file's key with ESC" "$PB" run --dry-run "$T/key.ini"
printf '[j]\nbench = p%s[2J\n' "$ESC" >"$T/bench.ini"
clean "a job file's bench with ESC" "$PB" run --dry-run "$T/bench.ini"
clean "bench \$'p\\e[2J'" "$PB" bench "p${ESC}[2J"
clean "bench pipe with a KEY=VALUE holding ESC" "$PB" bench pipe "cpus=0${ESC}[2J" --dry-run
clean "bench pipe --placement with BEL" "$PB" bench pipe --placement "same$BEL" --dry-run
clean "an unknown command with ESC" "$PB" "x${ESC}[2J"
clean "an unknown long option with ESC" "$PB" run "--x${ESC}[2J" configs/quick.ini
clean "an unknown short option" "$PB" compare "-$ESC"
exits2 "getopt's own messages, said by pinbench: -Z in a group after a long option" \
	"^pinbench: invalid option -- 'Z'$" "$PB" run --dry-run -Zq configs/quick.ini
exits2 "getopt's own messages, said by pinbench: --output without its value" \
	"^pinbench: option '--output' requires an argument$" "$PB" run configs/quick.ini --output
clean "run --label with ESC" "$PB" run --dry-run --label "a${ESC}[2J" configs/quick.ini
clean "a job file path with ESC" "$PB" run --dry-run "$T/no${ESC}[2J.ini"
clean "compare of a path with ESC" "$PB" compare "$T/no${ESC}[2J.json"
clean "export --format with ESC" "$PB" export --format "k${ESC}[2J" "$T/new.json"
clean "doctor --format with ESC" "$PB" doctor --format "t${ESC}[2J"
clean "--min-change with ESC" "$PB" compare --min-change "1${ESC}[2J" "$T/new.json"
clean "server --bind with ESC" timeout 20 "$PB" server --bind "x${ESC}[2J" --port 0
sed "s/,,context-switches/,,cont${ESC}]0;x${BEL}ext-switches/" \
	tests/perfstat/perf61-kvm-x-comma.txt >"$T/ps-csv.txt"
sed "s/context-switches/cs${ESC}[2J${CR}/" tests/perfstat/perf61-kvm-default.txt >"$T/ps-text.txt"
for f in ps-csv ps-text; do
	for fmt in text json; do
		clean "doctor --perf-stat $f --format $fmt: an event name with escapes" \
			"$PB" doctor --perf-stat "$T/$f.txt" --nominal-mhz 3000 --format $fmt
	done
done
clean "compare of the hostile names" "$PB" compare "$T/base-h.json" "$T/new-h.json"
clean "events with a PATTERN holding ESC" "$PB" events "x${ESC}[2J"
if command -v gnuplot >/dev/null 2>&1; then
	clean "plot -o a path with ESC, the path echoed" \
		"$PB" plot -o "$T/p${ESC}[2J.png" "$T/base.json" "$T/new.json"
else
	skip "plot -o a path with ESC: gnuplot is not installed"
fi

done_testing
