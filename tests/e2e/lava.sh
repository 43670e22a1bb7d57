#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# lava.sh - the LAVA route with LAVA's own tools: lava/pinbench.yaml
# against lava_common.schemas.test.testdef.validate and lava/job-example.yaml
# against lava_common.schemas.validate (Debian's lava-common); then the
# definition's run steps executed end to end as a LAVA device runs them
# (the run.sh lava-dispatcher writes, tests/e2e/lava_runsh.py; LAVA's own
# lava-test-shell and lava-test-case scripts from Debian's lava-dispatcher
# package), on a copy of this tree, with a tiny job file, twice (the second
# time against the first as BASELINE); the test cases LAVA would record
# (signals and result files) checked against the result file.
# Without lava-common: a skip saying so (a failure under CI, PINBENCH_CI=1).
. "$(dirname "$0")/lib.sh"
need_pinbench
PY=/usr/bin/python3

missing() {	# missing WHAT: a skip, or under CI a failure
	if [ -n "${PINBENCH_CI:-}" ]; then
		ok 1 "$1 (CI must have it: make check installs it as root)"
	else
		skip "$1"
	fi
}

if ! "$PY" -c 'import lava_common.schemas, yaml' 2>"$T/why"; then
	missing "LAVA validation: lava-common is not installed (apt-get install lava-common)"
	done_testing
	exit
fi

# ---- the definition and the job against LAVA's schemas ----
"$PY" - lava/pinbench.yaml lava/job-example.yaml >"$T/valid" 2>&1 <<'PY'
import sys, yaml
from lava_common.schemas import validate
from lava_common.schemas.test.testdef import validate as validate_testdef
validate_testdef(yaml.safe_load(open(sys.argv[1])))
print("%s: valid Lava-Test Test Definition 1.0" % sys.argv[1])
validate(yaml.safe_load(open(sys.argv[2])), strict=True)
print("%s: valid LAVA job (strict)" % sys.argv[2])
PY
ok $? "lava/pinbench.yaml and lava/job-example.yaml pass LAVA's schemas" "$T/valid"
comment "$T/valid"
check "the schemas are really checked: a definition without its format and a job without timeouts fail" \
	"$PY" - lava/pinbench.yaml lava/job-example.yaml <<'PY'
import sys, yaml
from voluptuous import Invalid
from lava_common.schemas import validate
from lava_common.schemas.test.testdef import validate as validate_testdef
t = yaml.safe_load(open(sys.argv[1]))
del t["metadata"]["format"]
j = yaml.safe_load(open(sys.argv[2]))
del j["timeouts"]
for fn, data in ((validate_testdef, t), (validate, j)):
    try:
        fn(data)
    except Invalid as exc:
        print("refused as it should be:", exc)
        continue
    sys.exit("accepted a broken file")
PY
check "the job runs this definition with parameters it declares" \
	"$PY" - lava/pinbench.yaml lava/job-example.yaml <<'PY'
import sys, yaml
t = yaml.safe_load(open(sys.argv[1]))
j = yaml.safe_load(open(sys.argv[2]))
defs = [d for a in j["actions"] if "test" in a for d in a["test"]["definitions"]]
assert [d["path"] for d in defs] == ["lava/pinbench.yaml"], defs
assert set(defs[0]["parameters"]) <= set(t["params"]), (defs[0]["parameters"], t["params"])
assert t["params"]["JOBFILE"] == "configs/nightly.ini", t["params"]
PY

# ---- LAVA's helper scripts, from Debian's lava-dispatcher package ----
ltsh=/usr/lib/python3/dist-packages/lava_dispatcher/lava_test_shell
if [ ! -f "$ltsh/lava-test-case" ]; then
	# the .deb make check kept (tests/deps.sh --check), or one downloaded now
	: >"$T/dl"
	deb=$(ls /var/cache/pinbench/lava-dispatcher_*.deb 2>/dev/null | tail -n 1)
	if [ -z "$deb" ]; then
		(cd "$T" && apt-get download lava-dispatcher) >"$T/dl" 2>&1
		deb=$(ls "$T"/lava-dispatcher_*.deb 2>/dev/null | tail -n 1)
	fi
	[ -n "$deb" ] && dpkg-deb -x "$deb" "$T/deb" >>"$T/dl" 2>&1
	ltsh=$T/deb$ltsh
fi
if [ ! -f "$ltsh/lava-test-case" ]; then
	missing "LAVA run: no lava-test-case (apt-get download lava-dispatcher failed: $(tail -n 1 "$T/dl"))"
	done_testing
	exit
fi
mkdir -p "$T/bin"
for s in lava-test-case lava-test-shell lava-common-functions; do
	cp "$ltsh/$s" "$T/bin/" && chmod +x "$T/bin/$s"
done
ok $? "lava-test-case, lava-test-shell and lava-common-functions from lava-dispatcher"

# ---- the run steps, end to end, on a copy of this tree ----
mkdir -p "$T/repo"
tar -cf - --exclude=./.git --exclude=./results . | tar -C "$T/repo" -xf -
echo "$(date +%s)-pinbench" >"$T/repo/uuid"
# run JOB-PARAMETERS...: run.sh made and run as LAVA does; stdout in $T/log.N
runs=0
lava_run() {
	runs=$((runs + 1))
	"$PY" tests/e2e/lava_runsh.py lava/pinbench.yaml "$T/repo" "$T/run$runs.sh" \
		JOBFILE=tests/e2e/jobs/lava-tiny.ini RESULTS="$T/out$runs" "$@" &&
	mkdir -p "$T/lava$runs" &&
	PATH=$T/bin:$PATH sh "$T/bin/lava-test-shell" --output_dir "$T/lava$runs" \
		sh -e "$T/run$runs.sh" >"$T/log$runs" 2>&1
	[ "$(cat "$T/lava$runs/return_code" 2>/dev/null)" = 0 ]
}
lava_run
ok $? "the definition's run steps exit 0 under lava-test-shell" "$T/log1"
"$PY" tests/e2e/lab_check.py lava "$T/log1" >"$T/cases1" 2>&1
ok $? "every LAVA_SIGNAL_TESTCASE line parses as lava-dispatcher parses it" "$T/cases1"

# cases LOG-NUMBER: the cases of run N against its result file and result dir
cases() {
	"$PY" - "$T/cases$1" "$T/out$1" "$T/lava$1" "$2" <<'PY'
import glob, json, math, os, sys
cases = {c["test_case_id"]: c for c in map(json.loads, open(sys.argv[1]))}
files = glob.glob(os.path.join(sys.argv[2], "*", "*.json"))
assert len(files) == 1, files
res = json.load(open(files[0]))
want = {"pinbench-run"}
assert cases["pinbench-run"]["result"] == "pass", cases
for j in res["jobs"]:
    name = "%s.%s" % (j["name"], j["placement"])
    want.add(name)
    c = cases[name]
    if j["status"] == "skipped":
        assert c["result"] == "skip" and "measurement" not in c, (c, j["reason"])
        # the reason, the case's log in LAVA (between its STARTTC and ENDTC)
        assert c["log"] == ["%s: %s" % (name, j["reason"])], (c, j["reason"])
    elif j["status"] != "ok":
        assert c["result"] == "fail", (c, j["status"])
    else:
        mean = j["summary"]["mean"]
        assert c["result"] in ("pass", "fail"), c
        assert math.isclose(c["measurement"], mean, rel_tol=1e-5), (c, mean)
        assert c["units"] == "us", c
        if sys.argv[4] == "baseline":
            ch = cases[name + ".change"]
            want.add(name + ".change")
            assert ch["units"] == "%" and ch["result"] == c["result"], (ch, c)
    for a in j["anomalies"]:
        if a["severity"] == "error":
            want.add(name + "." + a["kind"])
            assert cases[name + "." + a["kind"]]["result"] == "fail"
for a in res["anomalies"]:     # run-wide: a failed environment check, say
    if a["severity"] == "error":
        want.add("pinbench-run.environment." + a["kind"])
        assert cases["pinbench-run.environment." + a["kind"]]["result"] == "fail"
assert set(cases) == want, (sorted(cases), sorted(want))
# lava-test-case recorded each case where lava-test-shell's result dir is
for name, c in cases.items():
    d = os.path.join(sys.argv[3], "results", name)
    assert open(os.path.join(d, "result")).read().strip() == c["result"], name
    if "measurement" in c:
        assert float(open(os.path.join(d, "measurement")).read()) == c["measurement"]
        assert open(os.path.join(d, "units")).read().strip() == c["units"]
print("%d cases: %s" % (len(cases), ", ".join("%s=%s" % (k, cases[k]["result"])
                                           for k in sorted(cases))))
PY
}
cases 1 none >"$T/check1" 2>&1
ok $? "run 1: a case per job x placement (skip where not offered), measurement = the mean, recorded by lava-test-case" "$T/check1"
comment "$T/check1"

base=$(ls "$T"/out1/*/*.json)
lava_run BASELINE="$base"
ok $? "run 2 with BASELINE=run 1's result file exits 0" "$T/log2"
"$PY" tests/e2e/lab_check.py lava "$T/log2" >"$T/cases2" 2>&1
cases 2 baseline >"$T/check2" 2>&1
ok $? "run 2: each measured case has its .change case against the baseline" "$T/check2"
comment "$T/check2"
grep -q '^<LAVA_SIGNAL_STARTRUN 0_pinbench ' "$T/log2" &&
	grep -q '^<LAVA_SIGNAL_ENDRUN 0_pinbench ' "$T/log2"
ok $? "the run is framed by STARTRUN and ENDRUN, as LAVA needs" "$T/log2"
done_testing
