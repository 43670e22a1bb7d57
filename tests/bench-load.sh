#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# How long reading many result files takes: N files (default 10,000; half
# label 6.1, half 6.2; genresults $GEN, default one job, one placement,
# 3 repeats: 3 KB a file, so that the statistics over 5,000 runs a label
# do not drown the reading) in a scratch
# folder, then the wall time of `pinbench compare DIR` and of `pinbench
# export --format junit --baseline DIR/6.1 DIR/6.2`, for each binary named
# (default ./pinbench): e.g. sh tests/bench-load.sh ./pinbench /tmp/old/pinbench.
# A benchmark, not a test: it prints, it does not judge.  N=... to change
# the count.  "load only" is `compare --baseline none DIR`: it reads every
# file, then stops (exit 2) at the unknown baseline before any statistics.
cd "$(dirname "$0")/.." || exit 2
N=${N:-10000}
GEN=${GEN:---jobs 1 --placements 1 --repeats 3}
T=$(mktemp -d "${TMPDIR:-/tmp}/pinbench-bench-load.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT PIPE TERM
# shellcheck disable=SC2046
${CC:-cc} -std=gnu11 -O2 -o "$T/gen" tests/tools/genresults.c \
	$(pkg-config --cflags --libs jansson) -lm || exit 2
mkdir "$T/r" "$T/r/6.1" "$T/r/6.2"
i=0
while [ $i -lt "$N" ]; do
	l=6.$((i % 2 + 1))
	# shellcheck disable=SC2086 # GEN is options
	"$T/gen" -o "$T/r/$l/$i.json" --label "$l" --seed $((i + 1)) $GEN || exit 2
	i=$((i + 1))
done
echo "$N result files ($GEN), $(du -sh "$T/r" | cut -f1), two labels"

# secs RC COMMAND...: its wall and CPU (user + system) time in seconds
# (output to /dev/null), or FAILED when it does not exit RC.  The CPU time
# is the figure to compare on a busy machine.
secs() {
	_want=$1
	shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -o "$T/time" -f "%e %U %S" "$@" >/dev/null 2>"$T/err"
		_rc=$?
	else
		_t0=$(date +%s.%N)
		"$@" >/dev/null 2>"$T/err"
		_rc=$?
		echo "$_t0 $(date +%s.%N)" | awk '{ print $2 - $1, "?", "?" }' >"$T/time"
	fi
	[ $_rc = "$_want" ] || { echo "FAILED ($(head -n 1 "$T/err"))"; return; }
	# the last line: time says "Command exited with non-zero status" first
	tail -n 1 "$T/time" | awk '{ if ($2 == "?") printf "%.2f s wall\n", $1
		else printf "%.2f s wall, %.2f s CPU\n", $1, $2 + $3 }' 
}
for pb in "${@:-./pinbench}"; do
	echo "== $pb"
	echo "load only (compare --baseline none DIR): $(secs 2 "$pb" compare --baseline none "$T/r")"
	echo "compare DIR: $(secs 0 "$pb" compare "$T/r")"
	echo "export --format junit --baseline DIR/6.1 DIR/6.2: $(secs 0 "$pb" export \
		--format junit --baseline "$T/r/6.1" "$T/r/6.2")"
done
