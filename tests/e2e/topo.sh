#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End-to-end test of `pinbench topo`: golden outputs on synthetic
# topologies, this machine, bad input.  One TAP line per check.
# PINBENCH may name the binary (default ./pinbench, from the repo root).
cd "$(dirname "$0")/../.." || exit 2
pb=${PINBENCH:-./pinbench}
golden=tests/golden
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pinbench-topo.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

ok() {	# status description
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

# golden NAME SPEC [ARGS...]: output and exit code against tests/golden/NAME
golden() {
	name=$1
	spec=$2
	shift 2
	"$pb" topo --topology "$spec" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	diff -u "$golden/$name" "$tmp/out" >"$tmp/diff" 2>&1
	d=$?
	[ "$rc" = 0 ] && [ "$d" = 0 ]
	ok $? "topo --topology \"$spec\"${*:+ $*} matches $name"
	[ "$d" = 0 ] || sed 's/^/# /' "$tmp/diff"
}

# fails_usage DESCRIPTION ARGS...: exit 2, "pinbench topo:" on stderr, no stdout
fails_usage() {
	what=$1
	shift
	"$pb" topo "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = 2 ] && grep -q '^pinbench topo: ' "$tmp/err" && [ ! -s "$tmp/out" ]
	ok $? "$what exits 2 with a message (exit $rc)"
}

if [ ! -x "$pb" ]; then
	ok 1 "$pb is built"
	exit 1
fi

golden topo-pack2-core4-pu2.txt "pack:2 core:4 pu:2"
golden topo-pack2-core4-pu2.json "pack:2 core:4 pu:2" --format json
golden topo-pack2-l3x2-core2.txt "pack:2 l3:2 core:2 pu:1"
golden topo-pack2-numa2-core2.txt "pack:2 numa:2 core:2 pu:1"

# options anywhere on the line (GNU getopt order), --opt=value form
"$pb" topo -q --format=json --topology="pack:2 core:4 pu:2" -q >"$tmp/out" 2>&1 &&
	cmp -s "$golden/topo-pack2-core4-pu2.json" "$tmp/out"
ok $? "topo -q --format=json --topology=... matches the golden JSON"

# the issue's promise: the four seed placements resolve on pack:2 core:4 pu:2
"$pb" topo --topology "pack:2 core:4 pu:2" >"$tmp/out" 2>&1
k=0
for p in same-cpu same-core same-socket diff-socket; do
	grep -Eq "^$p +[0-9]+,[0-9]+\$" "$tmp/out" && k=$((k + 1))
done
[ "$k" = 4 ]
ok $? "same-cpu, same-core, same-socket, diff-socket all resolve on pack:2 core:4 pu:2"

# this machine: every placement listed, PUs as many as we may run on
"$pb" topo >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] && grep -q '^topology: this machine$' "$tmp/out" &&
	[ "$(grep -Ec '^(same|diff)-[a-z]+ |^compact |^scatter ' "$tmp/out")" = 9 ]
ok $? "topo on this machine exits 0 and lists 9 placements (exit $rc)"
grep -q "PUs $(nproc)," "$tmp/out"
ok $? "topo on this machine counts $(nproc) PUs (nproc)"
grep -Eq '^same-cpu +([0-9]+),\1$' "$tmp/out"
ok $? "same-cpu resolves on this machine"
if command -v taskset >/dev/null 2>&1; then
	c=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
	taskset -c "$c" "$pb" topo >"$tmp/out" 2>&1 &&
		grep -q 'PUs 1,' "$tmp/out" && grep -Eq "^compact +$c\$" "$tmp/out"
	ok $? "taskset -c $c: topo sees only CPU $c"
fi
"$pb" topo --format json >"$tmp/out" 2>"$tmp/err" &&
	grep -q '"placements": \[' "$tmp/out" && grep -q '"numa_nodes": ' "$tmp/out"
ok $? "topo --format json on this machine"

"$pb" topo --help >"$tmp/out" 2>"$tmp/err" && grep -q '^usage: pinbench topo' "$tmp/out"
ok $? "topo --help prints usage on stdout, exits 0"

fails_usage "a bad synthetic spec" --topology "pack:x"
grep -q "'pack:x'" "$tmp/err"
ok $? "the message names the bad spec"
fails_usage "a missing XML file" --topology /nonexistent/machine.xml
fails_usage "--format xml" --format xml
fails_usage "an unknown option" --frobnicate
fails_usage "a stray argument" stray
fails_usage "--topology without a value" --topology

echo "1..$n"
[ "$failed" = 0 ]
