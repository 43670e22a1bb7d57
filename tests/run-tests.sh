#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run every cmocka unit test and every end-to-end script; each reports TAP
# lines ("ok N - name" / "not ok N - name").  Ends with "N passed, N failed".
cd "$(dirname "$0")/.." || exit 2
log=${TMPDIR:-/tmp}/pinbench-tests.$$
pass=0
fail=0
failed=""
run() {	# name command...
	name=$1
	shift
	"$@" >"$log" 2>&1
	rc=$?
	p=$(grep -c '^ok ' "$log")
	f=$(grep -c '^not ok ' "$log")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		f=1	# crashed or exited non-zero without saying which test
		echo "not ok - $name exited $rc" >>"$log"
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	if [ "$f" != 0 ]; then
		failed="$failed $name"
		echo "--- $name: $p passed, $f failed"
		grep -v '^ok ' "$log" | tail -n 40
	else
		echo "--- $name: $p passed"
	fi
}
for t in tests/test_*; do
	case "$t" in *.c|*.o|*.d) continue ;; esac
	[ -x "$t" ] || continue
	run "$t" env CMOCKA_MESSAGE_OUTPUT=TAP "$t"
done
for t in tests/e2e/*.sh; do
	case "$t" in */lib.sh) continue ;; esac
	[ -f "$t" ] || continue
	run "$t" sh "$t"
done
rm -f "$log"
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
