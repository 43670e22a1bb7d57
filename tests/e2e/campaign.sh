#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# pinbench campaign (doc/pinbench-campaign.1.scd) with the reboots
# simulated: a fake sysroot whose boot_id, osrelease and cmdline the test
# changes between steps, fake systemctl and kexec first on PATH that log
# their arguments.  A whole A B B A campaign with status at each step, an
# abort, a kernel that does not come back, a missing image, a step killed
# mid-run (resumed, then stopped after --tries), and the user errors.
. "$(dirname "$0")/lib.sh"
need_pinbench

ROOT=$T/root
cp -r tests/sysroot/good "$ROOT"
mkdir -p "$ROOT/proc/sys/kernel/random" "$T/bin" "$T/img"
echo 6.1.0-13-amd64 >"$ROOT/proc/sys/kernel/osrelease"
BASE="root=/dev/vda ro quiet"
export PINBENCH_SYSROOT=$ROOT PINBENCH_CAMPAIGNS=$T/camps
# boot N [APPEND]: boot number N (a new boot_id) on the base cmdline plus APPEND
boot() {
	printf '%08x-0000-4000-8000-000000000000\n' "$1" >"$ROOT/proc/sys/kernel/random/boot_id"
	echo "BOOT_IMAGE=/vmlinuz $BASE${2:+ $2}" >"$ROOT/proc/cmdline"
}
boot 1
for p in systemctl kexec; do
	cat >"$T/bin/$p" <<EOF
#!/bin/sh
echo "$p \$*" >>"$T/log"
if [ "$p" = kexec ] && [ "\$1" = -l ] && [ ! -f "\$2" ]; then
	echo "kexec: \$2: no such file" >&2
	exit 1
fi
exit 0
EOF
	chmod +x "$T/bin/$p"
done
PATH=$T/bin:$PATH
# A tiny bzImage: the setup header's "HdrS" and its version string pointer.
python3 - "$T/img/bzA" "$T/img/bzB" "$T/img/notbz" <<'EOF'
import struct, sys
for i, path in enumerate(sys.argv[1:]):
    b = bytearray(0x800)
    b[0x202:0x206] = b'HdrS' if i < 2 else b'MZ\0\0'
    b[0x20e:0x210] = struct.pack('<H', 0x100)
    v = b'6.1.0-13-amd64 (debian-kernel@lists.debian.org) #1 SMP\0'
    b[0x300:0x300 + len(v)] = v
    open(path, 'wb').write(b)
EOF
: >"$T/img/initrd"
cp tests/e2e/jobs/lava-tiny.ini "$T/tiny.ini"
cat >"$T/long.ini" <<'EOF'
[long]
bench=pipe
repeats=40
warmup=0
duration=0.2
events=none
placement=same-cpu
EOF
KA="A=$T/img/bzA"
KB="B=$T/img/bzB,initrd=$T/img/initrd,append=mitigations=off"
init() {	# init NAME [OPTIONS]: a two-kernel campaign of the tiny job, 2 boots each
	_n=$1
	shift
	$PB campaign init "$_n" --kernel "$KA" --kernel "$KB" --job "$T/tiny.ini" --boots 2 "$@"
}
step() {	# step LOG: one step, its output in $T/LOG; sets rc
	$PB campaign step >"$T/$1" 2>&1
	rc=$?
}
status_has() {	# status_has LOG PATTERN...: every pattern a line of status's output
	$PB campaign status >"$T/$1" 2>&1 || return 1
	_f=$1
	shift
	for _p in "$@"; do
		grep -q -- "$_p" "$T/$_f" || return 1
	done
}

# ---- user errors: exit 2 naming the problem, nothing made
$PB campaign step >"$T/none" 2>&1
ok $([ $? = 0 ] && grep -q 'no campaign' "$T/none" && echo 0 || echo 1) \
	"step without a campaign: says so, exit 0" "$T/none"
uerr() {	# uerr DESCRIPTION PATTERN ARGS...: campaign ARGS exits 2 saying PATTERN
	_d=$1 _p=$2
	shift 2
	$PB campaign "$@" >"$T/uerr" 2>&1
	_rc=$?
	ok $([ $_rc = 2 ] && grep -q -- "$_p" "$T/uerr" && echo 0 || echo 1) \
		"$_d: exit 2 (got $_rc)" "$T/uerr"
}
uerr "no verb" "want init NAME"
uerr "an unknown verb" "want init" frob
uerr "init with one kernel" "want --kernel twice" init x --kernel "$KA" --job "$T/tiny.ini" \
	--boots 2
uerr "a missing image" "image $T/img/nosuch" init x --kernel "$KA" --kernel "B=$T/img/nosuch" \
	--job "$T/tiny.ini" --boots 2
uerr "an image that is not a bzImage" "not a bzImage" init x --kernel "$KA" \
	--kernel "B=$T/img/notbz" --job "$T/tiny.ini" --boots 2
uerr "a missing initrd" "initrd $T/img/nosuch of kernel B" init x --kernel "$KA" \
	--kernel "B=$T/img/bzB,initrd=$T/img/nosuch" --job "$T/tiny.ini" --boots 2
uerr "a bad job file" "nosuch" init x --kernel "$KA" --kernel "$KB" \
	--job tests/e2e/jobs/bad-bench.ini --boots 2
uerr "--boots 0" "--boots '0'" init x --kernel "$KA" --kernel "$KB" --job "$T/tiny.ini" \
	--boots 0
uerr "--order sideways" "--order 'sideways'" init x --kernel "$KA" --kernel "$KB" \
	--job "$T/tiny.ini" --boots 2 --order sideways
uerr "a kernel named twice" "given twice" init x --kernel "$KA" --kernel "A=$T/img/bzB" \
	--job "$T/tiny.ini" --boots 2
uerr "step with init's options" "takes --state" step --boots 2
PATH=${PATH#"$T/bin:"} $PB campaign init x --kernel "$KA" --kernel "$KB" --job "$T/tiny.ini" \
	--boots 2 >"$T/uerr" 2>&1
ok $([ $? = 2 ] && grep -q "kexec is not on PATH" "$T/uerr" && echo 0 || echo 1) \
	"the default switch without kexec on PATH: exit 2" "$T/uerr"
[ ! -e "$T/camps/x" ] && [ ! -e "$T/log" ]
ok $? "the refused inits made no campaign and enabled nothing"

# ---- a whole campaign: A B B A
init ab >"$T/init" 2>&1
ok $? "init: exit 0" "$T/init"
grep -q '^order: A B B A$' "$T/init" && grep -q '^expected time: ' "$T/init" &&
	grep -q "kernel B: .*(6.1.0-13-amd64), initrd .*cmdline '$BASE mitigations=off'" "$T/init"
ok $? "init prints the plan: the order, the kernels, the expected time" "$T/init"
grep -qx 'systemctl enable pinbench-campaign.service' "$T/log" 2>/dev/null
ok $? "init enables the unit" "$T/log"
uerr "a second campaign while one is active" "campaign ab .* is planned: abort it first" \
	init x --kernel "$KA" --kernel "$KB" --job "$T/tiny.ini" --boots 2 --state "$T/x"
status_has st0 '^state: planned$' '^boot: 1 of 4$' '^order: A B B A$' '^next: kernel A (boot 1)$'
ok $? "status before the first step: planned, boot 1 of 4" "$T/st0"
i=0
for k in A B B A; do
	i=$((i + 1))
	case $k in A) boot $i ;; B) boot $i mitigations=off ;; esac
	step "step$i"
	ok $rc "boot $i (kernel $k): step exits 0" "$T/step$i"
done 2>/dev/null
status_has st4 '^state: done$' '^order: A\* B\* B\* A\*$' '^next: none$' \
	'^boot 4: kernel A, boot_id 00000004, release 6.1.0-13-amd64, measured'
ok $? "status at the end: done, every boot measured" "$T/st4"
grep -c '^kexec -l ' "$T/log" >"$T/nk"
grep -q "^kexec -l $T/img/bzB --initrd=$T/img/initrd --append=$BASE mitigations=off$" "$T/log" &&
	grep -q "^kexec -l $T/img/bzA --append=$BASE$" "$T/log" && [ "$(cat "$T/nk")" = 3 ] &&
	[ "$(grep -c '^systemctl kexec$' "$T/log")" = 3 ]
ok $? "three switches, each kexec -l of the next kernel with its initrd and cmdline" "$T/log"
tail -n 1 "$T/log" | grep -qx 'systemctl disable pinbench-campaign.service'
ok $? "the last step disables the unit" "$T/log"
python3 - "$T/camps/ab" >"$T/boots" 2>&1 <<'EOF'
import json, sys
s = json.load(open(sys.argv[1] + '/state.json'))
ids = [json.load(open(b['result']))['boot_id'] for b in s['boots']]
assert [b['kernel'] for b in s['boots']] == list('ABBA'), s['boots']
assert ids == ['%08x-0000-4000-8000-000000000000' % i for i in (1, 2, 3, 4)], ids
assert all(b['result'].startswith(sys.argv[1] + '/results/' + b['kernel'] + '/')
           for b in s['boots'])
EOF
ok $? "4 result files in A/ and B/, each with its boot's boot_id, in order" "$T/boots"
[ -s "$T/camps/ab/report/report.txt" ] && grep -q 'boot' "$T/camps/ab/report/report.txt"
ok $? "the last step wrote the report to DIR/report" "$T/step4"
$PB campaign report -o "$T/rep" >"$T/rep.out" 2>&1 && [ -s "$T/rep/report.md" ]
ok $? "campaign report -o DIR writes it again" "$T/rep.out"
boot 5
step after
ok $([ $rc = 0 ] && grep -q 'is done: nothing to do' "$T/after" && echo 0 || echo 1) \
	"a step after the end does nothing, exit 0" "$T/after"

# ---- abort: the unit disabled, no switch, later steps do nothing
: >"$T/log"
boot 11
init ab2 >"$T/init2" 2>&1
step ab2-1
$PB campaign abort >"$T/abort" 2>&1
ok $? "abort after the first boot: exit 0" "$T/abort"
status_has st-ab '^state: aborted$' '^next: none$'
ok $? "status: aborted" "$T/st-ab"
boot 12 mitigations=off
step ab2-2
ok $([ $rc = 0 ] && grep -q 'was aborted' "$T/ab2-2" && echo 0 || echo 1) \
	"a step after abort says so and does nothing, exit 0" "$T/ab2-2"
[ "$(grep -c '^kexec' "$T/log")" = 1 ] && tail -n 1 "$T/log" | grep -q 'systemctl disable'
ok $? "abort disabled the unit; no switch after it" "$T/log"

# ---- a kernel that does not come back: the firmware booted A again
: >"$T/log"
boot 21
init nb --no-unit >"$T/init3" 2>&1
step nb-1
boot 22
step nb-2
ok $([ $rc = 3 ] && grep -q "kernel B did not come up: running 6.1.0-13-amd64 with cmdline \
'BOOT_IMAGE=/vmlinuz $BASE'" "$T/nb-2" && echo 0 || echo 1) \
	"the wrong kernel after a switch: stopped, exit 3, naming what runs" "$T/nb-2"
status_has st-nb '^state: stopped$' '^reason: kernel B did not come up' \
	'^boot 1: kernel A, boot_id 00000015, release 6.1.0-13-amd64, measured'
ok $? "status: stopped with the reason, boot 1 kept" "$T/st-nb"
! grep -q 'systemctl .*able' "$T/log" && [ "$(grep -c '^kexec -l' "$T/log")" = 1 ]
ok $? "--no-unit: the unit is never enabled or disabled; one switch only" "$T/log"

# ---- an image gone after init: no switch tried, the campaign stops naming the image
boot 31
cp "$T/img/bzB" "$T/img/bzgone"
$PB campaign init gone --kernel "$KA" --kernel "B=$T/img/bzgone" --job "$T/tiny.ini" \
	--boots 1 >"$T/init4" 2>&1
rm "$T/img/bzgone"
: >"$T/log"
step gone-1
ok $([ $rc = 3 ] && grep -q "stopped: no switch to kernel B: its image $T/img/bzgone cannot" \
	"$T/gone-1" && ! grep -q kexec "$T/log" && echo 0 || echo 1) \
	"an image gone before the switch: stopped naming it, exit 3, no kexec run" "$T/gone-1"

# ---- a step killed mid-run, on the same boot: resumed, then stopped after --tries
killed_step() {	# killed_step LOG: a step, killed once its run is going
	setsid $PB campaign step >"$T/$1" 2>&1 &
	_pid=$!
	for _ in $(seq 100); do
		grep -q '"outcome": "measuring"' "$T/camps/$2/state.json" 2>/dev/null && break
		sleep 0.1
	done
	sleep 1		# the run is going (40 repeats of 0.2 s)
	/bin/kill -KILL -- -"$_pid" 2>/dev/null
	wait "$_pid" 2>/dev/null
}
boot 41
$PB campaign init crash --kernel "$KA" --kernel "$KB" --job "$T/long.ini" --boots 1 \
	--no-unit >"$T/init5" 2>&1
killed_step crash-1 crash
status_has st-c1 '^state: running$' '^order: A> B$'
ok $? "killed mid-run: status says running, boot 1 measuring" "$T/st-c1"
sed -i 's/^repeats=40/repeats=2/' "$T/camps/crash/job.ini"
step crash-2
ok $([ $rc = 0 ] && grep -q 'did not finish: try 2 of 2' "$T/crash-2" && echo 0 || echo 1) \
	"a step again on the same boot resumes the measurement" "$T/crash-2"
status_has st-c2 '^state: switching$' '(2 tries)'
ok $? "status: measured in 2 tries, switching" "$T/st-c2"
$PB campaign abort >/dev/null 2>&1
boot 51
$PB campaign init crash2 --kernel "$KA" --kernel "$KB" --job "$T/long.ini" --boots 1 \
	--no-unit --state "$T/camps/crash2" >"$T/init6" 2>&1
killed_step crash2-1 crash2
killed_step crash2-2 crash2
step crash2-3
ok $([ $rc = 3 ] && grep -q 'the measurement did not finish in 2 tries' "$T/crash2-3" &&
	echo 0 || echo 1) "killed twice on one boot: the third step stops, exit 3" "$T/crash2-3"

# ---- a run that fails (the job file broken after init): stopped, no switch
: >"$T/log"
boot 61
init fail --no-unit >"$T/init7" 2>&1
cp tests/e2e/jobs/bad-key.ini "$T/camps/fail/job.ini"
mv "$ROOT/proc/sys/kernel/random/boot_id" "$T/boot_id"
step fail-0
ok $([ $rc = 2 ] && grep -q "cannot read this boot's boot_id" "$T/fail-0" && echo 0 || echo 1) \
	"no boot_id to read: exit 2, nothing done" "$T/fail-0"
mv "$T/boot_id" "$ROOT/proc/sys/kernel/random/boot_id"
status_has st-f0 '^state: planned$'
ok $? "status: still planned" "$T/st-f0"
step fail-1
ok $([ $rc = 3 ] && grep -q "boot 1 (kernel A): the job's run failed (exit 2)" "$T/fail-1" &&
	[ ! -s "$T/log" ] && echo 0 || echo 1) "a failed run: stopped, exit 3, no switch" \
	"$T/fail-1"
status_has st-f1 '^state: stopped$' '^order: A! B B A$'
ok $? "status: boot 1 failed" "$T/st-f1"

# ---- the unit: make install puts it where systemd looks, running the step once per boot
make -s install DESTDIR="$T/inst" PREFIX=/usr >"$T/inst.out" 2>&1
u=$T/inst/usr/lib/systemd/system/pinbench-campaign.service
[ -f "$u" ] && grep -qx 'ExecStart=/usr/bin/pinbench campaign step' "$u" &&
	grep -qx 'Type=oneshot' "$u" && grep -qx 'After=network-online.target' "$u" &&
	! grep -q '^Restart=' "$u"
ok $? "make install puts pinbench-campaign.service in lib/systemd/system (oneshot, no restart)" \
	"$T/inst.out"

# ---- Ctrl-C in a step: no switch, the unit disabled, the campaign stopped
: >"$T/log"
boot 71
$PB campaign abort >/dev/null 2>&1
$PB campaign init int --kernel "$KA" --kernel "$KB" --job "$T/long.ini" --boots 1 \
	>"$T/init8" 2>&1
$PB campaign step >"$T/int-1" 2>&1 &
pid=$!
for _ in $(seq 100); do
	grep -q '"outcome": "measuring"' "$T/camps/int/state.json" 2>/dev/null && break
	sleep 0.1
done
sleep 1
/bin/kill -INT "$pid"
wait "$pid"
rc=$?
ok $([ $rc = 3 ] && grep -q 'interrupted' "$T/int-1" && ! grep -q kexec "$T/log" &&
	tail -n 1 "$T/log" | grep -q 'systemctl disable' && echo 0 || echo 1) \
	"Ctrl-C mid-run: stopped (exit 3, got $rc), no switch, the unit disabled" "$T/int-1"

# ---- --order random: balanced, the seed's order again from the same seed
$PB campaign init rnd --kernel "$KA" --kernel "$KB" --job "$T/tiny.ini" --boots 3 --no-unit \
	--order random --seed 7 >"$T/rnd1" 2>&1
$PB campaign abort >/dev/null 2>&1
$PB campaign init rnd2 --kernel "$KA" --kernel "$KB" --job "$T/tiny.ini" --boots 3 --no-unit \
	--order random --seed 7 >"$T/rnd2" 2>&1
grep '^order:' "$T/rnd1" >"$T/o1"
grep '^order:' "$T/rnd2" >"$T/o2"
[ "$(tr ' ' '\n' <"$T/o1" | grep -c '^A$')" = 3 ] && [ "$(tr ' ' '\n' <"$T/o1" |
	grep -c '^B$')" = 3 ] && cmp -s "$T/o1" "$T/o2" && grep -q '^seed: 7$' "$T/rnd1"
ok $? "--order random --seed 7: each kernel 3 times, the same order twice" "$T/rnd1"

# ---- every state file left (done, stopped, aborted, a crash's) against its schema
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	/usr/bin/python3 tests/e2e/schemas.py "$T"/camps/*/state.json >"$T/v.out" 2>&1
	ok $? "every campaign's state.json is a valid pinbench-campaign/1 ($(ls "$T"/camps/*/state.json |
		wc -l) files)" "$T/v.out"
else
	skip "no python3-jsonschema"
fi
done_testing
