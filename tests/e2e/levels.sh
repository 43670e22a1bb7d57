#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End to end: the levels a result file records.  Its boot is this boot's
# id (through the sysroot reader, so a fake sysroot gives its own; null
# where there is none, and no message about it); its invocation is one id
# per pinbench run or bench, shared by every round and job file of it,
# and another for the next.
. "$(dirname "$0")/lib.sh"
need_pinbench

ID=0123abcd-0000-4000-8000-00000000beef
mkdir -p "$T/root/proc/sys/kernel/random" "$T/empty"
echo "$ID" >"$T/root/proc/sys/kernel/random/boot_id"
SHORT="duration=0.1 repeats=1 warmup=0 placement=same-cpu events=none -q --format json"

# shellcheck disable=SC2086 # SHORT is words
PINBENCH_SYSROOT="$T/root" $PB bench pipe $SHORT -o "$T/out" >"$T/fake.json" 2>"$T/why"
ok $(ran $?) "bench pipe under a fake sysroot" "$T/why"
check "its boot_id is the fake sysroot's" pyjson "$T/fake.json" "d['boot_id'] == '$ID'"
check "its invocation is 32 hex digits" pyjson "$T/fake.json" \
	'__import__("re").fullmatch("[0-9a-f]{32}", d["invocation"]) is not None'

# shellcheck disable=SC2086
PINBENCH_SYSROOT="$T/empty" $PB bench pipe $SHORT -o "$T/out" >"$T/none.json" 2>"$T/none.err"
ok $(ran $?) "bench pipe under a sysroot with no boot_id" "$T/none.err"
check "no boot id: null" pyjson "$T/none.json" 'd["boot_id"] is None'
check "and nothing said about it" sh -c "! grep -qi 'boot' '$T/none.err'"

# shellcheck disable=SC2086
$PB bench pipe $SHORT -o "$T/out" >"$T/here.json" 2>"$T/why"
ok $(ran $?) "bench pipe on this machine" "$T/why"
if [ -r /proc/sys/kernel/random/boot_id ]; then
	check "its boot_id is this machine's" pyjson "$T/here.json" \
		"d['boot_id'] == '$(cat /proc/sys/kernel/random/boot_id)'"
else
	check "no /proc/sys/kernel/random/boot_id here: null" pyjson "$T/here.json" \
		'd["boot_id"] is None'
fi
check "two invocations have two ids" python3 -c '
import json, sys
a, b = (json.load(open(f))["invocation"] for f in sys.argv[1:])
assert a != b, (a, b)' "$T/fake.json" "$T/here.json"

# one pinbench run of two job files, two rounds each: one invocation
cat >"$T/a.ini" <<'INI'
[global]
bench=pipe
repeats=1
duration=0.1
warmup=0
events=none
rounds=2

[a]
placement=same-cpu
INI
sed 's/^\[a\]/[b]/' "$T/a.ini" >"$T/b.ini"
$PB run -q -o "$T/res" --label L "$T/a.ini" "$T/b.ini" >"$T/run.out" 2>&1
ok $(ran $?) "run of two job files, two rounds each" "$T/run.out"
check "both files and every round share one invocation and one boot" python3 -c '
import glob, json, sys
docs = [json.load(open(f)) for f in sorted(glob.glob(sys.argv[1] + "/L/*.json"))]
assert len(docs) == 2, len(docs)
assert all(d["rounds"] == 2 and sorted(j["round"] for j in d["jobs"]) == [1, 2] for d in docs)
assert len({d["invocation"] for d in docs}) == 1, [d["invocation"] for d in docs]
assert len({d["boot_id"] for d in docs}) == 1' "$T/res"
check "and another invocation than the benches before" python3 -c '
import glob, json, sys
run = json.load(open(sorted(glob.glob(sys.argv[1] + "/L/*.json"))[0]))["invocation"]
assert run not in [json.load(open(f))["invocation"] for f in sys.argv[2:]]' \
	"$T/res" "$T/fake.json" "$T/here.json"

done_testing
