#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A whole `pinbench campaign` on real kernels: Debian's kernel in QEMU, A =
# its default command line, B = the same image with mitigations=off, 2 boots
# each (A B B A), switched by kexec inside the guest.  The guest's /init
# (tests/boot/init) runs the step at every boot with the state on a virtio
# disk, and prints the status before and after it on the serial console.
# The whole campaign's job has a profile pass: on a CPU the kernel mitigates
# (under TCG, $BOOT_CPU: page table isolation, return thunks), B's entry and
# return paths are cheaper, and compare --profiles of the results says so.
# Three runs of one built image set: the whole campaign; one aborted before
# the step of boot 3; one whose kernel B's image is gone after init.
# make check-boot runs it (not make check: it boots kernels for minutes).
. "$(dirname "$0")/../e2e/lib.sh"
. tests/boot/lib.sh
BOOT_MEM=${BOOT_MEM:-384M}

boot_setup
A=$BOOT_APPEND
B="$BOOT_APPEND mitigations=off"

# campaign RUN SECONDS HOOK [KEYS]: boot a fresh disk whose hook inits the campaign
# in the first boot (so /proc/cmdline is the guest's) and then runs HOOK
# (shell, with $n the boot's number); KEYS (a line) added to the job's [global];
# the disk read back into $T/RUN.back
campaign() {
	d=$T/$1.disk
	mkdir -p "$d/b"
	cp "$T/img/vmlinuz" "$T/img/initrd.gz" "$d/"
	cp "$T/img/vmlinuz" "$d/b/"
	printf '[global]\nbench=pipe\nrepeats=3\nwarmup=0.1\nduration=0.1\n%s\n' "${4:-}" \
		>"$d/job.ini"
	printf '[pingpong]\nplacement=same-cpu\n' >>"$d/job.ini"
	cat >"$d/hook.sh" <<HOOK
n=\$((\$(cat /disk/boots 2>/dev/null || echo 0) + 1))
echo \$n >/disk/boots
if [ \$n = 1 ]; then
	pinbench campaign init t --kernel A=/disk/vmlinuz,initrd=/disk/initrd.gz \\
		--kernel B=/disk/b/vmlinuz,initrd=/disk/initrd.gz,append=mitigations=off \\
		--job /disk/job.ini --boots 2 --no-unit \\
		--switch 'kexec -l {image} {initrd_opt} --append={cmdline} && kexec -e' 2>&1
	echo "=== pinbench-campaign-init rc=\$?"
fi
$3
HOOK
	boot_disk "$d" || return 1
	rm -rf "$d"
	s=$(date +%s)
	boot_run "$1" "$2"
	echo "# run $1: $(($(date +%s) - s)) s"
	boot_readback "$T/$1.back"
}

# status RUN K WHEN: the status printed at boot K before or after its step
status() {
	tr -d '\r' <"$T/$1.log" | awk -v k="$2" -v w="$3" '
		/=== pinbench-init boot_id=/ { b++ }
		$0 ~ "^=== pinbench-status-end " w { on = 0 }
		on && b == k { print }
		$0 ~ "^=== pinbench-status-begin " w { on = 1 }'
}

# want RUN K WHEN LINE...: the status at boot K has each LINE (a regex, whole line)
want() {
	_r=$1 _k=$2 _w=$3
	shift 3
	status "$_r" "$_k" "$_w" >"$T/st"
	for l in "$@"; do
		grep -qx "$l" "$T/st" || { echo "no line '$l' in:"; cat "$T/st"; return 1; }
	done
}

# boots_listed RUN K WHEN KERNELS: the status's boot lines: one per kernel
# of KERNELS (e.g. "A B B"), each with the boot_id the guest had then
boots_listed() {
	status "$1" "$2" "$3" | grep '^boot [0-9]*: ' >"$T/bl"
	i=0
	for k in $4; do
		i=$((i + 1))
		id=$(boot_ids "$T/$1.log" | sed -n "${i}p" | cut -c1-8)
		grep -q "^boot $i: kernel $k, boot_id $id, release [^,]*, measured" "$T/bl" ||
			{ echo "boot $i: want kernel $k, boot_id $id, measured; status has:"; cat "$T/bl"
			  return 1; }
	done
	[ "$(wc -l <"$T/bl")" = "$i" ] || { echo "want $i boot lines:"; cat "$T/bl"; return 1; }
}

# 1. the whole campaign
# the profile pass in a window of 1 s: 5 kHz of cpu-clock samples, which TCG's guest
# bears (at the 20 kHz of a 0.2 s window its ops run 2-3 times slower)
campaign full 600 "" "$(printf 'profile=on\ncount_duration=1')"
WHY=$T/full.log
tr -d '\r' <"$T/full.log" | grep -q '^=== pinbench-campaign-init rc=0'
ok $? "full: campaign init in the first boot"
boot_ids "$T/full.log" >"$T/ids"
[ "$(wc -l <"$T/ids")" = 4 ] && [ "$(sort -u "$T/ids" | wc -l)" = 4 ]
ok $? "full: 4 boots, 4 distinct boot_ids, then QEMU powered off"
boot_cmdlines "$T/full.log" >"$T/cl"
printf '%s\n' "$A" "$B" "$B" "$A" | cmp -s - "$T/cl"
ok $? "full: the boots on A's, B's, B's and A's command lines"
check "full: status before boot 1's step: planned, next A" \
	want full 1 before 'state: planned' 'boot: 1 of 4' 'order: A B B A' 'next: kernel A (boot 1)'
check "full: status before boot 2's step: switching to B" \
	want full 2 before 'state: switching' 'boot: 2 of 4' 'order: A\* B B A' 'next: kernel B (boot 2)'
check "full: status before boot 3's step: switching to B" \
	want full 3 before 'state: switching' 'boot: 3 of 4' 'order: A\* B\* B A' 'next: kernel B (boot 3)'
check "full: status before boot 4's step: switching to A" \
	want full 4 before 'state: switching' 'boot: 4 of 4' 'order: A\* B\* B\* A' 'next: kernel A (boot 4)'
check "full: status after boot 4's step: done" \
	want full 4 after 'state: done' 'order: A\* B\* B\* A\*' 'next: none'
check "full: the status lists the 4 boots in order A B B A with their boot_ids" \
	boots_listed full 4 after "A B B A"
boots_listed full 1 before "" >"$T/blk" 2>&1 && boots_listed full 2 before "A" >>"$T/blk" 2>&1 &&
	boots_listed full 3 before "A B" >>"$T/blk" 2>&1 &&
	boots_listed full 4 before "A B B" >>"$T/blk" 2>&1
ok $? "full: the status before each step lists the boots measured so far" "$T/blk"
c=$T/full.back/campaigns/t
[ "$(ls "$c/results/A"/*.json 2>/dev/null | wc -l)" = 2 ] &&
	[ "$(ls "$c/results/B"/*.json 2>/dev/null | wc -l)" = 2 ]
ok $? "full: two result files per kernel on the disk read back" "$T/debugfs.log"
grep -A2 '^Verdict:' "$c/report/report.txt" >"$T/verdict" &&
	grep -q '^    base    2 ' "$c/report/report.txt" && grep -q '^    new     2 ' "$c/report/report.txt"
ok $? "full: the report written, with its verdict, on 2 runs a kernel" "$c/report/report.txt"
# the level the report's figures stand at, as compare states it of the same folders
$PB compare --format json "$c/results/A" "$c/results/B" >"$T/cmp.json" 2>"$T/level" &&
	pyjson "$T/cmp.json" '[(r["label"], r["verdict_level"], r["tested_unit"], r["levels"]["boots"])
		for r in d["results"]] == [("A", None, None, 0), ("B", "boot", "boot", 2)]' >>"$T/level"
ok $? "full: the verdict at the boot level: B against A, tested on 2 boots a kernel" "$T/level"

# what mitigations=off takes away here, by the guest's sysfs: A's boots isolate page
# tables (Meltdown), B's do not; TCG runs $BOOT_CPU, KVM QEMU's default model
boot_vulns "$T/full.log" >"$T/vulns"
a=$(sed -n '1p; 4p' "$T/vulns" | grep -c 'meltdown: Mitigation: PTI')
b=$(sed -n '2,3p' "$T/vulns" | grep -c 'meltdown: Vulnerable')
mitigated=
[ "$a$b" != 22 ] || mitigated=1
if [ -n "$mitigated" ] || [ "$BOOT_ACCEL" = tcg ]; then
	[ -n "$mitigated" ]
	ok $? "full: A's boots isolate page tables (meltdown: Mitigation: PTI), B's do not" \
		"$T/vulns"
else
	skip "KVM's CPU model: A's kernel does not isolate page tables ($(head -c 200 "$T/vulns"))"
fi
check "full: each boot's profile pass sampled both roles, kernel functions named (kallsyms)" \
	python3 - "$c"/results/A/*.json "$c"/results/B/*.json <<'PY'
import json, sys
for f in sys.argv[1:]:
    p = json.load(open(f))["jobs"][0]["profile"]
    assert p["sampled"] and p["kernel"], (f, p.get("note"))
    for r in p["roles"]:
        frames = set(x for l in r["folded"].splitlines() for x in l.rsplit(" ", 1)[0].split(";"))
        assert r["samples"] > 0 and "entry_SYSCALL_64_after_hwframe" in frames and \
            any("pipe_read" in x or x in ("schedule", "__schedule") for x in frames), \
            (f, r["role"], r["samples"], sorted(frames)[:30])
PY
# the return and indirect-branch thunks: jumped through on A, patched out by mitigations=off
thunks() {
	python3 - "$@" <<'PY'
import json, re, sys
for f in sys.argv[1:]:
    n = 0
    for r in json.load(open(f))["jobs"][0]["profile"]["roles"]:
        for l in r["folded"].splitlines():
            s, c = l.rsplit(" ", 1)
            if re.search(r"(^|;)[^;]*(return_thunk|untrain_ret|indirect_[a-z_]*thunk)", s):
                n += int(c)
    print(f.split("/")[-2], n)
PY
}
# the syscall path's functions (entry, exit, the thunks); with cpu-clock the entry's
# interrupts-off time (the page table switch) is charged to syscall_enter_from_user_mode.
# One among a role's five largest changes, and each listed one down: which role, and
# its rank, vary with the host's load (doc/measurements.md)
ENTRY='entry_SYSCALL_64.*|syscall_(enter_from|exit_to)_user_mode.*|do_syscall_64|.*thunk.*|'
ENTRY=$ENTRY'.*untrain_ret|swapgs.*|.*clear_bhb.*'
if [ -n "$mitigated" ]; then
	thunks "$c"/results/A/*.json "$c"/results/B/*.json >"$T/thunks" 2>&1
	awk '$1 == "A" && $2 > 0 { a++ } $1 == "B" && $2 == 0 { b++ }
		END { exit !(a == 2 && b == 2) }' "$T/thunks"
	ok $? "full: the thunks (its_return_thunk...) have samples in both A boots, none in B's: $(
		tr '\n' ' ' <"$T/thunks")" "$T/thunks"
	$PB compare --profiles "$c/results/A" "$c/results/B" >"$T/prof" 2>&1
	# the total per op only where the metric's verdict is an improvement: a campaign's 3 x
	# 0.1 s a boot under TCG is often inconclusive, and then B's total may read slower
	check "full: compare --profiles, B against A: each role's total; the syscall path down" \
		python3 - "$T/prof" "$ENTRY" "$T/cmp.json" <<'PY'
import json, re, sys
t = open(sys.argv[1]).read()
b = [r for r in json.load(open(sys.argv[3]))["results"] if r["label"] == "B"]
faster = len(b) == 1 and b[0]["verdict"] == "improvement"
sec = t[t.index("Where the change went"):]
rows = [l.split() for l in sec.splitlines() if re.match(r"^B +(writer|reader) ", l)]
change = {}
for r in rows:
    c = r[r.index("→") + 3]
    change.setdefault(r[1], []).append((r[2], c))
assert sorted(change) == ["reader", "writer"], rows
for role, fns in change.items():
    assert fns[0][0] == "(all)" and (fns[0][1].startswith("-") or not faster), (role, fns)
entry = [(role, f, c) for role, fns in change.items() for f, c in fns[1:]
         if re.fullmatch(sys.argv[2], f)]
print(entry)
assert entry and all(c.startswith("-") for role, f, c in entry), change
PY
	sed -n '/^Where the change went/,/^$/p' "$T/prof" | sed 's/^/#   /' >"$T/prof.sec"
else
	skip "no return thunks to look for: A's kernel does not isolate page tables on this CPU"
	skip "nor a syscall path to find in the profile's difference (doc/measurements.md)"
fi

# 2. aborted after boot 2: the user aborts before the step of boot 3 (B is up)
campaign abort 400 '[ $n != 3 ] || pinbench campaign abort 2>&1'
WHY=$T/abort.log
[ "$(boot_ids "$T/abort.log" | sort -u | wc -l)" = 3 ]
ok $? "abort: 3 boots, then QEMU powered off"
check "abort: status before boot 3's step: aborted, A and B measured, next none" \
	want abort 3 before 'state: aborted' 'order: A\* B\* B A' 'next: none'
tr -d '\r' <"$T/abort.log" | awk '/=== pinbench-step-begin/ { b++ } b == 3' >"$T/step3"
grep -q 'aborted' "$T/step3" && grep -q '^=== pinbench-step-end rc=0' "$T/step3" &&
	! grep -q 'switching' "$T/step3"
ok $? "abort: the next step says so, exits 0 and does not switch" "$T/step3"
aborted_after() {
	want abort 3 after 'state: aborted' 'next: none' && boots_listed abort 3 after "A B"
}
check "abort: status after it: still aborted, 2 boots measured" aborted_after
c=$T/abort.back/campaigns/t
[ "$(ls "$c/results/A"/*.json "$c/results/B"/*.json 2>/dev/null | wc -l)" = 2 ]
ok $? "abort: what was measured kept: one result file a kernel" "$T/debugfs.log"

# 3. B's image gone after init: no switch to B, the campaign stops with the reason naming it
campaign missing 240 '[ $n != 1 ] || rm /disk/b/vmlinuz'
WHY=$T/missing.log
[ "$(boot_ids "$T/missing.log" | wc -l)" = 1 ]
ok $? "missing: one boot, no switch, QEMU powered off"
tr -d '\r' <"$T/missing.log" | grep -q '^=== pinbench-step-end rc=3'
ok $? "missing: the step exits 3 (stopped)"
check "missing: status after the step: stopped, with the reason, A measured" \
	want missing 1 after 'state: stopped' 'order: A\* B B A' 'reason: .*' 'next: none'
status missing 1 after | grep '^reason: ' >"$T/reason"
tr -d '\r' <"$T/missing.log" | sed -n '/^=== pinbench-step-begin/,/^=== pinbench-step-end/p' \
	>"$T/step1"
grep -q 'no switch to kernel B: its image /disk/b/vmlinuz' "$T/reason" &&
	grep -q "/disk/b/vmlinuz'*: No such file" "$T/step1"
ok $? "missing: the reason names the switch to B, the step's output the image: $(cat "$T/reason")" \
	"$T/step1"

echo "# campaign status at the end:"
status full 4 after | sed 's/^/#   /'
echo "# the report's verdict:"
sed '/^ *$/d; s/^/#   /' "$T/verdict"
echo "# where the change went, B against A (compare --profiles):"
cat "$T/prof.sec" 2>/dev/null
echo "# wall time: $(($(date +%s) - start)) s, accelerator: $BOOT_ACCEL"
echo "1..$n"
[ $nfail = 0 ]
