#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# export.sh - pinbench export on generated results: KTAP checked against
# the KTAP v1 spec (tests/e2e/lab_check.py), JUnit XML read with Debian's
# python3-junitparser, LAVA signal lines read as lava-dispatcher reads
# them; the usage errors (exit 2) and -o.
. "$(dirname "$0")/lib.sh"
need_pinbench
genresults
PY=/usr/bin/python3
lab() { "$PY" tests/e2e/lab_check.py "$@"; }

# Two boots a side (a generated file is a boot of its own): a change
# counts as a regression only at the boot level.
mkdir "$T/bb"
$G -o "$T/base.json" --seed 1 --label 6.1 --repeats 8
$G -o "$T/bb/1.json" --seed 1 --label 6.1 --repeats 8
$G -o "$T/bb/2.json" --seed 3 --label 6.1 --repeats 8
$G -o "$T/new.json" --seed 2 --label 6.2 --repeats 8 --shift 5 \
	--skip pingpong:same-core --fail stream:same-cpu \
	--anomaly counter-multiplexed:stream:same-core --severity error
$G -o "$T/new2.json" --seed 4 --label 6.2 --repeats 8 --shift 5 \
	--skip pingpong:same-core --fail stream:same-cpu

# ---- KTAP ----
"$PB" export --format ktap --baseline "$T/bb" "$T/new.json" "$T/new2.json" >"$T/ktap" 2>"$T/err"
ok $? "export --format ktap exits 0" "$T/err"
grep -q "^pinbench export: 1 passed, 3 failed, 1 skipped$" "$T/err"
ok $? "the counts on stderr" "$T/err"
lab ktap "$T/ktap" >"$T/ktap.json"
ok $? "KTAP v1: version, plan, numbered results, directives" "$T/ktap.json"
check "KTAP: the regression, the skip, the failed job, the error anomaly, its cell not judged" \
	"$PY" - "$T/ktap.json" <<'PY'
import json, sys
t = {x["name"]: x for x in map(json.loads, open(sys.argv[1]))}
assert len(t) == 5, t
r = t["pingpong/same-cpu"]
assert not r["ok"] and r["directive"] is None, r
assert " us, regression: +" in r["diagnostic"] and "against " in r["diagnostic"], r
s = t["pingpong/same-core"]
assert s["ok"] and s["directive"] == "SKIP" and s["diagnostic"] == "no SMT siblings", s
f = t["stream/same-cpu"]
assert not f["ok"] and f["diagnostic"].startswith("failed: watchdog"), f
a = t["stream/same-core/counter-multiplexed"]
assert not a["ok"] and a["diagnostic"].startswith("counter-multiplexed: "), a
p = t["stream/same-core"]
assert p["ok"] and " MB/s, not-judged: +" in p["diagnostic"], p
assert p["diagnostic"].endswith("; not judged: counter-multiplexed on this side"), p
PY

# One boot a side: the +5 % is a change within its boot, not a failure.
"$PB" export --format ktap --baseline "$T/base.json" "$T/new.json" >"$T/ktap1" 2>"$T/err"
ok $? "export of one boot a side exits 0" "$T/err"
lab ktap "$T/ktap1" >"$T/ktap1.json"
check "KTAP: a change within one boot a side passes, and says so with its tipping point" \
	"$PY" - "$T/ktap1.json" <<'PY'
import json, sys
t = {x["name"]: x for x in map(json.loads, open(sys.argv[1]))}
r = t["pingpong/same-cpu"]
assert r["ok"], r
assert "changed within its boot, not a failure: +" in r["diagnostic"], r
assert "holds if boots vary by less than" in r["diagnostic"], r
PY

# ---- JUnit ----
"$PB" export --format junit --baseline "$T/bb" -o "$T/junit.xml" "$T/new.json" "$T/new2.json" \
	>"$T/out" 2>"$T/err"
[ $? = 0 ] && [ ! -s "$T/out" ] && [ -s "$T/junit.xml" ]
ok $? "export --format junit -o FILE writes the file, nothing on stdout" "$T/err"
lab junit "$T/junit.xml" >"$T/junit.json"
rc=$?
if [ $rc = 3 ] && [ -z "${PINBENCH_CI:-}" ]; then
	skip "JUnit: python3-junitparser is not installed (apt-get install python3-junitparser)"
else
	ok $rc "JUnit: python3-junitparser reads it" "$T/junit.json"
	check "JUnit: suites per job, failure with change and interval, error, skipped, properties" \
		"$PY" - "$T/junit.json" <<'PY'
import json, sys
c = {(x["classname"], x["name"]): x for x in map(json.loads, open(sys.argv[1]))}
assert len(c) == 5, c
r = c[("pingpong", "same-cpu")]
assert r["result"] == "failure" and r["type"] == "regression", r
assert r["message"].startswith("regression: +") and " [+" in r["message"], r
assert float(r["properties"]["change_pct"]) > 3, r
assert float(r["properties"]["change_ci95_lo"]) > 0, r
assert r["properties"]["unit"] == "us" and float(r["properties"]["mean"]) > 0, r
assert r["suite"] == "pingpong" and r["suite_tests"] == 2 and r["suite_failures"] == 1, r
assert r["suite_skipped"] == 1 and r["suite_properties"]["host"] == "gen-host", r
assert c[("pingpong", "same-core")]["result"] == "skipped"
assert c[("pingpong", "same-core")]["message"] == "no SMT siblings"
e = c[("stream", "same-cpu")]
assert e["result"] == "error" and e["suite_errors"] == 1, e
a = c[("stream", "same-core/counter-multiplexed")]
assert a["result"] == "failure" and a["type"] == "anomaly", a
assert c[("stream", "same-core")]["result"] == "pass"
assert c[("stream", "same-core")]["properties"]["verdict"] == "not-judged"
PY
fi

# ---- LAVA ----
"$PB" export --format lava-signal --baseline "$T/bb" "$T/new.json" "$T/new2.json" >"$T/sig" \
	2>"$T/err"
ok $? "export --format lava-signal exits 0" "$T/err"
lab lava "$T/sig" >"$T/sig.json"
ok $? "LAVA: every signal parses as lava-dispatcher parses it" "$T/sig.json"
check "LAVA: results, measurements and units" "$PY" - "$T/sig.json" <<'PY'
import json, sys
c = {x["test_case_id"]: x for x in map(json.loads, open(sys.argv[1]))}
assert c["pingpong.same-cpu"]["result"] == "fail" and c["pingpong.same-cpu"]["units"] == "us"
assert c["pingpong.same-cpu.change"]["result"] == "fail"
assert 3 < c["pingpong.same-cpu.change"]["measurement"] < 8
assert c["stream.same-core.counter-multiplexed"]["result"] == "fail"
assert c["pingpong.same-core"]["result"] == "skip"
assert c["stream.same-cpu"]["result"] == "fail" and "measurement" not in c["stream.same-cpu"]
assert c["stream.same-core"]["result"] == "pass" and c["stream.same-core"]["units"] == "MB/s"
assert len(c) == 7, c
PY
"$PB" export --format lava "$T/new.json" >"$T/cmds" 2>"$T/err"
grep -v '^#' "$T/cmds" | grep -qv '^lava-test-case [a-z.-]* --result \(pass\|fail\|skip\)'
[ $? = 1 ] && grep -q '^# pingpong.same-core: no SMT siblings$' "$T/cmds"
ok $? "export --format lava: lava-test-case lines, reasons as comments" "$T/cmds"

"$PB" export --format ktap "$T/base.json" "$T/new.json" >/dev/null 2>"$T/err"
[ $? = 0 ] && grep -q "warning: the results hold 2 labels (6.1, 6.2), pooled as one" "$T/err"
ok $? "results of two labels: exported pooled, with a warning" "$T/err"
"$PB" export --format ktap "$T/new.json" >/dev/null 2>"$T/err"
! grep -q warning "$T/err"
ok $? "one label: no warning" "$T/err"

# ---- errors ----
exits2 "no --format" "no --format given" "$PB" export "$T/new.json"
exits2 "an unknown format" "unknown format 'tap'" "$PB" export --format tap "$T/new.json"
exits2 "no result files" "no result files given" "$PB" export --format ktap
exits2 "a missing file" "nothing.json" "$PB" export --format ktap "$T/nothing.json"
exits2 "the baseline is the results" "no result files there but those given" \
	"$PB" export --format ktap --baseline "$T/new.json" "$T/new.json"
done_testing
