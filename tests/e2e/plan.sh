#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End-to-end: one placement resolution (core/plan.c).  What --dry-run
# prints for a job is what the run locks and pins: with peer=, only the
# client end of each of the placement's pairs (the server end runs on the
# peer).  The lock checks need no server: a peer nobody listens on fails
# the job at connect, after its CPUs were locked.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_pinbench
TOPO="pack:2 core:4 pu:2"
HOLDER=
on_exit() {	# lib.sh: before $T goes
	[ -n "$HOLDER" ] && kill "$HOLDER" 2>/dev/null
}

# cpus_of FILE PLACEMENT: the CPU list --dry-run printed for it
cpus_of() {
	awk -v p="$1" '$1 == p { print $2 }' "$2"
}

# ---- --dry-run on a synthetic topology: the client ends only
"$PB" bench udpping placement=same-socket,diff-socket --dry-run --topology "$TOPO" \
	>"$T/local.out" 2>&1
"$PB" bench udpping peer=127.0.0.1 placement=same-socket,diff-socket --dry-run \
	--topology "$TOPO" >"$T/peer.out" 2>&1
ok $? "dry-run of a peer job: exit 0" "$T/peer.out"
WHY=$T/peer.out
for p in same-socket diff-socket; do
	both=$(cpus_of "$p" "$T/local.out")
	check "peer job at $p: the client's CPU only (${both%%,*} of $both)" \
		test "$(cpus_of "$p" "$T/peer.out")" = "${both%%,*}"
done
"$PB" bench rr streams=2 placement=diff-socket --dry-run --topology "$TOPO" >"$T/local2.out" 2>&1
"$PB" bench rr streams=2 peer=127.0.0.1 placement=diff-socket --dry-run --topology "$TOPO" \
	>"$T/peer2.out" 2>&1
both=$(cpus_of diff-socket "$T/local2.out")
want=$(echo "$both" | awk -F, '{ print $1 "," $3 }')
WHY=$T/peer2.out
check "peer job of 2 streams: the first end of each pair ($want of $both)" \
	test "$(cpus_of diff-socket "$T/peer2.out")" = "$want"
WHY=
"$PB" bench udpping peer=127.0.0.1 placement=diff-socket --dry-run --topology "pack:1 core:2 pu:1" \
	>"$T/skip.out" 2>&1
check "peer job at a placement the machine lacks: still skipped, the reason said" \
	grep -q "^  diff-socket  skipped: 1 package" "$T/skip.out"

# ---- the locks: a peer job locks the client's CPU, not the server end's
PINBENCH_LOCK_DIR=$T/locks	# our own locks: other runs on this machine do not count
export PINBENCH_LOCK_DIR
mkdir "$T/locks"
"$PB" bench udpping placement=same-socket --dry-run >"$T/here.out" 2>&1
here=$(cpus_of same-socket "$T/here.out")
client=${here%%,*}
server=${here#*,}
# hold CPU $1's lock (as another pinbench would) until killed
hold() {
	rm -f "$T/held"
	python3 - "$PINBENCH_LOCK_DIR/pinbench-cpu$1.lock" "$T/held" <<'PY' &
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o666)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
open(sys.argv[2], "w").close()
time.sleep(120)
PY
	HOLDER=$!
	for _ in $(seq 1 500); do [ -e "$T/held" ] && return 0; sleep 0.01; done
	return 1
}
unhold() {
	kill "$HOLDER" 2>/dev/null
	wait "$HOLDER" 2>/dev/null
	HOLDER=
}
# run_peer: a peer job at same-socket whose peer does not answer
run_peer() {
	"$PB" bench udpping peer=127.0.0.1:1 placement=same-socket --repeats 1 --duration 0.1 \
		--warmup 0 --set events=none -q --format json -o "$T/o" >"$T/lk.json" 2>"$T/lk.err"
}
if [ -z "$client" ] || [ "$client" = "$server" ]; then
	skip "same-socket is not two CPUs here ($here)"
	skip "same-socket is not two CPUs here ($here)"
else
	hold "$server"
	run_peer
	WHY=$T/lk.err
	check "peer job: the server end's CPU $server is not locked here" \
		test "$(grep -c "CPU $server is held" "$T/lk.err")" = 0
	unhold
	hold "$client"
	run_peer
	check "peer job: the client's CPU $client is locked (held: said)" \
		grep -q "CPU $client is held by pid " "$T/lk.err"
	unhold
fi
done_testing
