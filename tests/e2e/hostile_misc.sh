#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Hostile and careless inputs at the edges (issue 21, the low items): a
# CPU lock any local user holds (named as it is, --wait ends), a server
# --bind that is no address, family= against an IP peer=, a FIFO given as
# the topology, CPUs affinity leaves out, perf stat counts no counter
# holds, and role processes an interrupt leaves behind.
# shellcheck disable=SC2086 # $SHORT is words on purpose
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_pinbench
SHORT="--duration 0.1 --repeats 1 --warmup 0 events=none"
PINBENCH_LOCK_DIR=$T/locks	# our own locks: other runs on this machine do not count
export PINBENCH_LOCK_DIR
mkdir "$T/locks"
HOLDER=
SRV=
on_exit() {
	[ -z "$HOLDER" ] || kill "$HOLDER" 2>/dev/null
	[ -z "$SRV" ] || kill "$SRV" 2>/dev/null
}

# ---- a CPU lock held by a process that is no pinbench
# hold_lock CPU: a python3 holding the lock of CPU, its command name set to
# one with a terminal escape (a process names itself); HOLDER its pid
hold_lock() {
	python3 - "$PINBENCH_LOCK_DIR/pinbench-cpu$1.lock" "$T/held" <<'PY' &
import ctypes, fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o666)
fcntl.lockf(fd, fcntl.LOCK_EX)
ctypes.CDLL(None).prctl(15, b"evil\x1b]0;t\x07", 0, 0, 0)	# PR_SET_NAME
open(sys.argv[2], "w").write("held\n")
time.sleep(300)
PY
	HOLDER=$!
	for _ in $(seq 500); do [ -s "$T/held" ] && return 0; sleep 0.02; done
	return 1
}
hold_lock "$C0"
ok $? "a python3 holds the lock of CPU $C0"
WHO="pid $HOLDER (evil?]0;t?, user $(id -un))"
"$PB" bench pipe cpus="$C0,$C0" $SHORT -o "$T/o" --format json >"$T/s.json" 2>"$T/s.err"
ok $? "without --wait: the job runs" "$T/s.err"
check "... the warning names the holder as it is: pid, command, user" \
	grep -qF "CPU $C0 is held by $WHO; running anyway" "$T/s.err"
check "... and does not call it another pinbench" sh -c "! grep -q 'another pinbench' '$T/s.err'"
check "... the shared-cpus mark names it too" pyjson "$T/s.json" \
	"any(a['kind'] == 'shared-cpus' and 'held by $WHO' in a['message'] for a in d['jobs'][0]['anomalies'])"
python3 -c 'import sys; sys.exit(b"\x1b" in open(sys.argv[1], "rb").read())' "$T/s.err"
ok $? "... its command name reaches the terminal cleaned (no ESC)" "$T/s.err"
timeout 120 "$PB" bench pipe cpus="$C0,$C0" $SHORT -o "$T/w" --format json --wait-timeout 0.3 \
	>"$T/w.json" 2>"$T/w.err"
rc=$?
ok "$([ $rc = 1 ]; echo $?)" "--wait-timeout 0.3 on a lock never freed: ends, exit 1 (got $rc)" \
	"$T/w.err"
check "... it said whom it waited for, and for how long at most" \
	grep -qF "waiting for CPU $C0, held by $WHO (at most 0.3 s" "$T/w.err"
check "... the job failed, the holder named in its reason" pyjson "$T/w.json" \
	"d['jobs'][0]['status'] == 'failed' and d['jobs'][0]['reason'] == 'CPU $C0 still held by $WHO after --wait-timeout 0.3 s' and not d['jobs'][0]['repeats']"
for bad in 0 0x10 1e3 -1 " 5" 5. .5 nan inf 604801 ""; do
	"$PB" bench pipe --wait-timeout "$bad" --dry-run -o "$T/d" >/dev/null 2>"$T/e"
	ok "$([ $? = 2 ] && grep -q "^pinbench bench: --wait-timeout '$bad': want seconds" "$T/e"; \
	      echo $?)" "--wait-timeout '$bad': exit 2, named" "$T/e"
done
"$PB" bench pipe --wait-timeout 2.5 --dry-run -o "$T/d" >/dev/null 2>"$T/e"
ok $? "--wait-timeout 2.5: taken" "$T/e"
kill "$HOLDER"
wait "$HOLDER" 2>/dev/null
HOLDER=
mkdir "$T/locks2"
PINBENCH_LOCK_DIR=$T/locks2 "$PB" bench pipe cpus="$C0,$C0" $SHORT -o "$T/o" >/dev/null 2>&1
check "a lock file pinbench makes is 0666: a second user's run can lock it too" \
	test "$(stat -c %a "$T/locks2/pinbench-cpu$C0.lock")" = 666

# ---- server --bind: not an address is a usage error
exits2 "server --bind 999.1.1.1: exit 2, the address named" "--bind 999.1.1.1" \
	"$PB" server --bind 999.1.1.1 --port 0

# ---- HELLO cpu= 0: a number with a space before it is no number
"$PB" server --port 0 --cpus "$C0" 2>"$T/srv.log" &
SRV=$!
for _ in $(seq 100); do
	PORT=$(sed -n 's/.*listening on [^ ]*:\([0-9]*\) .*/\1/p' "$T/srv.log")
	[ -n "$PORT" ] && break
	sleep 0.1
done
python3 - "$PORT" "$C0" >"$T/hello" 2>&1 <<'PY'
import socket, struct, sys

def ask(cpu):
    """The server's answer to a HELLO with cpu=<cpu>: error:REASON or type:N."""
    body = ("bench=udpping\ncpu=%s\ninstances=1\nmax_s=3\np.size=1\n" % cpu).encode()
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
    s.sendall(b"PBSV" + struct.pack(">HHI", 1, 1, len(body)) + body)
    data = b""
    while len(data) < 12 or len(data) < 12 + struct.unpack(">I", data[8:12])[0]:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    typ = struct.unpack(">H", data[6:8])[0]
    f = dict(l.split("=", 1) for l in data[12:].decode().splitlines() if "=" in l)
    return "error:" + f.get("reason", "") if typ == 3 else "type:%d" % typ

bad, good = ask(" " + sys.argv[2]), ask(sys.argv[2])
print("cpu=' %s': %s; cpu='%s': %s" % (sys.argv[2], bad, sys.argv[2], good))
sys.exit(0 if bad == "error:cpu: ' %s' is not an integer" % sys.argv[2] and
         good == "type:2" else 1)
PY
ok $? "HELLO cpu=' $C0' refused as not an integer; cpu=$C0 answered READY" "$T/hello"
kill "$SRV"
wait "$SRV" 2>/dev/null
SRV=

# ---- family= against an IP address in peer=: refused before anything runs
exits2 "family=6 with peer=127.0.0.1: refused at --dry-run, both keys named" \
	"family=6 asks for IPv6 but peer=127.0.0.1 is an IPv4 address" \
	"$PB" bench udpping family=6 peer=127.0.0.1 --dry-run -o "$T/d"
exits2 "peer=::1 with the default family=4: refused" \
	"family=4 (the default) asks for IPv4 but peer=::1 is an IPv6 address" \
	"$PB" bench rr peer=::1 --dry-run -o "$T/d"
printf '[j]\nbench=udpping\nfamily=6\npeer=10.0.0.1:7000\n' >"$T/fam.ini"
exits2 "... from a job file: the line of family= named" \
	"fam.ini:3: family=6 asks for IPv6 but peer=10.0.0.1:7000" \
	"$PB" run --dry-run -o "$T/d" "$T/fam.ini"
"$PB" bench udpping family=6 peer="[::1]:7000" --dry-run -o "$T/d" >/dev/null 2>"$T/e"
ok $? "family=6 with peer=[::1]:7000: taken" "$T/e"
"$PB" bench udpping family=6 peer=localhost --dry-run -o "$T/d" >/dev/null 2>"$T/e"
ok $? "a host name in peer=: left to the run (looked up then)" "$T/e"

# ---- a FIFO as the topology: not a regular file, no hang
mkfifo "$T/machine.xml"
exits2 "topo --topology FIFO: not a regular file, exit 2 at once" \
	"cannot read topology file $T/machine.xml: not a regular file (a FIFO)" \
	timeout 20 "$PB" topo --topology "$T/machine.xml"
PBA=$(cd "$(dirname "$PB")" && pwd)/$(basename "$PB")
(cd "$T" && timeout 20 "$PBA" topo --topology machine.xml) >/dev/null 2>"$T/e"
ok "$([ $? = 2 ] && grep -q "not a regular file (a FIFO)" "$T/e" &&
      ! grep -q "synthetic" "$T/e"; echo $?)" \
	"... named without a folder: not called an invalid synthetic topology" "$T/e"
exits2 "run --dry-run --topology FIFO: the same" "not a regular file (a FIFO)" \
	timeout 20 "$PB" bench pipe --dry-run --topology "$T/machine.xml" -o "$T/d"

# ---- CPUs affinity leaves out: said as such
CORES=$("$PB" topo --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)["topology"]["cores"])')
if [ "${CORES:-1}" -ge 2 ] && command -v taskset >/dev/null; then
	taskset -c "$C0" "$PB" topo >"$T/topo" 2>&1
	check "under taskset -c $C0: same-socket skipped as 1 of $CORES cores allowed" \
		grep -q "^same-socket  skipped: 1 of $CORES cores allowed" "$T/topo"
	check "... and the header says how many CPUs are allowed" \
		grep -q "^allowed: CPUs 1 of [0-9]* (affinity or cpuset)" "$T/topo"
else
	skip "needs two cores this process may use, and taskset"
	skip "needs two cores this process may use, and taskset"
fi

# ---- an interrupt leaves no role process behind, not even a zombie
# (the roles are the job process's children: killed with it, they were
# init's to reap, and lingered as zombies where init is slow to)
python3 - "$PB" "$C0" "$C1" "$T/zo" >"$T/zombies" 2>&1 <<'PY'
import os, signal, subprocess, sys, time

def kids(pid):
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                st = open("/proc/%s/stat" % d).read()
            except OSError:
                continue
            if int(st[st.rindex(")") + 2:].split()[1]) == pid:
                out.append(int(d))
    return out

pb, c0, c1, out = sys.argv[1:]
p = subprocess.Popen([pb, "bench", "pipe", "cpus=%s,%s" % (c0, c1), "--duration", "5",
                      "--repeats", "3", "--warmup", "0", "events=none", "-q", "-o", out],
                     stdout=subprocess.DEVNULL)
roles = []
for _ in range(1000):		# the job process, then its two roles
    roles = [r for j in kids(p.pid) for r in kids(j)]
    if len(roles) >= 2:
        break
    time.sleep(0.02)
print("roles:", roles)
p.send_signal(signal.SIGINT)
rc = p.wait(timeout=60)
left = [r for r in roles if os.path.exists("/proc/%d" % r)]
print("exit", rc, "left:", left)
sys.exit(0 if len(roles) >= 2 and rc == 1 and not left else 1)
PY
ok $? "SIGINT to a run: exit 1, and its role processes are gone (reaped), not zombies" \
	"$T/zombies"

# ---- perf stat counts: 2^64 and more is no count
printf '  10000000000000000000000000000  cycles\n' >"$T/big.txt"
exits2 "doctor --perf-stat: a count of 1e28 refused" \
	"cycles: count 1e+28 is 2^64 or more, more than a 64-bit counter holds" \
	"$PB" doctor --perf-stat "$T/big.txt"
python3 - "$T/iv.txt" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(1, 16001):
        f.write("%16.9f %18s msec task-clock\n" % (i * 0.1, "100.00"))
        f.write("%16.9f %18s      cycles\n" % (i * 0.1, "{:,}".format(250000000 + i)))
PY
"$PB" doctor --perf-stat "$T/iv.txt" --nominal-mhz 2500 >"$T/iv.out" 2>&1
ok $? "doctor --perf-stat: 16,000 intervals read" "$T/iv.out"
check "... all of them" grep -q "2 events, 16000 intervals" "$T/iv.out"

done_testing
