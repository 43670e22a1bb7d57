#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End-to-end test of `pinbench topo`: golden outputs on synthetic
# topologies, this machine (against what sysfs says about the CPUs this
# process may use), bad input.  One TAP line per check.
# PINBENCH may name the binary (default ./pinbench, from the repo root).
. "$(dirname "$0")/lib.sh"
golden=tests/golden

# golden NAME SPEC [ARGS...]: output and exit code against tests/golden/NAME
golden() {
	name=$1
	spec=$2
	shift 2
	"$PB" topo --topology "$spec" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	diff -u "$golden/$name" "$T/out" >"$T/diff" 2>&1
	d=$?
	[ "$rc" = 0 ] && [ "$d" = 0 ]
	ok $? "topo --topology \"$spec\"${*:+ $*} matches $name" "$T/diff"
}

# fails_usage DESCRIPTION ARGS...: exit 2, "pinbench topo:" on stderr, no stdout
fails_usage() {
	what=$1
	shift
	"$PB" topo "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] && grep -q '^pinbench topo: ' "$T/err" && [ ! -s "$T/out" ]
	ok $? "$what exits 2 with a message (exit $rc)"
}

need_pinbench

golden topo-pack2-core4-pu2.txt "pack:2 core:4 pu:2"
golden topo-pack2-core4-pu2.json "pack:2 core:4 pu:2" --format json
golden topo-pack2-l3x2-core2.txt "pack:2 l3:2 core:2 pu:1"
golden topo-pack2-numa2-core2.txt "pack:2 numa:2 core:2 pu:1"

# options anywhere on the line (GNU getopt order), --opt=value form
"$PB" topo -q --format=json --topology="pack:2 core:4 pu:2" -q >"$T/out" 2>&1 &&
	cmp -s "$golden/topo-pack2-core4-pu2.json" "$T/out"
ok $? "topo -q --format=json --topology=... matches the golden JSON"

# the issue's promise: the four seed placements resolve on pack:2 core:4 pu:2
"$PB" topo --topology "pack:2 core:4 pu:2" >"$T/out" 2>&1
k=0
for p in same-cpu same-core same-socket diff-socket; do
	grep -Eq "^$p +[0-9]+,[0-9]+\$" "$T/out" && k=$((k + 1))
done
[ "$k" = 4 ]
ok $? "same-cpu, same-core, same-socket, diff-socket all resolve on pack:2 core:4 pu:2"

# this machine: every placement listed, PUs as many as we may run on
"$PB" topo >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" = 0 ] && grep -q '^topology: this machine$' "$T/out" &&
	[ "$(grep -Ec '^(same|diff)-[a-z]+ |^compact |^scatter ' "$T/out")" = 9 ]
ok $? "topo on this machine exits 0 and lists 9 placements (exit $rc)"
grep -q "PUs $(nproc)," "$T/out"
ok $? "topo on this machine counts $(nproc) PUs (nproc)"
grep -Eq '^same-cpu +([0-9]+),\1$' "$T/out"
ok $? "same-cpu resolves on this machine"
if command -v taskset >/dev/null 2>&1; then
	c=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
	taskset -c "$c" "$PB" topo >"$T/out" 2>&1 &&
		grep -q 'PUs 1,' "$T/out" && grep -Eq "^compact +$c\$" "$T/out"
	ok $? "taskset -c $c: topo sees only CPU $c"
fi
"$PB" topo --format json >"$T/out" 2>"$T/err" &&
	grep -q '"placements": \[' "$T/out" && grep -q '"numa_nodes": ' "$T/out"
ok $? "topo --format json on this machine"
# sysfs, not hwloc, for the CPUs sched_getaffinity allows: packages, cores
# (thread siblings), SMT; and what each placement needs of them
check "topo on this machine agrees with sysfs for the allowed CPUs" python3 - "$T/out" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
cpus = set(os.sched_getaffinity(0))
def group(c, name):
    with open("/sys/devices/system/cpu/cpu%d/topology/%s" % (c, name)) as f:
        s = f.read().strip()
    out = set()
    for part in s.split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return frozenset(out & cpus)
pkgs = {group(c, "package_cpus_list") for c in cpus}
cores = {group(c, "core_cpus_list") for c in cpus}
want = {"packages": len(pkgs), "cores": len(cores), "pus": len(cpus),
        "smt": any(len(k) > 1 for k in cores)}
got = {k: d["topology"][k] for k in want}
assert got == want, "topo says %r, sysfs %r" % (got, want)
pl = {p["name"]: p["cpus"] for p in d["placements"]}
for name, cpu_list in pl.items():
    assert cpu_list is None or set(cpu_list) <= cpus, "%s: %r not allowed" % (name, cpu_list)
need = {"same-cpu": True, "same-core": want["smt"], "diff-socket": len(pkgs) > 1,
        "same-socket": any(len({k for k in cores if k <= p}) > 1 for p in pkgs)}
for name, can in need.items():
    assert (pl[name] is not None) == can, "%s: %r, but sysfs says %s" % (name, pl[name], can)
PY

"$PB" topo --help >"$T/out" 2>"$T/err" && grep -q '^usage: pinbench topo' "$T/out"
ok $? "topo --help prints usage on stdout, exits 0"

fails_usage "a bad synthetic spec" --topology "pack:x"
grep -q "'pack:x'" "$T/err"
ok $? "the message names the bad spec"
fails_usage "a missing XML file" --topology /nonexistent/machine.xml
# hwloc spent 30 s and 450 MB on this; refused at once (timeout: a regression fails, not stalls)
exits2 "a synthetic topology of 65536 PUs, refused at once" \
	"'pack:256 core:64 pu:4': more than 4096 PUs" \
	timeout 20 "$PB" topo --topology "pack:256 core:64 pu:4"
exits2 "the same for run --dry-run" "more than 4096 PUs" \
	timeout 20 "$PB" run --dry-run --topology "pack:4097" configs/quick.ini
fails_usage "--format xml" --format xml
fails_usage "an unknown option" --frobnicate
fails_usage "a stray argument" stray
fails_usage "--topology without a value" --topology

done_testing
