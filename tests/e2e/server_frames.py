# SPDX-License-Identifier: GPL-2.0-only
# Hostile and odd control connections to a `pinbench server` (used by
# server.sh): python3 server_frames.py PORT CASE.  Prints one word: what the
# server did ("error:REASON", "closed", "ready", "busy", "open").  Never hangs:
# every socket has a timeout.  PB_FRAMES_CPU: the CPU a well-formed HELLO
# asks for (default 0; one the server offers, so that a refusal is for the
# fault under test).
import os, random, socket, struct, sys, time

port, case = int(sys.argv[1]), sys.argv[2]

if case == "logcheck":		# logcheck LOG: what a server logged of sessions
    # "printed=P suppressed=S max_per_second=M": session lines (closed: or
    # refused:) printed, those a summary says it suppressed, and the most
    # of one kind printed within one second.
    import collections, re
    per = collections.Counter()
    printed = suppressed = 0
    for line in open(sys.argv[3], errors="replace"):
        m = re.match(r"pinbench server: (\S+) session \d+ \([^)]*\): (closed|refused): ", line)
        if m:
            printed += 1
            per[m.groups()] += 1
        m = re.match(r"pinbench server: \S+ suppressed (\d+) similar line", line)
        if m:
            suppressed += int(m.group(1))
    print("printed=%d suppressed=%d max_per_second=%d" %
          (printed, suppressed, max(per.values() or [0])))
    sys.exit(0)


def frame(typ, body, ver=1, magic=b"PBSV", blen=None):
    body = body.encode() if isinstance(body, str) else body
    n = len(body) if blen is None else blen
    return magic + struct.pack(">HHI", ver, typ, n) + body


def answer(s):
    """The server's reply: error:REASON, ready, other:TYPE, or closed."""
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            if len(data) >= 12 and len(data) >= 12 + struct.unpack(">I", data[8:12])[0]:
                break
    except socket.timeout:
        return "open"
    except ConnectionResetError:
        return "closed"
    if len(data) < 12:
        return "closed"
    typ = struct.unpack(">H", data[6:8])[0]
    body = data[12:].decode(errors="replace")
    fields = dict(l.split("=", 1) for l in body.splitlines() if "=" in l)
    if typ == 3:
        return "error:" + fields.get("reason", "")
    if typ == 2:
        return "ready"
    return "other:%d" % typ


def fields_of(s):
    """One whole frame from s: (type, {key: value}), or (None, {}) when closed."""
    data = b""
    while len(data) < 12 or len(data) < 12 + struct.unpack(">I", data[8:12])[0]:
        chunk = s.recv(65536)
        if not chunk:
            return None, {}
        data += chunk
    body = data[12:].decode(errors="replace")
    return (struct.unpack(">H", data[6:8])[0],
            dict(l.split("=", 1) for l in body.splitlines() if "=" in l))


def udp_batch(port, probes, client, req):
    """Send each (name, src, size) probe to the data port, then req bytes from
    the client's socket, and wait for that reply: the server takes one socket's
    datagrams in order, so by then every probe has been answered or dropped.
    [(name, bytes of the reply, 0 for none)], the client's reply last."""
    socks = []
    for name, src, size in probes:
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        u.bind((src, 0))
        u.sendto(b"\x01" * size, ("127.0.0.1", port))
        socks.append((name, u))
    client.settimeout(10)
    client.sendto(b"\x01" * req, ("127.0.0.1", port))
    try:
        last = len(client.recv(70000))
    except socket.timeout:
        last = 0
    out = []
    for name, u in socks:
        try:
            out.append((name, len(u.recv(70000, socket.MSG_DONTWAIT))))
        except (BlockingIOError, ConnectionRefusedError):
            out.append((name, 0))
        u.close()
    return out, last


def conn(timeout=8.0):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.settimeout(timeout)
    return s


CPU = os.environ.get("PB_FRAMES_CPU", "0")
HELLO = "bench=udpping\ncpu=%s\ninstances=1\nmax_s=3\np.size=1\n" % CPU
cases = {
    "random": lambda: bytes(random.getrandbits(8) for _ in range(random.randint(1, 4000))),
    "http": lambda: b"GET / HTTP/1.0\r\n\r\n",
    "trunc-header": lambda: frame(1, HELLO)[:7],
    "trunc-body": lambda: frame(1, HELLO)[:20],
    "oversized": lambda: frame(1, "", blen=1 << 30),
    "version": lambda: frame(1, HELLO, ver=9),
    "type": lambda: frame(42, HELLO),
    "not-hello": lambda: frame(4, ""),
    "bad-bench": lambda: frame(1, HELLO.replace("udpping", "pipe")),
    "exec": lambda: frame(1, HELLO.replace("udpping", "../../bin/sh")),
    "bad-param": lambda: frame(1, HELLO.replace("p.size=1", "p.size=0")),
    "bad-key": lambda: frame(1, HELLO + "p.nosuch=1\n"),
    "bad-field": lambda: frame(1, HELLO + "path=/etc/passwd\n"),
    "bad-cpu": lambda: frame(1, HELLO.replace("cpu=%s" % CPU, "cpu=4095")),
    "instances": lambda: frame(1, HELLO.replace("instances=1", "instances=100000")),
    "too-long": lambda: frame(1, HELLO.replace("max_s=3", "max_s=99999")),
    "binary": lambda: frame(1, "bench=udp\x00ping\n"),
    "no-newline": lambda: frame(1, "bench=udpping"),
    "hello": lambda: frame(1, HELLO),
    "test-key": lambda: frame(1, HELLO + "p.drop_every=3\n"),
    "test-key-0": lambda: frame(1, HELLO + "p.drop_every=0\n"),
    "test-key-rr": lambda: frame(1, HELLO.replace("udpping", "rr").replace(
        "p.size=1", "p.proto=udp\np.drop_every=2")),
}

if case == "fake-server":	# a server whose effective parameters differ
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(1)
    ls.settimeout(20)
    print(ls.getsockname()[1], flush=True)
    c, _ = ls.accept()
    c.settimeout(10)
    hello = c.recv(65536).decode(errors="replace")
    f = dict(l.split("=", 1) for l in hello[12:].splitlines() if "=" in l)
    params = ";".join("%s=%s" % (k[2:], v) for k, v in f.items() if k.startswith("p."))
    params = params.replace("size=1;", "size=2;")
    body = ("ports=9\nhostname=fake\nkernel=0\ncpu_model=none\ncpu=0\nparams=%s\n"
            "params_hash=0000000000000000\n" % params)
    c.sendall(frame(2, body))
    try:
        c.recv(100)
    except OSError:
        pass
    sys.exit(0)
if case == "stall":		# connect, say nothing: the server must hang up
    s = conn(timeout=30)
    t0 = time.time()
    r = answer(s)
    print("%s %.1f" % (r, time.time() - t0))
elif case == "idle":		# HELLO max_s=argv[3], READY, then nothing: "REPLY SECONDS"
    s = conn(timeout=float(sys.argv[4]) if len(sys.argv) > 4 else 30)
    s.sendall(frame(1, HELLO.replace("max_s=3", "max_s=" + sys.argv[3])))
    typ, f = fields_of(s)
    if typ != 2:
        print("not-ready:%s" % f.get("reason", typ))
        sys.exit(0)
    t0 = time.time()
    r = answer(s)
    print("%s %.1f" % (r, time.time() - t0))
elif case == "busy":		# hold N-1... connections: argv[3] stalled ones, then one more
    held = [conn() for _ in range(int(sys.argv[3]))]
    time.sleep(0.5)
    s = conn()
    s.sendall(frame(1, HELLO))
    print("busy" if answer(s).startswith("error:busy") else "not-busy")
    for h in held:
        h.close()
elif case in ("amplify", "amplify-rr"):	# who the UDP data port answers, and how much
    # udpping size=65507, or rr udp request=8 response=65507.  127.0.0.2 is
    # another host as far as the server knows (the control connection is
    # from 127.0.0.1).  Prints the bytes each datagram got back (0: none).
    req = 65507 if case == "amplify" else 8
    body = (HELLO.replace("p.size=1", "p.size=65507") if case == "amplify" else
            HELLO.replace("udpping", "rr").replace(
                "p.size=1", "p.proto=udp\np.request=8\np.response=65507"))
    s = conn()
    s.sendall(frame(1, body))
    typ, f = fields_of(s)
    if typ != 2:
        print("not-ready:%s" % f.get("reason", typ))
        sys.exit(0)
    port = int(f["ports"])
    a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    a.bind(("127.0.0.1", 0))
    out, last = udp_batch(port, [("other", "127.0.0.2", 1), ("other_full", "127.0.0.2", req),
                                 ("wrong_size", "127.0.0.1", 1)], a, req)
    out.append(("client", last))
    more, last = udp_batch(port, [("other_port", "127.0.0.1", req),
                                  ("other_after", "127.0.0.2", req)], a, req)
    out += more + [("client_again", last)]
    s.sendall(frame(4, ""))
    typ, f = fields_of(s)
    print(" ".join("%s=%d" % kv for kv in out) + " replies=%s" % f.get("ops", "?"))
elif case == "flood":		# argv[3] tiny connections in a row, each one junk line
    for i in range(int(sys.argv[3])):
        try:
            s = conn(timeout=5)
            s.sendall(b"GET / HTTP/1.0\r\n\r\n")
            s.close()
        except OSError:
            pass
    print("done")
elif case == "fuzz":		# many random and truncated frames in a row
    random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    for i in range(60):
        s = conn()
        good = frame(1, HELLO)
        pick = random.choice(["rand", "cut", "flip"])
        if pick == "rand":
            data = cases["random"]()
        elif pick == "cut":
            data = good[:random.randint(0, len(good) - 1)]
        else:
            b = bytearray(good)
            b[random.randrange(len(b))] ^= 1 << random.randrange(8)
            data = bytes(b)
        try:
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        answer(s)
        s.close()
    print("done")
else:
    s = conn()
    s.sendall(cases[case]())
    if case.startswith("trunc"):
        s.shutdown(socket.SHUT_WR)
    print(answer(s))
