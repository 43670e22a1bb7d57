#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Bounded inputs: what a user can hand pinbench by mistake (a device or a
# FIFO as a job file, a binary file, a huge synthetic topology, a label
# that names a path) is an error with a message and exit 2, at once.
# Nothing here runs a workload (--dry-run, topo, doctor --perf-stat).
. "$(dirname "$0")/lib.sh"
need_pinbench

# ---- job files
exits2 "/dev/zero as a job file" "/dev/zero: not a regular file (a character device)" \
	timeout 20 "$PB" run --dry-run /dev/zero
mkfifo "$T/fifo.ini"
exits2 "a FIFO as a job file" "fifo.ini: not a regular file (a FIFO)" \
	timeout 20 "$PB" run --dry-run "$T/fifo.ini"
exits2 "a folder as a job file" "configs: not a regular file (a directory)" \
	"$PB" run --dry-run configs
head -c 1100000 /dev/zero | tr '\0' '#' | fold -w 60 >"$T/big.ini"
exits2 "a job file over 1 MiB" "big.ini: larger than 1048576 bytes" \
	"$PB" run --dry-run "$T/big.ini"
{ printf '[a]\nbench=pipe\n'; head -c 5000 /dev/zero | tr '\0' x; echo; } >"$T/long.ini"
exits2 "a line over 4096 bytes" "long.ini:3: line longer than 4096 bytes" \
	"$PB" run --dry-run "$T/long.ini"
printf '[a]\nbench=pipe\nplacement=same-cpu\0,same-core\n' >"$T/nul.ini"
exits2 "a NUL byte mid-line" "nul.ini:3: a NUL byte in the line" \
	"$PB" run --dry-run "$T/nul.ini"
printf '\357\273\277[a]\nbench=pipe\nplacement=same-cpu\n' >"$T/bom.ini"
"$PB" run --dry-run "$T/bom.ini" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] && grep -q '^a (pipe)' "$T/out"
ok $? "a UTF-8 byte order mark at the start is skipped (exit $rc)" "$T/err"

done_testing
