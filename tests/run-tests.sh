#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run every cmocka unit test and every end-to-end script; each reports TAP
# lines ("ok N - name" / "not ok N - name").  A skip is neither a pass nor a
# failure: "ok N # SKIP reason" (tests/e2e/lib.sh), "1..0 # SKIP reason"
# (a whole script), or cmocka's "not ok N # SKIP test_name", whose reason is
# the "# skip: REASON" line the test printed before it (tests/skip.h).
# Every skip is shown with its reason.  Ends with "N passed, N failed,
# N skipped".
cd "$(dirname "$0")/.." || exit 2
log=${TMPDIR:-/tmp}/pinbench-tests.$$
pass=0
fail=0
skips=0
failed=""
trap 'rm -f "$log" "$log.sum"' EXIT
trap 'exit 1' HUP INT TERM

# tally LOG: "PASSED FAILED SKIPPED" on the first line, then one line per
# skip: its name or reason, and the reason the test printed for it, if any.
tally() {
	awk '
	function skipped(what, cmocka) {
		s++
		sub(/^[ \t]+/, "", what)
		if (what == "")
			what = "(no reason given)"
		if (why != "")
			what = what ": " why
		else if (cmocka)
			what = what ": (no reason given)"
		reasons[s] = what
		why = ""
	}
	/^# skip: / { why = substr($0, 9); next }
	/^1\.\.0 *# *[Ss][Kk][Ii][Pp]/ { sub(/^1\.\.0 *# *[Ss][Kk][Ii][Pp]/, ""); skipped($0, 0); next }
	/^(not )?ok( |$)/ {
		if (match($0, /# *[Ss][Kk][Ii][Pp]([ \t:]|$)/)) {
			skipped(substr($0, RSTART + RLENGTH), $0 ~ /^not ok/)
		} else if ($0 ~ /^ok/) {
			p++
		} else {
			f++
		}
		why = ""
	}
	END {
		printf "%d %d %d\n", p, f, s
		for (i = 1; i <= s; i++)
			print reasons[i]
	}' "$1"
}

run() {	# name command...
	name=$1
	shift
	"$@" >"$log" 2>&1
	rc=$?
	tally "$log" >"$log.sum"
	read -r p f s <"$log.sum"
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		f=1	# crashed or exited non-zero without saying which test
		echo "not ok - $name exited $rc" >>"$log"
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	skips=$((skips + s))
	summary="$p passed"
	[ "$f" = 0 ] || summary="$summary, $f failed"
	[ "$s" = 0 ] || summary="$summary, $s skipped"
	echo "--- $name: $summary"
	tail -n +2 "$log.sum" | sed 's/^/    skip: /'
	if [ "$f" != 0 ]; then
		failed="$failed $name"
		grep -v '^ok ' "$log" | tail -n 40
	fi
}
for t in tests/unit/*/test_*; do
	case "$t" in *.c|*.o|*.d) continue ;; esac
	[ -x "$t" ] || continue
	run "$t" env CMOCKA_MESSAGE_OUTPUT=TAP "$t"
done
for t in tests/e2e/*.sh; do
	case "$t" in */lib.sh) continue ;; esac
	[ -f "$t" ] || continue
	run "$t" sh "$t"
done
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed, $skips skipped"
[ "$fail" = 0 ]
