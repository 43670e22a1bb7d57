#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End-to-end: what a run checks before anything runs, --dry-run checks too
# (exit 2, a message naming the problem, nothing run, no results folder
# left behind): event names, the results folder, cpus= against the CPUs
# pinbench may use.  One TAP line per check.
. "$(dirname "$0")/lib.sh"
need_pinbench
# shellcheck disable=SC2034 # lib.sh shows it after a "not ok"
WHY=$T/exits2.err

# event names go through libpfm4: a typo is refused by --dry-run as by a run
exits2 "run --events cyclez --dry-run names cyclez" "unknown event 'cyclez'" \
	"$PB" run configs/quick.ini --events cyclez --dry-run
exits2 "bench --events cyclez --dry-run names cyclez" "unknown event 'cyclez'" \
	"$PB" bench pipe --events cyclez --dry-run
printf '[x]\nbench=pipe\nevents=task-clock,cyclez\n' >"$T/ev.ini"
exits2 "job file events=cyclez --dry-run names file:line" "$T/ev.ini:3: job 'x': events" \
	"$PB" run "$T/ev.ini" --dry-run

# the results folder: --dry-run checks it could be made, and makes nothing
printf 'x\n' >"$T/file"
exits2 "run --dry-run -o a file: the results folder cannot be made" \
	"-o $T/file: cannot create the results folder" \
	"$PB" run configs/quick.ini --dry-run -o "$T/file"
exits2 "bench --dry-run -o a file: the results folder cannot be made" \
	"-o $T/file/sub: cannot create the results folder" \
	"$PB" bench pipe --dry-run -o "$T/file/sub"
exits2 "a run with -o a file stops before anything runs" "-o $T/file: cannot create" \
	"$PB" bench pipe --duration 0.1 --repeats 1 --warmup 0 -o "$T/file"
check "... and printed no table" test ! -s "$T/exits2.out"
"$PB" bench pipe --dry-run -o "$T/new/deeper" >"$T/out" 2>&1
ok $? "--dry-run -o a folder that can be made: exit 0" "$T/out"
check "--dry-run made no folder" test ! -e "$T/new"
check "--dry-run left no probe behind" sh -c "! ls -a '$T' | grep -q pinbench-dry-run"

# cpus= naming a CPU pinbench cannot use is an error, not a skip.  No test
# machine has CPU 4095 or 9999; under taskset -c 0 only CPU 0 is allowed,
# whatever the machine has.
exits2 "bench cpus=4095,0: exit 2 naming CPU 4095" \
	"job 'pipe': cpus: CPU 4095 is not available to pinbench (no such CPU; allowed: " \
	"$PB" bench pipe cpus=4095,0 --duration 0.1 --repeats 1 --warmup 0 -q -o "$T/c1"
check "... before anything ran" test ! -e "$T/c1"
printf '[global]\nbench=pipe\n\n[typo]\ncpus=0,9999\n' >"$T/cpus.ini"
exits2 "job file cpus=0,9999: exit 2 naming file:line and CPU 9999" \
	"$T/cpus.ini:5: job 'typo': cpus: CPU 9999 is not available to pinbench" \
	"$PB" run "$T/cpus.ini" -q -o "$T/c2"
exits2 "... and by --dry-run" "$T/cpus.ini:5: job 'typo': cpus: CPU 9999" \
	"$PB" run "$T/cpus.ini" --dry-run
exits2 "--set cpus=0,9999: exit 2 naming --set" "--set: job 'pipe-pingpong': cpus: CPU 9999" \
	"$PB" run configs/quick.ini --set cpus=0,9999 --dry-run
"$PB" run "$T/cpus.ini" --placement same-cpu --dry-run >"$T/out" 2>&1
ok $? "--placement over a file's cpus=: the CPUs are not used, no error" "$T/out"
if taskset -c 0 true 2>/dev/null; then
	exits2 "taskset -c 0: cpus=0,1 names CPU 1, allowed 0" \
		"cpus: CPU 1 is not available to pinbench (.*allowed: 0)" \
		taskset -c 0 "$PB" bench pipe cpus=0,1 --dry-run
	taskset -c 0 "$PB" bench pipe cpus=0,0 --dry-run >"$T/out" 2>&1
	ok $? "taskset -c 0: cpus=0,0 plans" "$T/out"
	taskset -c 0 "$PB" bench pipe placement=same-socket --dry-run >"$T/out" 2>&1 &&
		grep -q "same-socket  skipped" "$T/out"
	ok $? "taskset -c 0: a placement needing two CPUs is still a skip" "$T/out"
else
	skip "taskset cannot pin to CPU 0 here"
	skip "taskset cannot pin to CPU 0 here"
	skip "taskset cannot pin to CPU 0 here"
fi
"$PB" bench pipe cpus=0,15 --topology "pack:2 core:4 pu:2" --dry-run >"$T/out" 2>&1
ok $? "--dry-run --topology: cpus= judged against that topology (CPU 15 there)" "$T/out"
exits2 "--dry-run --topology: CPU 16 is not in it" "CPU 16 is not available to pinbench (no such CPU; allowed: 0-15)" \
	"$PB" bench pipe cpus=0,16 --topology "pack:2 core:4 pu:2" --dry-run
done_testing
