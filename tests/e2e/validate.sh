#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End-to-end: what a run checks before anything runs, --dry-run checks too
# (exit 2, a message naming the problem, nothing run, no results folder
# left behind).  One TAP line per check.
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
done_testing
