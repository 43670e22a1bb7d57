#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End to end: pinbench bisect-check, the check of a `git bisect run`
# script.  good = a tiny pipe job, bad = the same with a large injected
# spin per round trip (test_spin_ns), five rounds each, in a boot of its
# own (fake sysroots give the boot ids; no other task's CPU time is read
# through them, so a loaded test machine does not make every cell an
# error finding).  The check, a run of one round of five repeats: with
# the spin it exits 1, without it 0, a failed job 125, a noise profile
# whose variation between boots swamps the gap 125; usage errors exit 2.
# Then a real git bisect run over a throw-away repository whose "build"
# writes the job file with or without the spin names the first bad commit.
. "$(dirname "$0")/lib.sh"
need_pinbench

boot() {	# boot NAME: a sysroot with a boot id of its own, $T/NAME
	mkdir -p "$T/$1/proc/sys/kernel/random"
	python3 -c 'import uuid; print(uuid.uuid4())' >"$T/$1/proc/sys/kernel/random/boot_id"
}
job() {		# job FILE SPIN ROUNDS REPEATS: the tiny job, test_spin_ns=SPIN unless 0
	printf '[global]\nrounds=%s\nrepeats=%s\nwarmup=0\nduration=0.03\n\n' "$3" "$4" >"$1"
	printf '[pingpong]\nbench=pipe\nplacement=same-cpu\nevents=none\n' >>"$1"
	[ "$2" = 0 ] || printf 'test_spin_ns=%s\n' "$2" >>"$1"
}
SPIN=100000
# the spin is a change of some 4000 %: a loaded machine's drift below 90 % is not one
# (a change is beyond 90 % either way: the runs without the spin are -97 % from bad)
OPTS="--allow-different test_spin_ns,test_hang --min-change 90"
# bcheck NAME JOBFILE [OPTIONS]: bisect-check in a new boot, its line in
# $T/NAME.out, its exit in rc; again (at most twice) when it could not tell
# for an error finding, which a loaded machine gives a run now and then
bcheck() {
	_name=$1 _job=$2
	shift 2
	for _try in 1 2 3; do
		boot bnew
		# shellcheck disable=SC2086 # OPTS is words
		PINBENCH_SYSROOT=$T/bnew $PB bisect-check --good "$T/good" --bad "$T/bad" $OPTS \
			-o "$T/new" "$@" "$_job" >"$T/$_name.out" 2>"$T/$_name.err"
		rc=$?
		grep -q '^cannot tell: an error finding' "$T/$_name.out" || break
		sleep 1		# a host's slow phase lasts seconds
	done
}
job "$T/good5.ini" 0 5 1
job "$T/spin5.ini" $SPIN 5 1
job "$T/good.ini" 0 1 5
job "$T/spin.ini" $SPIN 1 5
# record SIDE JOBFILE: SIDE's five rounds in a boot of its own, again (at
# most twice) when a round came out with an error finding (a load that
# changes mid-run, as a CI hog's start or another build, slows the
# reference loop: observer-effect), which would make every check 125
record() {
	for _try in 1 2 3; do
		rm -rf "${T:?}/$1"
		boot "b$1"
		PINBENCH_UNTRUSTED_EXIT=3 PINBENCH_SYSROOT=$T/b$1 $PB run -q -o "$T/$1" \
			--label "$1" "$2" 2>>"$T/why"
		_rc=$?
		[ $_rc = 3 ] || break
		sleep 1
	done
	return $_rc
}
record good "$T/good5.ini"
rcg=$(ran $?)
record bad "$T/spin5.ini"
ok $([ "$rcg" = 0 ] && [ "$(ran $?)" = 0 ] && echo 0 || echo 1) \
	"good and bad recorded, five rounds each, a boot each" "$T/why"

bcheck c1 "$T/spin.ini"
ok $([ $rc = 1 ] && [ "$(wc -l <"$T/c1.out")" = 1 ] &&
	grep -q '^bad: +.* from good, .* from bad (pingpong rtt same-cpu; gap +.*; within one boot)$' \
		"$T/c1.out" && echo 0 || echo 1) "with the spin: exit 1, one line: $(cat "$T/c1.out")" \
	"$T/c1.err"
grep -q "^pinbench bisect-check: the run is saved in $T/new/.*/.*-spin.json$" "$T/c1.err"
ok $? "where the run is saved is said" "$T/c1.err"

bcheck c0 "$T/good.ini" -l nospin
ok $([ $rc = 0 ] && grep -q '^good: .* from good, -.* from bad' "$T/c0.out" &&
	ls "$T"/new/nospin/*-good.json >/dev/null && echo 0 || echo 1) \
	"without it: exit 0, saved under -l's label: $(cat "$T/c0.out")" "$T/c0.err"

printf '[pingpong]\nbench=pipe\nplacement=same-cpu\nevents=none\ntest_hang=setup\n' >"$T/hang.ini"
printf 'timeout=0.5\nrepeats=1\nduration=0.03\nwarmup=0\n' >>"$T/hang.ini"
bcheck c2 "$T/hang.ini"
ok $([ $rc = 125 ] && grep -q '^cannot tell: a job failed (pingpong rtt same-cpu: failed)$' \
	"$T/c2.out" && echo 0 || echo 1) "a failed job: exit 125: $(cat "$T/c2.out")" "$T/c2.err"

# a profile of the good results whose variation between boots swamps the gap
$PB calibrate --from -o "$T/prof" "$T/good" >"$T/cal.out" 2>&1
P=$(sed -n 's/^noise profile: //p' "$T/cal.out")
python3 - "$P" <<'PY' >>"$T/cal.out" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["tables"]:
    t["between"] = {"sd": 1.5, "df": 2, "stands_in": False, "level": "boot"}
json.dump(d, open(sys.argv[1], "w"))
PY
ok $? "a noise profile of boots that vary by far more than the gap" "$T/cal.out"
NEW=$(sed -n 's/^pinbench bisect-check: the run is saved in //p' "$T/c1.err")
# shellcheck disable=SC2086
$PB bisect-check --good "$T/good" --bad "$T/bad" $OPTS --noise "$P" --result "$NEW" \
	>"$T/c3.out" 2>"$T/c3.err"
rc=$?
GAP='^cannot tell: good and bad do not differ resolvably here (gap +.*, resolves ±.* %, boot'
GAP="$GAP level by the noise profile) (pingpong rtt same-cpu)\$"
ok $([ $rc = 125 ] && grep -q "$GAP" "$T/c3.out" && echo 0 || echo 1) \
	"--noise: the gap does not resolve, exit 125: $(cat "$T/c3.out")" "$T/c3.err"
# shellcheck disable=SC2086
$PB bisect-check --good "$T/good" --bad "$T/bad" $OPTS --result "$NEW" >"$T/c4.out" 2>&1
ok $([ $? = 1 ] && cmp -s "$T/c4.out" "$T/c1.out" &&
	echo 0 || echo 1) "--result judges the saved run without running: the same line" "$T/c4.out"

exits2 "no --bad" "usage" $PB bisect-check --good "$T/good" "$T/good.ini"
mkdir "$T/empty"
exits2 "an empty good folder" "no result file" $PB bisect-check --good "$T/empty" \
	--bad "$T/bad" --result "$NEW"
exits2 "keys that differ, not allowed" "test_spin_ns" $PB bisect-check --good "$T/good" \
	--bad "$T/bad" --result "$NEW"
exits2 "--result with -o" "runs nothing" $PB bisect-check --good "$T/good" \
	--bad "$T/bad" -o "$T/x" --result "$NEW"

# git bisect run over c1 c2 (no spin) c3 c4 c5 (spin): the first bad is c3
if ! command -v git >/dev/null 2>&1; then
	skip "no git (tests/deps.sh --check installs it)"
	done_testing
	exit
fi
PBA=$(cd "$(dirname "$PB")" && pwd)/$(basename "$PB")
R=$T/repo
mkdir -p "$R"
git -C "$R" init -q && for i in 1 2 3 4 5; do
	if [ $i -ge 3 ]; then echo $SPIN >"$R/spin"; else echo 0 >"$R/spin"; fi
	echo "c$i" >"$R/n"
	git -C "$R" add spin n && git -C "$R" -c user.name=t -c user.email=t@t commit -q -m "c$i"
done
first=$(git -C "$R" rev-parse HEAD~2)
# the lab's script: build (the job file), boot (a new boot id), check; 0, 1
# and 125 are git bisect's, anything else (2: a usage error) stops the bisect
cat >"$T/check.sh" <<CHECK
#!/bin/sh
printf '[global]\\nrounds=1\\nrepeats=5\\nwarmup=0\\nduration=0.03\\n\\n' >"$T/build.ini"
printf '[pingpong]\\nbench=pipe\\nplacement=same-cpu\\nevents=none\\n' >>"$T/build.ini"
[ "\$(cat spin)" = 0 ] || printf 'test_spin_ns=%s\\n' "\$(cat spin)" >>"$T/build.ini"
for try in 1 2 3; do
	python3 -c 'import uuid; print(uuid.uuid4())' >"$T/bnew/proc/sys/kernel/random/boot_id"
	PINBENCH_SYSROOT=$T/bnew "$PBA" bisect-check --good "$T/good" --bad "$T/bad" $OPTS \\
		-o "$T/bisect" "$T/build.ini" >"$T/line" 2>>"$T/bisect.err"
	rc=\$?
	cat "$T/line" >>"$T/lines"
	grep -q '^cannot tell: an error finding' "$T/line" || break
done
case \$rc in 0|1|125) exit \$rc ;; *) exit 255 ;; esac
CHECK
(cd "$R" && git bisect start HEAD HEAD~4 >/dev/null && git bisect run sh "$T/check.sh") \
	>"$T/gb.out" 2>&1
grep -q "^$first is the first bad commit" "$T/gb.out" && grep -q "c3" "$T/gb.out"
ok $? "git bisect run names c3 the first bad commit ($(wc -l <"$T/lines") checks)" "$T/gb.out"
comment "$T/lines"

done_testing
