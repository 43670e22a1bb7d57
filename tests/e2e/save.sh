#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Results are never lost nor overwritten: the results folder is checked
# before anything runs; the result file is saved after every job
# (atomically), so a crash loses at most the job in flight; a failed save
# says the real error and still prints the JSON when asked; concurrent
# runs get a file each; two runs on the same CPUs know of each other
# (per-CPU locks, --wait).
. "$(dirname "$0")/lib.sh"
need_pinbench

# Our own lock folder: another pinbench on this machine must not change
# what these checks see (and they must not disturb it).
PINBENCH_LOCK_DIR=$T/locks
export PINBENCH_LOCK_DIR
mkdir -p "$T/locks"
ONEC="--repeats 1 --duration 0.1 --warmup 0 -q"
ONE="$ONEC --placement same-cpu"

# no temp file (*.tmp.*) nor probe file left in folder $1
no_litter() {
	[ -z "$(find "$1" -name '*.tmp.*' -o -name '.pinbench-*' 2>/dev/null)" ]
}

# wait_file GLOB [TRIES]: until a file matches (10 ms steps); 1 if none did
wait_file() {
	for _ in $(seq 1 "${2:-3000}"); do
		# shellcheck disable=SC2086
		ls $1 >/dev/null 2>&1 && return 0
		sleep 0.01
	done
	return 1
}

# ---- the results folder is checked before anything runs
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$T/ro"
	if unshare -m sh -c "mount -t tmpfs -o ro,size=64k none '$T/ro'" 2>/dev/null; then
		# the label's folder exists already (mkdir -p succeeds): only a
		# write can tell
		unshare -m sh -c "mount -t tmpfs -o size=64k none '$T/ro' &&
			mkdir '$T/ro/$(uname -r)' && mount -o remount,ro '$T/ro' &&
			exec $PB bench pipe $ONE -o '$T/ro'" >"$T/ro.out" 2>"$T/ro.err"
		rc=$?
		ok $([ $rc = 2 ] && grep -q "cannot write in $T/ro/.*Read-only file system" "$T/ro.err" &&
			echo 0 || echo 1) "a read-only results folder: exit 2 naming the error (got $rc)" "$T/ro.err"
	else
		skip "cannot mount a read-only tmpfs in a mount namespace here"
	fi
else
	mkdir -p "$T/ro/$(uname -r)"
	chmod 555 "$T/ro/$(uname -r)"
	$PB bench pipe $ONE -o "$T/ro" >"$T/ro.out" 2>"$T/ro.err"
	rc=$?
	ok $([ $rc = 2 ] && grep -q "cannot write in $T/ro/.*Permission denied" "$T/ro.err" &&
		echo 0 || echo 1) "an unwritable results folder: exit 2 naming it (got $rc)" "$T/ro.err"
	chmod 755 "$T/ro/$(uname -r)"
fi
check "an unwritable results folder: nothing ran" sh -c "! grep -q rtt '$T/ro.out'"
exits2 "a label too long for a file name: exit 2 before running" "label" \
	"$PB" bench pipe $ONE -o "$T/lab" --label "$(printf 'x%.0s' $(seq 1 300))"
check "a label too long: no folder made" test ! -e "$T/lab"

# ---- a failed save: the real error, no "results:" line, JSON still printed
# (a file size limit makes the write itself fail, as a full disk would)
{ (ulimit -f 4; trap '' XFSZ; $PB bench pipe $ONE --format json -o "$T/big"; echo $? >"$T/big.rc") |
	cat >"$T/big.json"; } 2>"$T/big.err"
rc=$(cat "$T/big.rc")
WHY=$T/big.err
ok $([ "$rc" = 1 ] && grep -q "results not saved: cannot write $T/big/.*: File too large" "$T/big.err" &&
	echo 0 || echo 1) "a short write: exit 1 with the real error, File too large (got $rc)"
check "a failed save: no results line naming a file that does not exist" \
	sh -c "! grep -q '^results:' '$T/big.err'"
check "a failed save: the JSON still goes to stdout with --format json" pyjson "$T/big.json" \
	'd["jobs"][0]["status"] == "ok" and d["finished"] is not None'
check "a failed save: no result, no temp file left" sh -c \
	"[ -z \"\$(find '$T/big' -name '*.json')\" ] && [ -z \"\$(find '$T/big' -name '*.tmp.*')\" ]"
WHY=
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	mkdir -p "$T/full"
	unshare -m sh -c "mount -t tmpfs -o size=8k none '$T/full' &&
		exec $PB bench pipe $ONE -o '$T/full'" >"$T/full.out" 2>"$T/full.err"
	rc=$?
	ok $([ $rc = 1 ] && grep -q "results not saved: .*No space left on device" "$T/full.err" &&
		echo 0 || echo 1) "a full disk: exit 1, No space left on device (got $rc)" "$T/full.err"
else
	skip "a full disk: needs root to mount a small tmpfs"
fi

# ---- saved after every job: SIGKILL after the first job loses only the second
cat >"$T/two.ini" <<EOF
[global]
bench=pipe
warmup=0
placement=same-cpu
[first]
repeats=1
duration=0.1
[second]
repeats=3
duration=2
EOF
$PB run "$T/two.ini" -q -o "$T/crash" >"$T/crash.out" 2>&1 &
pb=$!
if wait_file "$T/crash/*/*.json"; then
	kill -KILL $pb
	wait $pb 2>/dev/null
	J=$(ls "$T"/crash/*/*.json | head -n 1)
	check "SIGKILL after the first job: its result is on disk, whole" pyjson "$J" \
		'[j["name"] for j in d["jobs"]] == ["first"] and d["jobs"][0]["status"] == "ok" and d["jobs_planned"] == 2 and d["finished"] is None'
	check "SIGKILL: no temp file left" no_litter "$T/crash"
	for _ in $(seq 1 100); do
		pgrep -f "$T/cras[h]" >/dev/null || break
		sleep 0.05
	done
	check "SIGKILL of the run: its job and roles go too" sh -c "! pgrep -f '$T/cras[h]'"
else
	kill -KILL $pb
	wait $pb 2>/dev/null
	ok 1 "SIGKILL after the first job: the first job's result appears" "$T/crash.out"
fi

# ---- SIGINT after the first job: first ok, second interrupted, exit 1
$PB run "$T/two.ini" -q -o "$T/int" >"$T/int.out" 2>&1 &
pb=$!
wait_file "$T/int/*/*.json"
# the second job has begun once the run's job process has a child (a role):
# a SIGINT between the two jobs would leave the second one unstarted
for _ in $(seq 1 500); do
	for c in $(pgrep -P $pb); do
		[ -n "$(pgrep -P "$c")" ] && break 2
	done
	sleep 0.01
done
kill -INT $pb
wait $pb
rc=$?
J=$(ls "$T"/int/*/*.json 2>/dev/null | head -n 1)
ok $([ $rc = 1 ] && [ -s "$J" ] && echo 0 || echo 1) "SIGINT during the second job: exit 1 (got $rc)" "$T/int.out"
check "SIGINT during the second job: the first ok, the second interrupted" pyjson "$J" \
	'[(j["name"], j["status"]) for j in d["jobs"]] == [("first", "ok"), ("second", "interrupted")] and d["finished"] is not None'
check "SIGINT: says what finished is saved" grep -q "interrupted; what finished is saved" "$T/int.out"

# ---- SIGINT after the last job (while the run is wrapped up and saved):
# nothing was cut, so the exit code is the jobs' (0), not an interrupt
hit=no
for _ in 1 2 3 4 5; do
	rm -rf "$T/late"
	$PB bench pipe $ONE -o "$T/late" >"$T/late.out" 2>&1 &
	pb=$!
	wait_file "$T/late/*/*.json"
	if kill -INT $pb 2>/dev/null; then
		wait $pb
		rc=$?
		hit=yes
		break
	fi
	wait $pb
done
if [ $hit = yes ]; then
	J=$(ls "$T"/late/*/*.json 2>/dev/null | head -n 1)
	ok $([ "$(ran $rc)" = 0 ] && ! grep -q interrupted "$T/late.out" && echo 0 || echo 1) \
		"SIGINT after the last job: exit 0, nothing called interrupted (got $rc)" "$T/late.out"
	check "SIGINT after the last job: the file is whole and finished" pyjson "$J" \
		'd["jobs"][0]["status"] == "ok" and d["finished"] is not None'
else
	skip "SIGINT after the last job: the run ended before the signal, 5 times"
fi

# ---- SIGINT before the first repeat ends: nothing measured, nothing saved
# (signalled once the run holds its CPU, in a folder of locks of its own:
# a fixed 0.05 s sleep was once late by the whole 0.47 s run in CI)
mkdir -p "$T/locks-early"
PINBENCH_LOCK_DIR=$T/locks-early $PB bench pipe --repeats 1 --duration 30 --warmup 0 -q \
	cpus=$C0,$C0 -o "$T/early" >"$T/early.out" 2>&1 &
pb=$!
wait_file "$T/locks-early/pinbench-cpu$C0.lock"
kill -INT $pb
wait $pb
rc=$?
ok $([ $rc = 1 ] && [ -z "$(find "$T/early" -name '*.json' 2>/dev/null)" ] && echo 0 || echo 1) \
	"SIGINT in the first repeat: exit 1, no result file with no job in it (got $rc)" "$T/early.out"

# ---- concurrent runs: a file each, none overwritten (no -q: each says its "results:" path)
for i in 1 2 3 4; do
	PINBENCH_LOCK_DIR=$T/locks-$i $PB bench pipe --repeats 1 --duration 0.1 --warmup 0 \
		--placement same-cpu -o "$T/conc" >"$T/conc$i.out" 2>&1 &
done
wait
paths=$(cat "$T"/conc*.out | sed -n 's/^results: //p' | sort -u)
check "4 runs at once: 4 result paths, one each" test "$(echo "$paths" | wc -l)" = 4
check "4 runs at once: 4 files on disk" test "$(find "$T/conc" -name '*.json' | wc -l)" = 4
check "4 runs at once: every file named is there, whole" sh -c \
	"for p in $(echo $paths); do python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \$p || exit 1; done"

# ---- two runs on one CPU: the second knows (S), or waits (--wait)
# (the first measures long enough to outlast the second whole run, probes
# and re-probes of a busy machine included, so that the third finds it)
# The second run's window is 0.3 s, not 0.1: two pipe pairs share the CPU.
# CI failed this check once with a hog on the other CPU, its cause unseen:
# a failure now shows the job's status, reason and marks.
$PB bench pipe --repeats 4 --duration 3 --warmup 0 cpus=$C0,$C0 -q -o "$T/la" \
	>"$T/la.out" 2>&1 &
pa=$!
wait_file "$PINBENCH_LOCK_DIR/pinbench-cpu$C0.lock" && sleep 0.2
$PB bench pipe --repeats 1 --duration 0.3 --warmup 0 -q cpus=$C0,$C0 --format json \
	-o "$T/lb" >"$T/lb.json" 2>"$T/lb.err"
rc=$?
# on failure: the warning, and the job's status, reason and marks
python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print("job:", j["status"], j.get("reason"), [(a["kind"], a["message"]) for a in j["anomalies"]])
' "$T/lb.json" >>"$T/lb.err" 2>&1
WHY=$T/lb.err
check "a second run on a CPU being measured: warned, naming CPU and pid" \
	grep -q "CPU $C0 is held by pid $pa (pinbench, " "$T/lb.err"
check "... and the job carries the shared-cpus anomaly (S), and ran" pyjson "$T/lb.json" \
	"d['jobs'][0]['status'] == 'ok' and any(a['kind'] == 'shared-cpus' and 'pid $pa' in a['message'] for a in d['jobs'][0]['anomalies'])"
$PB bench pipe $ONEC cpus=$C0,$C0 --wait --format json -o "$T/lw" >"$T/lw.json" 2>"$T/lw.err"
rc=$?
WHY=$T/lw.err
check "--wait: says it waits for the CPU and its holder" \
	grep -q "waiting for CPU $C0, held by pid $pa (pinbench, " "$T/lw.err"
check "--wait: ran after the other one, without the S mark" pyjson "$T/lw.json" \
	"d['jobs'][0]['status'] == 'ok' and not any(a['kind'] == 'shared-cpus' for a in d['jobs'][0]['anomalies'])"
check "--wait: the other run had finished measuring (its lock is free)" python3 - \
	"$PINBENCH_LOCK_DIR/pinbench-cpu$C0.lock" "$pa" <<'PY'
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDWR)
fl = fcntl.fcntl(fd, fcntl.F_GETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0))
kind, _, _, _, pid = struct.unpack("hhqqi", fl)
# free, or held again by the first run's next job: never by someone else
sys.exit(0 if kind == fcntl.F_UNLCK or pid == int(sys.argv[2]) else 1)
PY
wait $pa
WHY=
# a --wait interrupted: stops at once, nothing measured, nothing saved
$PB bench pipe --repeats 4 --duration 0.5 --warmup 0 cpus=$C0,$C0 -q -o "$T/la2" \
	>"$T/la2.out" 2>&1 &
pa=$!
sleep 0.5
$PB bench pipe $ONEC cpus=$C0,$C0 --wait -o "$T/lw2" >"$T/lw2.out" 2>&1 &
pw=$!
grep_wait() { for _ in $(seq 1 500); do grep -q "$1" "$2" && return 0; sleep 0.01; done; return 1; }
grep_wait "waiting for CPU" "$T/lw2.out"
kill -INT $pw
wait $pw
rc=$?
ok $([ $rc = 1 ] && [ -z "$(find "$T/lw2" -name '*.json' 2>/dev/null)" ] && echo 0 || echo 1) \
	"SIGINT while waiting for a CPU: exit 1 at once, nothing saved (got $rc)" "$T/lw2.out"
kill -INT $pa 2>/dev/null
wait $pa
# a lock folder that cannot be used: said once, the run goes on
PINBENCH_LOCK_DIR=$T/no/such/dir $PB bench pipe $ONE --format json -o "$T/nl" \
	>"$T/nl.json" 2>"$T/nl.out"
rc=$?
# on failure: the warning, and each job's status, reason and marks
python3 -c '
import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    print("job:", j["placement"], j["status"], j.get("reason"), [(a["kind"], a["message"]) for a in j["anomalies"]])
' "$T/nl.json" >>"$T/nl.out" 2>&1
ok $([ "$(ran $rc)" = 0 ] && [ "$(grep -c 'runs are not kept apart' "$T/nl.out")" = 1 ] && echo 0 || echo 1) \
	"an unusable lock folder: one warning, the run goes on (got $rc)" "$T/nl.out"

done_testing
