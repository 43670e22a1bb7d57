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

# ---- labels: a folder name under -o and a row of compare
for l in .. . "" "../../etc" "a/b" "$(printf 'x\033[2Jy')"; do
	exits2 "run --label '$(printf %s "$l" | tr -c '[:print:]' '?')'" "^pinbench run: --label '" \
		"$PB" run --dry-run --label "$l" -o "$T/res" configs/quick.ini
done
exits2 "a label of 101 characters" "101 characters, at most 100" \
	"$PB" run --dry-run --label "$(printf '%0101d' 0)" configs/quick.ini
exits2 "bench --label .." "^pinbench bench: --label '..': not a folder name" \
	"$PB" bench pipe --label .. --dry-run
"$PB" run --dry-run --label "6.8.0-rc3+~1_x,y:z@host" configs/quick.ini >"$T/out" 2>"$T/err"
ok $? "a label of every allowed kind of character" "$T/err"
"$PB" run --dry-run configs/quick.ini >"$T/out" 2>"$T/err"
ok $? "the default label (uname -r: $(uname -r)) passes" "$T/err"
printf '#!/bin/sh\ntouch "%s/ran"\n' "$T" >"$T/fake-run"
chmod +x "$T/fake-run"
exits2 "nightly --label .." "^pinbench nightly: --label '..': not a folder name" \
	env PINBENCH_RUN_STANDIN="$T/fake-run" "$PB" nightly configs/quick.ini --history "$T/h" --label ..
check "nightly ran nothing for a bad label" test ! -e "$T/ran"

done_testing
