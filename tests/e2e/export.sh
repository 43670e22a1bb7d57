#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# export.sh - pinbench export on generated results: every KTAP through a
# checker of the KTAP v1 grammar (tests/e2e/ktap_check.py), JUnit XML
# validated by xmllint against tests/junit/junit.xsd and read with Debian's
# python3-junitparser, LAVA signal lines read as lava-dispatcher reads
# them, a skip's reason in the case's log; each checker shown refusing
# what export wrote before it followed its format; the usage errors
# (exit 2) and -o.
. "$(dirname "$0")/lib.sh"
need_pinbench
genresults
PY=/usr/bin/python3
lab() { "$PY" tests/e2e/lab_check.py "$@"; }
missing() {	# missing WHAT: a skip, or under CI a failure
	if [ -n "${PINBENCH_CI:-}" ]; then
		ok 1 "$1 (CI must have it: make check installs it as root)"
	else
		skip "$1"
	fi
}

# ---- the checkers refuse what export wrote before ----
printf 'KTAP version 1\n# pinbench export\n1..1\nok 1 pingpong/same-cpu # 5.8 us\n' >"$T/old.ktap"
lab ktap "$T/old.ktap" >"$T/old.ktap.out"
[ $? = 1 ] && grep -q "line 3: a plan not right after the version line" "$T/old.ktap.out"
ok $? "KTAP checker: a comment between the version line and the plan is refused" \
	"$T/old.ktap.out"
: >"$T/bad.ktap.all"
for bad in 'ok 1 a#b' 'ok 2 x' 'ok 1' 'ok 1 x # ERROR' '  ok 1 x' '1..1'; do
	printf 'KTAP version 1\n1..1\n%s\n' "$bad" >"$T/bad.ktap"
	lab ktap "$T/bad.ktap" >"$T/bad.ktap.out" || continue
	echo "accepted: $bad" >>"$T/bad.ktap.all"
done
[ ! -s "$T/bad.ktap.all" ]
ok $? "KTAP checker refuses: # in a name, a wrong number, no name, ok # ERROR, an indent, 2 plans" \
	"$T/bad.ktap.all"
cat >"$T/nested.ktap" <<'KTAP'
KTAP version 1
1..2
    KTAP version 1
    1..2
    # a diagnostic
    ok 1 inner_a
    not ok 2 inner_b # TIMEOUT 30 seconds
not ok 1 outer
ok 2 second # SKIP necessary dependency unavailable
KTAP
lab ktap "$T/nested.ktap" >"$T/nested.out" &&
	grep -q '"name": "outer".*"name": "inner_b", "directive": "TIMEOUT"' "$T/nested.out"
ok $? "KTAP checker: the spec's subtests (4 spaces, their own version and plan) read" \
	"$T/nested.out"
XSD=tests/junit/junit.xsd
if command -v xmllint >/dev/null 2>&1; then
	cat >"$T/old.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="pinbench" tests="1" failures="0" errors="0" skipped="0">
  <testsuite name="pingpong" tests="1" failures="0" errors="0" skipped="0">
    <testcase classname="pingpong" name="same-cpu">
      <properties>
        <property name="mean" value="5.8"/>
      </properties>
    </testcase>
  </testsuite>
</testsuites>
XML
	xmllint --noout --schema "$XSD" "$T/old.xml" >"$T/old.xml.out" 2>&1
	[ $? = 3 ] && grep -q "attribute 'skipped': The attribute 'skipped' is not allowed" \
		"$T/old.xml.out" && grep -q "Element 'properties': This element is not expected" \
		"$T/old.xml.out" && grep -q "attribute 'time' is required" "$T/old.xml.out"
	ok $? "JUnit schema: skipped= on testsuites, properties in a testcase, no time: refused" \
		"$T/old.xml.out"
else
	missing "JUnit schema: xmllint is not installed (apt-get install libxml2-utils)"
fi

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
ok $? "KTAP v1: version, plan right after it, numbered results, directives" "$T/ktap.json"
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
ok $? "KTAP v1 grammar: one boot a side" "$T/ktap1.json"
check "KTAP: a change within one boot a side passes, and says so with its tipping point" \
	"$PY" - "$T/ktap1.json" <<'PY'
import json, sys
t = {x["name"]: x for x in map(json.loads, open(sys.argv[1]))}
r = t["pingpong/same-cpu"]
assert r["ok"], r
assert "changed within its boot, not a failure: +" in r["diagnostic"], r
assert "holds if boots vary by less than" in r["diagnostic"], r
PY

# One boot a side with a noise profile of the machine (its variation between
# boots): judged at the boot level, so the +5 % beyond it is a regression
# that fails, and export names the profile.
"$PB" calibrate --from -o "$T/prof" "$T/bb" >"$T/cal.out" 2>&1
P=$(sed -n 's/^noise profile: //p' "$T/cal.out")
"$PB" export --format ktap --noise "$P" --baseline "$T/base.json" "$T/new.json" \
	>"$T/ktap2" 2>"$T/err"
ok $? "export --noise of one boot a side exits 0" "$T/err"
grep -qF "pinbench export: noise profile: $P (" "$T/err"
ok $? "export names the noise profile it used" "$T/err"
lab ktap "$T/ktap2" >"$T/ktap2.json"
check "KTAP with --noise: one boot a side judged at the boot level, the regression fails" \
	"$PY" - "$T/ktap2.json" <<'PY'
import json, sys
t = {x["name"]: x for x in map(json.loads, open(sys.argv[1]))}
r = t["pingpong/same-cpu"]
assert not r["ok"] and " us, regression: +" in r["diagnostic"], r
assert "; at the boot level; resolves" in r["diagnostic"], r
PY
exits2 "export --noise of a file that is not there" "noise" \
	"$PB" export --format ktap --noise "$T/none.json" --baseline "$T/base.json" "$T/new.json"

# ---- JUnit ----
"$PB" export --format junit --baseline "$T/bb" -o "$T/junit.xml" "$T/new.json" "$T/new2.json" \
	>"$T/out" 2>"$T/err"
[ $? = 0 ] && [ ! -s "$T/out" ] && [ -s "$T/junit.xml" ]
ok $? "export --format junit -o FILE writes the file, nothing on stdout" "$T/err"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout --schema "$XSD" "$T/junit.xml" >"$T/xsd.out" 2>&1
	ok $? "JUnit: valid against tests/junit/junit.xsd (the Ant/Jenkins junit-10 format)" \
		"$T/xsd.out"
	"$PB" export --format junit -o "$T/junit0.xml" "$T/new.json" 2>/dev/null &&
		xmllint --noout --schema "$XSD" "$T/junit0.xml" >"$T/xsd.out" 2>&1
	ok $? "JUnit without a baseline: valid against the schema" "$T/xsd.out"
else
	missing "JUnit schema: xmllint is not installed (apt-get install libxml2-utils)"
fi
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
assert r["properties"] == {}, r
p = r["suite_properties"]
assert float(p["same-cpu.change_pct"]) > 3, r
assert float(p["same-cpu.change_ci95_lo"]) > 0, r
assert p["same-cpu.unit"] == "us" and float(p["same-cpu.mean"]) > 0, r
assert r["suite"] == "pingpong" and r["suite_tests"] == 2 and r["suite_failures"] == 1, r
assert r["suite_skipped"] == 1 and r["suite_properties"]["host"] == "gen-host", r
assert c[("pingpong", "same-core")]["result"] == "skipped"
assert c[("pingpong", "same-core")]["message"] == "no SMT siblings"
e = c[("stream", "same-cpu")]
assert e["result"] == "error" and e["suite_errors"] == 1, e
a = c[("stream", "same-core/counter-multiplexed")]
assert a["result"] == "failure" and a["type"] == "anomaly", a
assert c[("stream", "same-core")]["result"] == "pass"
assert c[("stream", "same-core")]["suite_properties"]["same-core.verdict"] == "not-judged"
PY
	check "JUnit: time, timestamp (no zone) and hostname from the result files" \
		"$PY" - "$T/junit.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert "skipped" not in root.attrib, root.attrib
assert float(root.get("time")) > 0, root.attrib
for s in root.iter("testsuite"):
    assert s.get("timestamp") == "2026-01-01T00:00:00", s.attrib
    assert s.get("hostname") == "gen-host", s.attrib
    t = sum(float(k.get("time")) for k in s.iter("testcase"))
    assert abs(float(s.get("time")) - t) < 0.01 and t > 0, (s.attrib, t)
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
assert c["pingpong.same-core"]["log"] == ["pingpong.same-core: no SMT siblings"], c
assert c["stream.same-cpu"]["log"][0].startswith("stream.same-cpu: failed: watchdog"), c
PY
"$PB" export --format lava "$T/new.json" >"$T/cmds" 2>"$T/err"
grep -v '^#' "$T/cmds" | grep -v "^echo '" |
	grep -qv '^lava-test-case [a-z.-]* --result \(pass\|fail\|skip\)'
[ $? = 1 ] && grep -q "^echo 'pingpong.same-core: no SMT siblings'$" "$T/cmds"
ok $? "export --format lava: lava-test-case lines, reasons echoed" "$T/cmds"
# run by sh as under LAVA, with a lava-test-case that signals as LAVA's does
mkdir -p "$T/ltc"
cat >"$T/ltc/lava-test-case" <<'SH'
#!/bin/sh
id=$1
shift
d=
while [ $# -ge 2 ]; do
	case $1 in
	--result) d="$d RESULT=$2" ;;
	--measurement) d="$d MEASUREMENT=$2" ;;
	--units) d="$d UNITS=$2" ;;
	esac
	shift 2
done
echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$id$d>"
SH
chmod +x "$T/ltc/lava-test-case"
PATH=$T/ltc:$PATH sh "$T/cmds" >"$T/cmds.log" 2>&1 && lab lava "$T/cmds.log" >"$T/cmds.json" &&
	"$PY" - "$T/cmds.json" <<'PY' >>"$T/cmds.log" 2>&1
import json, sys
c = {x["test_case_id"]: x for x in map(json.loads, open(sys.argv[1]))}
assert c["pingpong.same-core"]["result"] == "skip", c
assert c["pingpong.same-core"]["log"] == ["pingpong.same-core: no SMT siblings"], c
PY
ok $? "export --format lava run by sh: the skip's reason is its case's log in LAVA" \
	"$T/cmds.log"

"$PB" export --format ktap "$T/base.json" "$T/new.json" >/dev/null 2>"$T/err"
[ $? = 0 ] && grep -q "warning: the results hold 2 labels (6.1, 6.2), pooled as one" "$T/err"
ok $? "results of two labels: exported pooled, with a warning" "$T/err"
"$PB" export --format ktap "$T/new.json" >/dev/null 2>"$T/err"
! grep -q warning "$T/err"
ok $? "one label: no warning" "$T/err"

# ---- golden: every format of the same cases, each file through its checker ----
# PINBENCH_GOLDEN_UPDATE=1 writes them instead (then read the diff).
for f in ktap:txt junit:xml lava:sh lava-signal:txt; do
	fmt=${f%%:*}
	gold=tests/golden/export-$fmt.${f#*:}
	"$PB" export --format "$fmt" --baseline "$T/bb" "$T/new.json" "$T/new2.json" 2>"$T/err" |
		sed "s|$T/|T/|g" >"$T/gold"
	[ -z "${PINBENCH_GOLDEN_UPDATE:-}" ] || cp "$T/gold" "$gold"
	diff -u "$gold" "$T/gold" >"$T/diff"
	ok $? "export --format $fmt matches $gold" "$T/diff"
done
lab ktap tests/golden/export-ktap.txt >"$T/out"
ok $? "tests/golden/export-ktap.txt: KTAP v1 grammar" "$T/out"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout --schema "$XSD" tests/golden/export-junit.xml >"$T/out" 2>&1
	ok $? "tests/golden/export-junit.xml: valid against the schema" "$T/out"
else
	missing "JUnit schema: xmllint is not installed (apt-get install libxml2-utils)"
fi
lab lava tests/golden/export-lava-signal.txt >"$T/out" &&
	PATH=$T/ltc:$PATH sh tests/golden/export-lava.sh | lab lava /dev/stdin >"$T/out2" &&
	cmp "$T/out" "$T/out2" &&
	grep -q '"result": "skip", "log": \["pingpong.same-core: ' "$T/out"
ok $? "tests/golden/export-lava*: the same cases, each skip with its reason" "$T/out"

# ---- errors ----
exits2 "no --format" "no --format given" "$PB" export "$T/new.json"
exits2 "an unknown format" "unknown format 'tap'" "$PB" export --format tap "$T/new.json"
exits2 "no result files" "no result files given" "$PB" export --format ktap
exits2 "a missing file" "nothing.json" "$PB" export --format ktap "$T/nothing.json"
exits2 "the baseline is the results" "no result files there but those given" \
	"$PB" export --format ktap --baseline "$T/new.json" "$T/new.json"
done_testing
