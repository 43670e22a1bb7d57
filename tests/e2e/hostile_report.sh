#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What report, plot and nightly write, they write in place: a symlink
# planted at report.png, report.svg, report.md, report.txt, the plot's
# .dat and .gp (in a report folder, beside plot -o's image, in a nightly
# history's kernel folder) is replaced, never written through; a kernel
# folder of a history that is a symlink is refused (exit 2).  As the user
# who runs the test and, when that is root, as nobody too.  And a SIGTERM,
# SIGHUP or SIGINT sent to nightly's pid alone is passed on to its
# pinbench run, which nightly waits for: exit 3, nothing left running,
# no result filed without its report.
. "$(dirname "$0")/lib.sh"
need_pinbench
genresults
PB_ABS=$(cd "$(dirname "$PB")" && pwd)/$(basename "$PB")

# A stand-in for the run (PINBENCH_RUN_STANDIN DIR LABEL JOBFILE): it files
# $NEXT under DIR/L/ (as a run does, a new name) and exits 0.
cat >"$T/fake-run" <<'EOT'
#!/bin/sh
mkdir -p "$1/$2" && cp "$NEXT" "$1/$2/$(date -u +%Y%m%dT%H%M%S%N)-hist.json"
EOT
chmod 755 "$T/fake-run"
printf '[global]\nbench=pipe\n\n[pingpong]\npattern=pingpong\n' >"$T/hist.ini"
chmod 644 "$T/hist.ini"

# untouched FILE: the victim still holds what it was given
untouched() {
	[ "$(cat "$1")" = precious ]
}
# real DIR NAME...: each DIR/NAME is a regular file, not a symlink
real() {
	_d=$1
	shift
	for _f in "$@"; do
		[ -f "$_d/$_f" ] && [ ! -L "$_d/$_f" ] || return 1
	done
}
# png FILE: starts as a PNG does
png() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}
# plant DIR NAME...: DIR/NAME -> $D/victim for each NAME
plant() {
	_d=$1
	shift
	mkdir -p "$_d"
	for _f in "$@"; do
		ln -s "$D/victim" "$_d/$_f"
	done
}

# _as COMMAND...: run as $RUNNER says (a script that switches user), or as is
_as() {
	if [ -n "$RUNNER" ]; then
		"$RUNNER" "$@"
	else
		"$@"
	fi
}

# planted WHO DIR: the cases in DIR (made here, owned by $AS when set),
# each command run through _as.
planted() {
	_who=$1
	D=$2
	mkdir -p "$D/base" "$D/new"
	$G -o "$D/base/b.json" --label 6.1 --seed 1 --latency &&
	$G -o "$D/new/n.json" --label 6.2 --seed 2 --latency --shift 4 &&
	$G -o "$D/next.json" --label 6.3 --seed 3 --latency --shift 8
	echo precious >"$D/victim"
	plant "$D/r" report.png report.svg report.md report.txt report.gp report.dat
	plant "$D/p" p.png p.gp p.dat
	plant "$D/h/6.3" report.png report.md report.gp report.dat
	mkdir -p "$D/h/6.1" "$D/elsewhere"
	cp "$D/base/b.json" "$D/h/6.1/b.json"
	ln -s ../elsewhere "$D/h/6.4"
	[ -z "$AS" ] || chown -R "$AS" "$D"

	_as "$PB" report -o "$D/r" "$D/base" "$D/new" >"$D/r.out" 2>"$D/r.err"
	_rc=$?
	ok $([ $_rc = 0 ] && untouched "$D/victim" && echo 0 || echo 1) \
		"$_who: report -o R with symlinks planted at R/report.*: exit 0, the target untouched (exit $_rc)" \
		"$D/r.err"
	check "$_who: report: report.md, .txt, .png, .svg, .gp, .dat are its own files" \
		real "$D/r" report.md report.txt report.png report.svg report.gp report.dat
	check "$_who: report: report.png is a PNG" png "$D/r/report.png"
	echo precious >"$D/victim"

	_as "$PB" plot -o "$D/p/p.png" "$D/base" "$D/new" >"$D/p.out" 2>"$D/p.err"
	_rc=$?
	ok $([ $_rc = 0 ] && untouched "$D/victim" && real "$D/p" p.png p.gp p.dat &&
		png "$D/p/p.png" && echo 0 || echo 1) \
		"$_who: plot -o p.png over planted p.png, p.gp, p.dat: exit 0, replaced, the target untouched (exit $_rc)" \
		"$D/p.err"
	echo precious >"$D/victim"

	_as env NEXT="$D/next.json" PINBENCH_RUN_STANDIN="$T/fake-run" "$PB" nightly "$T/hist.ini" \
		--history "$D/h" --label 6.3 >"$D/n.out" 2>"$D/n.err"
	_rc=$?
	ok $([ $_rc = 0 ] || [ $_rc = 1 ] && untouched "$D/victim" && echo 0 || echo 1) \
		"$_who: nightly with symlinks planted in H/<kernel>: a verdict, the target untouched (exit $_rc)" \
		"$D/n.err"
	check "$_who: nightly: report.md, report.png, .gp, .dat are its own files" \
		real "$D/h/6.3" report.md report.png report.gp report.dat
	grep -q '^# pinbench nightly: 6.3' "$D/h/6.3/report.md" && png "$D/h/6.3/report.png"
	ok $? "$_who: nightly: report.md is the report, report.png a PNG" "$D/n.err"

	_as env NEXT="$D/next.json" PINBENCH_RUN_STANDIN="$T/fake-run" "$PB" nightly "$T/hist.ini" \
		--history "$D/h" --label 6.4 >"$D/l.out" 2>"$D/l.err"
	_rc=$?
	ok $([ $_rc = 2 ] && grep -q "6.4 is a symbolic link" "$D/l.err" &&
		[ -z "$(ls -A "$D/elsewhere")" ] && echo 0 || echo 1) \
		"$_who: nightly with H/<kernel> a symlink to a folder: exit 2, said, nothing written there (exit $_rc)" \
		"$D/l.err"
}

if ! command -v gnuplot >/dev/null 2>&1; then
	skip "planted symlinks: gnuplot is not installed (the image is what is tested)"
else
	# the user who runs the test
	AS=''
	RUNNER=''
	if [ "$(id -u)" = 0 ]; then
		planted root "$T/root"
	else
		planted "$(id -un)" "$T/user"
	fi
	# and nobody, when root: in a folder of its own, $T only crossed
	if [ "$(id -u)" != 0 ]; then
		skip "planted symlinks as nobody: not root, the half as this user ran"
	elif ! command -v setpriv >/dev/null 2>&1; then
		skip "planted symlinks as nobody: no setpriv"
	elif ! setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$PB_ABS"; then
		skip "planted symlinks as nobody: nobody cannot run $PB_ABS"
	else
		chmod 711 "$T"
		mkdir "$T/nobody"
		AS=nobody:nogroup
		RUNNER=$T/as-nobody
		printf '#!/bin/sh\nexec setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=%s "$@"\n' \
			"$T/nobody" >"$RUNNER"
		chmod 755 "$RUNNER"
		planted nobody "$T/nobody"
		AS=
	fi
fi

# ---- a stop signal to nightly's pid alone

# wait_file GLOB: until a file matches (10 ms steps, 30 s at most)
wait_file() {
	for _ in $(seq 1 3000); do
		# shellcheck disable=SC2086
		ls $1 >/dev/null 2>&1 && return 0
		sleep 0.01
	done
	return 1
}
# tree PID: PID and its descendants, one a line
tree() {
	echo "$1"
	for _c in $(pgrep -P "$1"); do
		tree "$_c"
	done
}
# gone PIDS-FILE: none of the processes is left (waits up to 10 s for
# them); those left are named, and killed: a failed test leaves nothing
gone() {
	for _ in $(seq 1 200); do
		_left=
		for _p in $(cat "$1"); do
			kill -0 "$_p" 2>/dev/null && _left="$_left $_p"
		done
		[ -z "$_left" ] && return 0
		sleep 0.05
	done
	echo "still running:$_left"
	# shellcheck disable=SC2086
	ps -o pid,ppid,args -p "$(echo $_left | tr ' ' ,)"
	# shellcheck disable=SC2086
	kill -KILL $_left 2>/dev/null
	return 1
}
# reported DIR: every result under DIR has a report.md beside it
reported() {
	for _j in $(find "$1" -name '*.json'); do
		[ -f "$(dirname "$_j")/report.md" ] || { echo "no report beside $_j"; return 1; }
	done
}
# no_litter DIR: no temp file (*.tmp.*) left
no_litter() {
	[ -z "$(find "$1" -name '*.tmp.*')" ]
}
# dfl_int COMMAND...: COMMAND with SIGINT at its default (a background job
# of a script starts with it ignored, which nightly respects), in place of
# the shell that runs it: for a background job only (its $! is COMMAND's)
dfl_int() {
	exec python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$@"
}

# stop SIG GLOB NAME ARGS...: pinbench nightly ARGS in the background
# (SIGINT at its default), SIG sent to its pid alone once GLOB exists: its
# exit code in rc, its processes then in $T/pids.NAME, its stdout and
# stderr in $T/NAME.out and .err (WHY)
stop() {
	_sig=$1
	_glob=$2
	_name=$3
	shift 3
	dfl_int "$PB_ABS" nightly "$@" >"$T/$_name.out" 2>"$T/$_name.err" &
	_nb=$!
	wait_file "$_glob"
	tree $_nb >"$T/pids.$_name"
	kill -"$_sig" $_nb
	wait $_nb
	rc=$?
	WHY=$T/$_name.err
}

# A stand-in for pinbench run that waits to be stopped: on SIGTERM, SIGHUP
# or SIGINT it files $NEXT (what finished) and exits 1, as a run does.
cat >"$T/slow-run" <<'EOT'
#!/bin/sh
trap 'echo "$SIG" >"$MARK.sig"; cp "$NEXT" "$1/$2/stopped-hist.json"; exit 1' TERM HUP INT
mkdir -p "$1/$2"
echo $$ >"$MARK"
for _ in $(seq 1 600); do sleep 0.05; done
EOT
chmod 755 "$T/slow-run"
$G -o "$T/next.json" --label 6.3 --seed 3 >/dev/null
NEXT=$T/next.json
PINBENCH_RUN_STANDIN=$T/slow-run
export NEXT PINBENCH_RUN_STANDIN MARK SIG
for SIG in TERM HUP INT; do
	H=$T/hs-$SIG
	MARK=$T/mark-$SIG
	mkdir -p "$H/6.1"
	$G -o "$H/6.1/b.json" --label 6.1 --seed 1 >/dev/null
	stop $SIG "$MARK" s-$SIG "$T/hist.ini" --history "$H" --label 6.3 --no-plot
	ok $([ $rc = 3 ] && echo 0 || echo 1) "SIG$SIG to nightly (a stand-in run): exit 3 (got $rc)"
	check "SIG$SIG: passed on to the run" test -s "$MARK.sig"
	check "SIG$SIG: nightly waited for the run: nothing left running" gone "$T/pids.s-$SIG"
	check "SIG$SIG: what the run filed has its report, which says it was stopped" sh -c "
		test -f '$H/6.3/stopped-hist.json' && grep -q 'stopped.* by SIG$SIG' '$H/6.3/report.md'"
	check "SIG$SIG: said on stderr" grep -q "stopped by SIG$SIG: .*filed with its report" \
		"$WHY"
	check "SIG$SIG: no temp file left" no_litter "$H"
done
unset PINBENCH_RUN_STANDIN

# The real pinbench run, stopped in its first repeat (once it holds its
# CPU, in a lock folder of its own): it saves nothing, so nothing is filed.
cat >"$T/long.ini" <<EOF
[global]
bench=pipe
warmup=0
placement=same-cpu
[long]
repeats=2
duration=30
EOF
export PINBENCH_LOCK_DIR
for sig in TERM INT; do
	H=$T/hr-$sig
	PINBENCH_LOCK_DIR=$T/locks-$sig
	mkdir -p "$PINBENCH_LOCK_DIR"
	stop $sig "$PINBENCH_LOCK_DIR/pinbench-cpu*.lock" r-$sig "$T/long.ini" --history "$H" \
		--label 6.3 --no-plot
	ok $([ $rc = 3 ] && echo 0 || echo 1) "SIG$sig to nightly during pinbench run: exit 3 (got $rc)"
	check "SIG$sig: the run, its job and roles are gone" gone "$T/pids.r-$sig"
	check "SIG$sig: no result filed without its report" reported "$H"
	check "SIG$sig: said, nothing filed" grep -q "stopped by SIG$sig: .*saved no result" "$WHY"
	check "SIG$sig: no temp file left" no_litter "$H"
done

done_testing
