#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# threads.sh - no thread before the roles: with tasks=processes, the main
# process, the job process and the roles never create a thread (the clock
# probe and the observer loop run in forked children), so glibc gives the
# roles its plain read/write path, not the cancellable one.
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null || { echo "1..0 # SKIP strace not installed"; exit 0; }
# --seccomp-bpf: only the traced calls stop the tracee (the observer loop's
# 600 000 getppid calls each would, and make a run minutes long).  strace
# 6.1 stops every call of a forked child until the child makes one traced
# call, so sched_setaffinity is traced too: every child of a run pins
# itself first.
strace --seccomp-bpf -f -qq -e trace=none true 2>/dev/null ||
	{ echo "1..0 # SKIP strace cannot trace here (ptrace not permitted)"; exit 0; }

# traced PINBENCH-ARGS...: the run under strace -f, its clones in $T/clones,
# its output in $T/out.  LeakSanitizer (make check SANITIZE=1) cannot run
# under a tracer: it ptraces the process itself at exit.
traced() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace --seccomp-bpf -f -qq -e trace=clone,clone3,sched_setaffinity -o "$T/clones" \
		"$PB" bench pipe cpus=0,0 --repeats 1 --duration 0.1 --warmup 0.1 -q \
		-o "$T/res" "$@" >"$T/out" 2>&1
	_rc=$?
	# on a failure, say why: the exit code and each job's status and reason
	[ $_rc = 0 ] || { echo "exit $_rc"; python3 -c 'import json, sys
for f in sys.argv[1:]:
    for j in json.load(open(f)).get("jobs", []): print(f, j["name"], j["status"], j.get("reason"))' \
		"$T"/res/*/*.json || :; } >>"$T/out" 2>&1
	return $_rc
}

traced events=none
rc=$?
WHY=$T/out
check "tasks=processes: the run is ok" test $rc = 0
WHY=$T/clones
check "it forked (the probe children, the job process, the roles)" \
	grep -q "clone" "$T/clones"
ok "$(grep -c CLONE_THREAD "$T/clones" | grep -qx 0; echo $?)" \
	"no process of the run created a thread"

# the check sees threads when there are some
traced events=none tasks=threads
rc=$?
WHY=$T/out
check "tasks=threads: the run is ok" test $rc = 0
WHY=$T/clones
check "tasks=threads: the roles are threads, and the trace shows them" \
	grep -q CLONE_THREAD "$T/clones"

done_testing
