# SPDX-License-Identifier: GPL-2.0-only
# Helpers for end-to-end tests: TAP output, a scratch folder, JSON checks.
# Source from a test: . "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.." || exit 2
PB=${PINBENCH:-./pinbench}
T=$(mktemp -d "${TMPDIR:-/tmp}/pinbench-e2e.XXXXXX")
trap 'rm -rf "$T"' EXIT
n=0
nfail=0
ok() {		# ok CONDITION-EXIT-CODE DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		nfail=$((nfail + 1))
	fi
}
check() {	# check DESCRIPTION COMMAND...
	d=$1
	shift
	"$@" >"$T/check.out" 2>&1
	r=$?
	ok $r "$d"
	[ $r = 0 ] || sed 's/^/# /' "$T/check.out" | head -n 20
}
# pyjson FILE 'python expression over d (the JSON) that must be true'
pyjson() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2])
if not ok:
    print("false:", sys.argv[2])
sys.exit(0 if ok else 1)
PY
}
# The result file a run printed ("results: PATH").
result_of() {
	sed -n 's/^results: //p' "$1" | tail -n 1
}
done_testing() {
	echo "1..$n"
	[ "$nfail" = 0 ]
}
