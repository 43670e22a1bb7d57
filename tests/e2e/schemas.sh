#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every machine-readable output against its JSON Schema in schemas/, with a
# real validator (Debian's python3-jsonschema, run by /usr/bin/python3):
# the result files of short real runs (pipe; udpping: latency with
# percentiles=, loss fields; epoll_ctl threads=1,2: per_instance; a failed
# and an interrupted job; nightly's), bench --format json on stdout,
# compare --format json of two of them (and of a real and a generated one:
# environment differences), doctor --format json (this machine and every
# fake sysroot), doctor --perf-stat on every recorded perf stat output,
# topo --format json (this machine and synthetic topologies), list
# --format json, and the fixtures tests/tools/genresults.c makes.  Then
# broken documents, which must fail.  Without the validator the whole
# script is skipped, saying so; in CI ($CI set) that is a failure.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
V=tests/e2e/schemas.py

if ! [ -x $PY ] || ! $PY -c 'import jsonschema' 2>/dev/null; then
	why="no python3-jsonschema for $PY (apt-get install python3-jsonschema, or make deps as root)"
	if [ -n "${CI:-}" ]; then
		ok 1 "$why"
		done_testing
		exit 1
	fi
	echo "1..0 # SKIP $why"
	exit 0
fi
need_pinbench

# valid WHAT FILE...: each FILE valid against the schema it names
valid() {
	_what=$1
	shift
	$PY $V "$@" >"$T/v.out" 2>&1
	ok $? "$_what" "$T/v.out"
}
# invalid WHAT PATTERN FILE: FILE fails validation, the error matches PATTERN
invalid() {
	$PY $V "$3" >"$T/v.out" 2>&1
	_rc=$?
	[ $_rc = 1 ] && grep -q -- "$2" "$T/v.out"
	ok $? "$1 fails (exit $_rc)" "$T/v.out"
}

check "every schema is a valid JSON Schema, named as lib/schema.h names them" \
	$PY $V --check-schemas

# ---- a short real run: result files ----
cat >"$T/jobs.ini" <<'EOF'
[global]
repeats=2
warmup=0.05
duration=0.2

[pingpong]
bench=pipe
placement=same-cpu,diff-socket

[udpping]
bench=udpping
size=1
percentiles=50,99,99.99
placement=same-cpu

[epoll]
bench=epoll_ctl
threads=1,2
EOF
"$PB" run --label a -o "$T/out" "$T/jobs.ini" >"$T/run.out" 2>"$T/why"
rc=$?
a=$(result_of "$T/run.out")
[ -f "$a" ]
ok $? "a short run of pipe, udpping and epoll_ctl writes its result (exit $rc)" "$T/why"
valid "the run's result file is a valid pinbench-result/1" "$a"
check "it has what the schema describes only when present: latency, loss, per_instance, counters" \
	$PY - "$a" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ok = [j for j in d["jobs"] if j["status"] == "ok"]
# a shared VM can stall every short window of a job: failed, and said so
for j in d["jobs"]:
    assert j["status"] in ("ok", "skipped") or j["reason"].startswith(
        ("every window stalled", "watchdog: no progress")), (j["name"], j["reason"])
assert any(j["bench"] == "pipe" for j in ok), "no pipe job ran"
assert len(d["invocation"]) == 32 and "boot_id" in d, "no invocation or boot_id"
for u in [j for j in ok if j["bench"] == "udpping"]:
    assert "latency" in u["summary"] and "loss_rate" in u, "udpping: no latency or loss"
    assert "p99.99" in u["summary"]["latency"], "udpping percentiles=50,99,99.99: no p99.99"
assert any("counters" in r for j in ok for r in j["repeats"]), "no counted repeat"
assert any(j["status"] == "skipped" and j["summary"] is None for j in d["jobs"]) or \
    d["host"]["topology"]["packages"] > 1, "no skipped job (diff-socket on one package)"
w = [j for j in ok if j["bench"] == "epoll_ctl" and j["params"].get("threads") == "2"]
assert not w or "per_instance" in w[0], "epoll_ctl threads=2: no per_instance"
PY
sed '/^\[epoll\]/,$d' "$T/jobs.ini" >"$T/jobs-b.ini"
"$PB" run --label b --set duration=0.1 --placement same-cpu -o "$T/out" "$T/jobs-b.ini" \
	>"$T/run.out" 2>"$T/why"
b=$(result_of "$T/run.out")
[ -f "$b" ]
ok $? "a second run (pipe, udpping)" "$T/why"
"$PB" bench pipe duration=0.1 repeats=1 warmup=0 placement=same-cpu --format json -q \
	-o "$T/out" >"$T/bench.json" 2>"$T/why"
ok $? "bench pipe --format json" "$T/why"
valid "bench --format json on stdout is a valid pinbench-result/1" "$T/bench.json"
# a failed job (the watchdog stops a hung setup) and an interrupted one
"$PB" bench pipe test_hang=setup timeout=0.5 --repeats 1 --duration 0.1 --warmup 0 \
	--placement same-cpu -q --format json -o "$T/out" >"$T/failed.json" 2>"$T/why"
$PY -c 'import json, sys; assert json.load(open(sys.argv[1]))["jobs"][0]["status"] == "failed"' \
	"$T/failed.json" 2>>"$T/why"
ok $? "a hung job: failed" "$T/why"
printf '[global]\nbench=pipe\nwarmup=0\nplacement=same-cpu\n[first]\nrepeats=1\nduration=0.1\n[second]\nrepeats=4\nduration=1\n' \
	>"$T/two.ini"
"$PB" run -q -o "$T/int" "$T/two.ini" >"$T/int.out" 2>&1 &
pb=$!
for _ in $(seq 1 3000); do
	ls "$T"/int/*/*.json >/dev/null 2>&1 && break
	sleep 0.01
done
sleep 1.5
kill -INT $pb
wait $pb
i=$(ls "$T"/int/*/*.json 2>/dev/null | head -n 1)
$PY -c 'import json, sys; assert json.load(open(sys.argv[1]))["jobs"][1]["status"] == "interrupted"' \
	"$i" 2>>"$T/int.out"
ok $? "SIGINT in the second job: interrupted" "$T/int.out"
valid "failed and interrupted jobs' result files are valid pinbench-result/1" "$T/failed.json" "$i"
# nightly files its result under the history, as run writes it
printf '[one]\nbench=pipe\nwarmup=0\nrepeats=2\nduration=0.1\nplacement=same-cpu\n' >"$T/one.ini"
"$PB" nightly "$T/one.ini" --history "$T/hist" --no-plot -q >"$T/why" 2>&1
rc=$?
set -- "$T"/hist/*/*.json
[ -f "$1" ]
ok $? "nightly files a result under its history (exit $rc)" "$T/why"
valid "nightly's result file is a valid pinbench-result/1" "$@"

# ---- compare ----
"$PB" compare --format json "$a" "$b" >"$T/cmp.json" 2>"$T/why"
rc=$?
[ $rc = 0 ] || [ $rc = 1 ]
ok $? "compare --format json of the two runs (exit $rc)" "$T/why"
valid "compare's JSON is a valid pinbench-compare/1" "$T/cmp.json"
genresults
$G -o "$T/g1.json" --label 6.1 --seed 1 --latency --derived --sweep &&
	$G -o "$T/g2.json" --label 6.2 --seed 2 --latency --derived --sweep --shift 4 \
		--skip pingpong:same-core --anomaly stall:pingpong:same-cpu &&
	$G -o "$T/g3.json" --label 6.3 --seed 3 --jobs 4 --placements 4 --repeats 2-5 \
		--drop stream:same-cpu
ok $? "genresults fixtures"
valid "the generated fixtures are valid pinbench-result/1" "$T/g1.json" "$T/g2.json" "$T/g3.json"
"$PB" compare --format json "$T/g1.json" "$T/g2.json" "$T/g3.json" >"$T/cmpg.json" 2>"$T/why"
"$PB" compare --format json --no-correction --group-by host "$a" "$T/g1.json" \
	>"$T/cmpx.json" 2>>"$T/why"
"$PB" compare --format json "$a" "$T/g2.json" >"$T/cmpe.json" 2>>"$T/why"
$PY -c 'import json, sys; assert json.load(open(sys.argv[1]))["environment_differences"]' \
	"$T/cmpe.json" 2>>"$T/why"
ok $? "compare of a real and a generated result lists environment differences" "$T/why"
valid "compare's JSON on fixtures (significance, skips, marks, host grouping) is valid" \
	"$T/cmpg.json" "$T/cmpx.json" "$T/cmpe.json"

# ---- doctor, perf stat, topo, list ----
"$PB" doctor --format json >"$T/doctor.json" 2>"$T/why"
rc=$?
[ $rc = 0 ] || [ $rc = 1 ]
ok $? "doctor --format json on this machine (exit $rc)" "$T/why"
set --
for s in tests/sysroot/*/; do
	s=${s%/}
	PINBENCH_SYSROOT=$s "$PB" doctor --format json >"$T/doctor-${s##*/}.json" 2>/dev/null
	set -- "$@" "$T/doctor-${s##*/}.json"
done
valid "doctor's JSON is a valid pinbench-doctor/1 (this machine, $# fake sysroots)" \
	"$T/doctor.json" "$@"
set --
for f in tests/perfstat/*.txt; do
	"$PB" doctor --perf-stat "$f" --nominal-mhz 3000 --format json \
		>"$T/ps-${f##*/}.json" 2>/dev/null
	set -- "$@" "$T/ps-${f##*/}.json"
done
valid "doctor --perf-stat's JSON is a valid pinbench-perf-stat/1 ($# recorded outputs)" "$@"
"$PB" topo --format json >"$T/topo.json" 2>"$T/why" &&
	"$PB" topo --format json --topology "pack:2 numa:2 core:4 pu:2" >"$T/topo2.json" &&
	"$PB" topo --format json --topology "pack:1 core:1 pu:1" >"$T/topo1.json"
ok $? "topo --format json (this machine, two synthetic topologies)" "$T/why"
valid "topo's JSON is a valid pinbench-topo/1" "$T/topo.json" "$T/topo2.json" "$T/topo1.json" \
	tests/golden/topo-pack2-core4-pu2.json
"$PB" list --format json >"$T/list.json" 2>"$T/why"
ok $? "list --format json" "$T/why"
valid "list's JSON is a valid pinbench-list/1" "$T/list.json"

# ---- broken documents fail ----
# break IN OUT 'python statement on d'
break_doc() {
	$PY -c 'import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))' "$1" "$2" "$3"
}
break_doc "$a" "$T/bad1.json" 'del d["jobs"][0]["status"]'
invalid "a result job without its status" "/jobs/0: 'status' is a required property" "$T/bad1.json"
break_doc "$a" "$T/bad2.json" 'd["anomalies"].append({"kind": "x", "severity": "warning", "message": "m", "advice": ""})'
invalid "an anomaly of severity \"warning\"" "/anomalies/[0-9]*/severity: 'warning' is not one of" \
	"$T/bad2.json"
break_doc "$a" "$T/bad3.json" 'd["jobs"][0]["repeats"][0]["ops"] = "many"'
invalid "a repeat's ops as text" "/jobs/0/repeats/0/ops: 'many' is not of type 'integer'" \
	"$T/bad3.json"
break_doc "$a" "$T/bad9.json" 'd["invocation"] = "run-1"'
invalid "an invocation not of 32 hex digits" "/invocation: 'run-1' does not match" "$T/bad9.json"
break_doc "$a" "$T/bad4.json" 'd["jobs"][0]["metric"]["better"] = "faster"'
invalid "a metric better \"faster\"" "/jobs/0/metric/better" "$T/bad4.json"
break_doc "$T/topo.json" "$T/bad5.json" 'd["placements"][0].update(cpus=None, reason=None)'
invalid "a topo placement with neither CPUs nor a reason" "/placements/0/reason" "$T/bad5.json"
break_doc "$T/cmp.json" "$T/bad6.json" 'd["results"][0]["verdict"] = "faster"'
invalid "a compare verdict \"faster\"" "/results/0/verdict" "$T/bad6.json"
break_doc "$T/doctor.json" "$T/bad7.json" 'd["schema"] = "pinbench-doctor/9"'
invalid "a document naming a schema there is no file for" "no schemas/pinbench-doctor-9" \
	"$T/bad7.json"
break_doc "$T/list.json" "$T/bad8.json" 'del d["schema"]'
invalid "a document naming no schema" "names no schema" "$T/bad8.json"

done_testing
