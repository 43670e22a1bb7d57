#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make check under conditions a user's machine may have, to show the suite
# does not depend on them (each must end "N passed, 0 failed, N skipped"):
#   unprivileged  as a user without root (PB_TEST_USER, default pbtest,
#                 created if missing) on a copy of this tree that user owns
#   one-cpu       under taskset -c on the first CPU this process may use
#   hog           with a CPU hog pinned to the second allowed CPU (.ci/run
#                 does this one too)
# Usage: tests/ci-variants.sh [unprivileged] [one-cpu] [hog] (default: all)
cd "$(dirname "$0")/.." || exit 2
TOP=$(pwd)
[ $# = 0 ] && set -- unprivileged one-cpu hog
first_cpu() {
	python3 -c 'import os; print(sorted(os.sched_getaffinity(0))[0])'
}
second_cpu() {
	python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(c[1] if len(c) > 1 else c[0])'
}
CLEAN=
HOG=
cleanup() {
	[ -n "$HOG" ] && kill "$HOG" 2>/dev/null
	[ -n "$CLEAN" ] && rm -rf "$CLEAN"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

unprivileged() {
	user=${PB_TEST_USER:-pbtest}
	if [ "$(id -u)" != 0 ]; then
		echo "ci-variants: unprivileged: already not root, this is make check" >&2
		make check
		return
	fi
	if ! id "$user" >/dev/null 2>&1; then
		useradd -m "$user" || return 1
	fi
	make --no-print-directory tests >/dev/null || return 1
	CLEAN=$(mktemp -d "${TMPDIR:-/tmp}/pinbench-unpriv.XXXXXX") || return 1
	cp -a "$TOP/." "$CLEAN/tree" && chown -R "$user" "$CLEAN/tree" &&
		chmod 755 "$CLEAN" || return 1
	su "$user" -c "cd '$CLEAN/tree' && make check"
	rc=$?
	rm -rf "$CLEAN"
	CLEAN=
	return $rc
}

one_cpu() {
	taskset -c "$(first_cpu)" make check
}

hog() {
	taskset -c "$(second_cpu)" sh -c 'while :; do :; done' &
	HOG=$!
	make check
	rc=$?
	kill "$HOG"
	wait "$HOG" 2>/dev/null
	HOG=
	return $rc
}

status=0
for v in "$@"; do
	echo "=== make check: $v"
	case $v in
	unprivileged) unprivileged ;;
	one-cpu) one_cpu ;;
	hog) hog ;;
	*) echo "ci-variants: unknown variant '$v' (unprivileged, one-cpu, hog)" >&2; exit 2 ;;
	esac || { status=1; echo "=== $v: FAILED"; }
done
exit $status
