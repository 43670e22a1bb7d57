#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Paths from a careless script or a hostile neighbour: an empty path (an
# unset "$RESULTS") is a usage error in every command, never "/"; a
# symlink planted as the label folder under -o is not written through; an
# option given twice is refused; a disk that fills mid-run is reported once,
# saying what the file kept and what was lost (interrupted then, too).  The
# two HIGH cases run as root and, when root, again as nobody.
. "$(dirname "$0")/lib.sh"
need_pinbench

REPO=$(pwd)
case $PB in
/*) ABS=$PB ;;
*) ABS=$(pwd)/$PB ;;
esac
QUICK="cpus=0,0 --duration 0.1 --repeats 1 --warmup 0.1 events=none -q"
cat >"$T/two.ini" <<'EOF'
[global]
bench=pipe
repeats=1
warmup=0.1
duration=0.1
events=none
cpus=0,0

[first]

[second]
EOF
sed '/^\[second\]/d' "$T/two.ini" >"$T/one.ini"
genresults
$G -o "$T/a.json" --label 6.1 --seed 1 && $G -o "$T/b.json" --label 6.2 --seed 2
ok $? "fixtures generated"

ME=$(id -u)
# as_nobody COMMAND...: run as nobody (root only)
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
# a folder nobody may write in, under $T
NB=$T/nb
if [ "$ME" = 0 ]; then
	chmod 755 "$T"
	mkdir "$NB" && chown nobody:nogroup "$NB"
	cp "$T/two.ini" "$T/one.ini" "$T/a.json" "$T/b.json" "$NB/" && chmod 644 "$NB"/*
fi

# ---- item 1: an empty path, in every command, is a usage error naming it
LBL="pb-e2e-empty-$$"
on_exit() {
	[ -z "$MNT" ] || umount "$MNT" 2>/dev/null
	[ ! -d "/$LBL" ] || rm -rf "/${LBL:?}"
}
empty_cases() {	# empty_cases WHO PINBENCH-COMMAND-PREFIX...: each case once
	_who=$1
	shift
	# shellcheck disable=SC2086 # $QUICK: words
	exits2 "$_who: bench -o '' names --output" "pinbench bench: --output (-o): an empty path" \
		"$@" bench pipe $QUICK -o '' --label "$LBL"
	check "$_who: bench -o '' wrote nothing at /" test ! -e "/$LBL"
	exits2 "$_who: run -o '' names --output" "pinbench run: --output (-o): an empty path" \
		"$@" run -q -o '' --label "$LBL" one.ini
	check "$_who: run -o '' wrote nothing at /" test ! -e "/$LBL"
	exits2 "$_who: run with an empty job file operand" \
		"pinbench run: a job file: an empty path (argument 2)" "$@" run --dry-run one.ini ''
	exits2 "$_who: run --topology ''" "pinbench run: --topology: an empty path" \
		"$@" run --dry-run --topology '' one.ini
	exits2 "$_who: topo --topology ''" "pinbench topo: --topology: an empty path" \
		"$@" topo --topology ''
	exits2 "$_who: doctor --perf-stat ''" "pinbench doctor: --perf-stat: an empty path" \
		"$@" doctor --perf-stat ''
	exits2 "$_who: compare ''" "pinbench compare: a result file or folder: an empty path" \
		"$@" compare a.json ''
	exits2 "$_who: plot -o ''" "pinbench plot: --output (-o): an empty path" \
		"$@" plot -o '' a.json
	exits2 "$_who: plot with an empty operand" \
		"pinbench plot: a result file or folder: an empty path" "$@" plot -o p.png ''
	exits2 "$_who: export -o ''" "pinbench export: --output (-o): an empty path" \
		"$@" export --format ktap -o '' a.json
	exits2 "$_who: export with an empty operand" \
		"pinbench export: a result file or folder: an empty path" \
		"$@" export --format ktap ''
	exits2 "$_who: report -o ''" "pinbench report: --output (-o): an empty path" \
		"$@" report -o '' a.json b.json
	exits2 "$_who: report with an empty side" "pinbench report: BASELINE and NEW: an empty" \
		"$@" report a.json ''
	exits2 "$_who: nightly --history ''" "pinbench nightly: --history: an empty path" \
		"$@" nightly --history '' one.ini
	exits2 "$_who: nightly with an empty job file" \
		"pinbench nightly: the job file: an empty path" "$@" nightly --history h ''
	check "$_who: nothing written at / by any of them" test ! -e "/$LBL"
}
cd "$T" || exit 2
empty_cases "$(id -un)" "$ABS"
if [ "$ME" = 0 ]; then
	cd "$NB" || exit 2
	empty_cases nobody as_nobody "$ABS"
else
	skip "not root: the same cases as nobody"
fi

# ---- item 3: a planted symlink as the label folder is not written through
planted() {	# planted WHO DIR PINBENCH-COMMAND-PREFIX...
	_who=$1
	_d=$2
	shift 2
	mkdir -p "$_d/res" "$_d/out"
	cp "$T/one.ini" "$_d/"
	ln -s "$_d/out" "$_d/res/lab"
	ln -s /nonexistent-pb-e2e "$_d/res/dangling"
	[ "$_who" != nobody ] || chown -R -h nobody:nogroup "$_d"
	exits2 "$_who: run into res/lab -> out is refused" "res/lab is a symbolic link" \
		"$@" run -q -o "$_d/res" --label lab "$_d/one.ini"
	exits2 "$_who: nightly's run into it is refused" "res/lab is a symbolic link" \
		"$@" nightly --history "$_d/res" --label lab "$_d/one.ini"
	check "$_who: out/ stays empty" test -z "$(ls -A "$_d/out")"
	# shellcheck disable=SC2086 # $QUICK: words
	exits2 "$_who: bench into it is refused" "res/lab is a symbolic link" \
		"$@" bench pipe $QUICK -o "$_d/res" --label lab
	exits2 "$_who: so is --dry-run" "res/lab is a symbolic link" \
		"$@" run --dry-run -o "$_d/res" --label lab "$_d/one.ini"
	exits2 "$_who: a dangling symlink too" "res/dangling is a symbolic link" \
		"$@" run -q -o "$_d/res" --label dangling "$_d/one.ini"
	check "$_who: nothing made where it points" test ! -e /nonexistent-pb-e2e
	"$@" run -q -o "$_d/res" --label real "$_d/one.ini" >"$_d/run.out" 2>&1
	ok $? "$_who: a real label folder beside them is written" "$_d/run.out"
	check "$_who: its result is there" test -n "$(ls "$_d/res/real/"*-one.json)"
}
planted "$(id -un)" "$T/p" "$ABS"
if [ "$ME" = 0 ]; then
	planted nobody "$NB/p" as_nobody "$ABS"
else
	skip "not root: the same cases as nobody"
fi
cd "$REPO" || exit 2

# ---- an option or key given twice is refused; flags may repeat
exits2 "run -o twice" "pinbench run: --output (-o) given twice" \
	"$PB" run --dry-run -o "$T/x" --output "$T/y" "$T/one.ini"
exits2 "run --label twice" "pinbench run: --label given twice" \
	"$PB" run --dry-run --label a --label b "$T/one.ini"
exits2 "run --duration twice" "pinbench run: --duration given twice" \
	"$PB" run --dry-run --duration 1 --duration 2 "$T/one.ini"
exits2 "run: --set of the same key twice" "pinbench run: repeats= given twice (--set)" \
	"$PB" run --dry-run --set repeats=2 --set repeats=3 "$T/one.ini"
exits2 "run: --repeats and --set repeats=" "repeats= given twice (--repeats, then --set)" \
	"$PB" run --dry-run --repeats 2 --set repeats=3 "$T/one.ini"
exits2 "bench: a key twice" "pinbench bench: cpus= given twice (command line)" \
	"$PB" bench pipe --dry-run cpus=0,0 cpus=1,1
exits2 "bench: --duration and duration=" "duration= given twice (--duration, then command" \
	"$PB" bench pipe --dry-run --duration 1 duration=2
exits2 "compare --min-change twice" "pinbench compare: --min-change given twice" \
	"$PB" compare --min-change 1 --min-change 2 "$T/a.json"
exits2 "doctor --format twice" "pinbench doctor: --format given twice" \
	"$PB" doctor --format text --format json
exits2 "nightly --history twice" "pinbench nightly: --history given twice" \
	"$PB" nightly --history "$T/h1" --history "$T/h2" "$T/one.ini"
check "--set of two keys, -q twice: fine" \
	"$PB" run --dry-run -q -q --set repeats=2 --set warmup=0.2 "$T/one.ini"

# ---- --events '', --allow-different nokey, plot -o into no folder
exits2 "bench --events ''" "pinbench bench: --events '': empty" \
	"$PB" bench pipe --dry-run --events ''
exits2 "run --events ''" "pinbench run: --events '': empty" \
	"$PB" run --dry-run --events '' "$T/one.ini"
for c in compare plot export report; do
	case $c in
	compare) a="" ;;
	plot) a="-o $T/p.png" ;;
	export) a="--format ktap" ;;
	report) a="-o $T/rep" ;;
	esac
	# shellcheck disable=SC2086 # $a: options
	exits2 "$c --allow-different nokey" "pinbench $c: --allow-different: 'nokey' is no key; the keys: .* size" \
		"$PB" $c $a --allow-different size,nokey "$T/a.json" "$T/b.json"
done
exits2 "plot -o into a folder that does not exist" \
	"pinbench plot: -o /nonexistent-pb-e2e/x.png: the folder /nonexistent-pb-e2e: No such" \
	"$PB" plot -o /nonexistent-pb-e2e/x.png "$T/a.json"

# ---- item 8: the disk fills after job 1: said once, with what is kept and lost
MNT=
if [ "$ME" != 0 ]; then
	skip "not root: no tmpfs to fill"
else
	# fill_after_job1 LABEL NAME DURATION REPEATS: run two.ini as NAME.ini
	# (its second job DURATION x REPEATS long) into $T/fs/LABEL in the
	# background ($pid; stderr in $T/NAME.err), and fill the disk to the
	# last block once job 1's file is there ($f), while job 2 runs:
	# whatever the files' sizes on this machine.
	fill_after_job1() {
		sed "s/^\[second\]\$/[second]\nduration=$3\nrepeats=$4/" "$T/two.ini" >"$T/$2.ini"
		"$PB" run -q -o "$T/fs" --label "$1" "$T/$2.ini" >"$T/$2.out" 2>"$T/$2.err" &
		pid=$!
		for _ in $(seq 1 600); do
			[ -z "$(ls "$T/fs/$1"/*-"$2".json 2>/dev/null)" ] || break
			sleep 0.1
		done
		f=$(ls "$T/fs/$1"/*-"$2".json 2>/dev/null)
		dd if=/dev/zero of="$T/fs/fill" bs=4k 2>/dev/null
	}
	mkdir "$T/fs" && mount -t tmpfs -o size=1m none "$T/fs" && MNT=$T/fs
	ok $? "a tmpfs of 1 MiB"
	fill_after_job1 x full 3 2
	wait $pid
	rc=$?
	ok "$(test $rc = 1; echo $?)" "a run that cannot save its end exits 1 (exit $rc)" \
		"$T/full.err"
	rm -f "$T/fs/fill"
	check "job 1's file was kept" test -n "$f"
	check "it holds job 1 only, finished null" pyjson "$f" \
		'd["finished"] is None and [j["name"] for j in d["jobs"]] == ["first"]'
	WHY=$T/full.err
	grep -q "results saved only in part: $f keeps 1 of 2 job results (first cpus)" \
		"$T/full.err"
	ok $? "stderr names the file and the job it kept"
	grep -q "lost: second cpus: .*No space left on device" "$T/full.err"
	ok $? "and the job lost, and why"
	[ "$(grep -c "No space left" "$T/full.err")" = 1 ]
	ok $? "said once"
	! grep -q "results not saved" "$T/full.err"
	ok $? "not 'results not saved': a file was"
	check "no temporary file left" test -z "$(find "$T/fs" -name '*.tmp.*')"

	# interrupted once the disk is full: not "what finished is saved"
	rm -rf "$T/fs/x"
	fill_after_job1 y slow 5 3
	kill -INT $pid
	wait $pid
	rc=$?
	WHY=$T/slow.err
	[ -n "$f" ] && [ $rc = 1 ]
	ok $? "interrupted in job 2 with the disk full: exit 1 (exit $rc)"
	grep -q "results saved only in part: $f keeps 1 of 2 job results (first cpus)" \
		"$T/slow.err"
	ok $? "it says what the file kept"
	grep -q "^pinbench: interrupted$" "$T/slow.err" &&
		! grep -q "what finished is saved" "$T/slow.err"
	ok $? "'interrupted', not 'what finished is saved'"
	rm -f "$T/fs/fill"
	# shellcheck disable=SC2034 # read by ok (lib.sh)
	WHY=
	umount "$T/fs" && MNT=
	ok $? "tmpfs unmounted"
fi

done_testing
