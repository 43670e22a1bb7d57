#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End-to-end test of the profile pass (profile=on, --profile): a pipe job
# sampled here for real (cpu-clock where there is no PMU), its result's
# profile object valid and complete (per role: folded stacks bounded at
# 99 % of the samples, the sample count, ops and task-clock), kernel
# functions named in the stacks, a known cost (test_spin_ns) on top of the
# reader's own time, the event and its wall time said in the output,
# compare saying where the change went (the spin, with its error), and a
# job without it unchanged.  Only names every Linux has are looked for.
. "$(dirname "$0")/lib.sh"
need_pinbench
SHORT="--repeats 2 --duration 0.3 --warmup 0.2"

# ---- a pipe job with --profile ----
"$PB" bench pipe cpus=$C0,$C0 $SHORT --profile --label base -o "$T/res" >"$T/out" 2>"$T/why"
rc=$(ran $?)
f=$(result_of "$T/out")
[ "$rc" = 0 ] && [ -f "$f" ]
ok $? "bench pipe --profile runs and writes its result (exit $rc)" "$T/why"
if ! pyjson "$f" 'd["jobs"][0]["profile"]["sampled"]' >"$T/py" 2>&1; then
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["jobs"][0].get("profile"))' "$f" >"$T/f" 2>&1
	ok 1 "the profile pass sampled" "$T/f"
	done_testing
	exit 1
fi
ok 0 "the profile pass sampled"
pyjson "$f" 'all(j["params"].get("profile") == "on" for j in d["jobs"])' >"$T/py"
ok $? "the job's params say profile=on" "$T/py"

check "the profile object: event, period, per role samples, ops, task-clock; counts add up" \
	python3 - "$f" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["jobs"][0]["profile"]
assert p["event"] in ("cycles", "cpu-clock"), p["event"]
assert p["period"] > 0 and p["wall_s"] >= p["window_s"] > 0, p
assert p["ops"] > 0, p
assert [r["role"] for r in p["roles"]] == ["writer", "reader"], p["roles"]
assert (p["attribution"] is not None) == p["software"], p["attribution"]
for r in p["roles"]:
    assert r["tasks"] == 1 and r["samples"] > 0 and r["task_clock_ns"] > 0, r
    lines = [l.rsplit(" ", 1) for l in r["folded"].splitlines()]
    counts = [int(c) for s, c in lines]
    assert sum(counts) == r["samples"], (sum(counts), r["samples"])
    assert counts == sorted(counts, reverse=True) or lines[-1][0] == "[other stacks]", counts
    kept = sum(int(c) for s, c in lines if s != "[other stacks]")
    assert kept >= 0.99 * r["samples"], (kept, r["samples"])
    # without the last kept line the rest would cover less than 99 %
    last = [int(c) for s, c in lines if s != "[other stacks]"][-1]
    assert kept - last < 0.99 * r["samples"], (kept, last, r["samples"])
    assert r["unresolved"]["frames"] >= r["samples"], r["unresolved"]
    # a sample's cost to its task comes out of the task-clock first
    assert p["sample_cost_ns"] >= 0, p["sample_cost_ns"]
    net = max(0, r["task_clock_ns"] - p["sample_cost_ns"] * (r["samples"] + r["lost"]))
    per = net / r["samples"] / p["ops"]
    assert abs(r["ns_per_op_per_sample"] - per) <= 1e-6 * per, (r["ns_per_op_per_sample"], per)
PY

if grep -q 'kernel symbols hidden\|refuses kernel samples' "$f"; then
	why=$(grep -o 'kernel symbols hidden[^"]*\|[^"]*refuses kernel samples[^"]*' "$f")
	skip "kernel frames not named here: $(echo "$why" | head -n 1)"
else
	check "the stacks name kernel functions of a pipe round trip (pipe_read, schedule)" \
		python3 - "$f" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["jobs"][0]["profile"]
for r in p["roles"]:
    frames = set(f for l in r["folded"].splitlines() for f in l.rsplit(" ", 1)[0].split(";"))
    assert any("pipe_read" in f or f == "schedule" or f == "__schedule" for f in frames), \
        (r["role"], sorted(frames)[:40])
PY
fi

grep -q "^profile pipe cpus: \(cpu-clock\|cycles\), call chains, [0-9.]* s of wall time" "$T/out"
ok $? "the output names the event and the pass's wall time" "$T/out"
if pyjson "$f" 'd["jobs"][0]["profile"]["software"]' >/dev/null 2>&1; then
	grep -q "software event: .* interrupts off is charged where they are enabled again" "$T/out"
	ok $? "with a software event the output says where interrupts-off time lands" "$T/out"
else
	skip "a hardware event here: no interrupts-off note"
fi
grep -q "^  reader  .* samples (.* lost)" "$T/out"
ok $? "the output gives each role's samples" "$T/out"
# how fast the sampled window ran against the metric's repeats, said and kept
check "the window's pace against the metric's repeats: recorded, and said" \
	python3 - "$f" "$T/out" <<'PY'
import json, re, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
p = j["profile"]
reps = [r for r in j["repeats"] if r["in_summary"]]
mr = sum(r["ops"] for r in reps) / sum(r["elapsed_s"] for r in reps)
assert abs(p["ops_per_s"] - p["ops"] / p["window_s"]) <= 1e-9 * p["ops_per_s"], p
assert abs(p["metric_ops_per_s"] - mr) <= 1e-9 * mr, (p["metric_ops_per_s"], mr)
assert abs(p["slower"] - (1 - p["ops_per_s"] / mr)) <= 1e-9, p["slower"]
said = re.search(r"its window ran (\d+) % (slower|faster) than the metric's repeats",
                 open(sys.argv[2]).read())
assert said, "not said"
x = int(said[1]) * (1 if said[2] == "slower" else -1)
assert abs(x - 100 * p["slower"]) <= 0.5 + 1e-9, (x, p["slower"])
PY
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	/usr/bin/python3 tests/e2e/schemas.py "$f" >"$T/v.out" 2>&1
	ok $? "the result with a profile is a valid pinbench-result/1" "$T/v.out"
else
	skip "no python3-jsonschema"
fi
"$PB" compare "$f" "$f" >"$T/cmp" 2>&1
ok $? "compare loads it" "$T/cmp"

# ---- a known cost: the reader's spin on top of its own time ----
"$PB" bench pipe cpus=$C0,$C0 test_spin_ns=200000 profile=on $SHORT --label spin -o "$T/res" \
	>"$T/out2" 2>"$T/why"
rc=$(ran $?)
f2=$(result_of "$T/out2")
[ "$rc" = 0 ] && [ -f "$f2" ]
ok $? "profile=on as a job key runs (exit $rc)" "$T/why"
# Both roles on the first CPU (no cross-CPU wakeup: on a VM its IPI and the
# halted vCPU's wakeup are interrupts-off time).  The spin's own checks want
# the CPU to the roles: with another task taking a share of it (a
# noisy-neighbor error) or the host taking it (cpu-steal), the switches'
# interrupts-off time lands in the samples (_raw_spin_unlock_irqrestore
# outweighed the spin 2 to 1 under CI's hog; 628 to 570 with steal).
shared=$(python3 -c 'import json, sys
a = [a["message"] for a in json.load(open(sys.argv[1]))["jobs"][0]["anomalies"]
     if a["kind"] == "noisy-neighbor" and a["severity"] == "error" or a["kind"] == "cpu-steal"]
print(a[0] if a else "")' "$f2" 2>&1)
if [ -z "$shared" ]; then
	check "test_spin_ns: the spin is the reader's top function of its own, most of its samples" \
		python3 - "$f2" <<'PY'
import collections, json, sys
p = json.load(open(sys.argv[1]))["jobs"][0]["profile"]
r = [r for r in p["roles"] if r["role"] == "reader"][0]
self = collections.Counter()
for l in r["folded"].splitlines():
    s, c = l.rsplit(" ", 1)
    if s != "[other stacks]":
        self[s.split(";")[-1]] += int(c)
top, n = self.most_common(1)[0]
print(top, n, r["samples"])
assert top in ("spin_until", "pb_test_spin_ns"), self.most_common(5)
assert n > 0.5 * r["samples"], (n, r["samples"])
PY
	spin='\(spin_until\|pb_test_spin_ns\)'
	grep -q "^  reader .*top self: $spin [0-9]* %, [0-9.]* +- [0-9.]* µs/op" "$T/out2"
	ok $? "the output gives the reader's top function with its µs per op and error" "$T/out2"
else
	skip "the reader's CPU was shared ($shared): the spin is not its own"
	skip "nor the top function it prints"
fi

# ---- where the change went: compare ----
"$PB" compare --profiles --allow-different test_spin_ns "$f" "$f2" >"$T/cmp" 2>&1
ok $? "compare --profiles of the two runs" "$T/cmp"
grep -q "^Where the change went, against base (profile pass, \(cpu-clock\|cycles\)" "$T/cmp"
ok $? "compare says where the change went, naming the event" "$T/cmp"
if [ -z "$shared" ]; then
	check "the reader's spin is its largest change: the injected 200 µs per op within its error" \
		python3 - "$T/cmp" <<'PY'
import re, sys
lines = [l.rstrip("\n") for l in open(sys.argv[1]) if re.match(r"^spin +reader ", l)]
rows = [l.split() for l in lines]
assert rows and rows[0][2] == "(all)", lines[:2]
top = rows[1]
assert top[2] in ("spin_until", "pb_test_spin_ns"), lines[:3]
m = re.search(r"([+-][0-9.]+) (µs|ns) ± ([0-9.]+) (µs|ns)$", lines[1])
assert m, lines[1]
chg = float(m[1]) / (1000 if m[2] == "ns" else 1)
err = float(m[3]) / (1000 if m[4] == "ns" else 1)
print(lines[1])
# three sampling errors, and 15 % for the sampling cost taken out: it is
# timed apart, after the window (10-36 µs a sample, 2-7 % of the CPU time
# at 2 kHz; the spin read 199-211 ± 5 µs in seven runs, idle or hogged)
assert abs(chg - 200) <= 3 * err + 30, lines[1]
PY
else
	skip "the reader's CPU was shared: its spin's change is not checked"
fi
"$PB" compare --allow-different test_spin_ns "$f" "$f" >"$T/cmp" 2>&1
! grep -q "^Where the change went" "$T/cmp"
ok $? "compare of a cell with itself (no significant change) shows no profile section" "$T/cmp"

# ---- where the change went: report, and its flame graphs ----
"$PB" report --no-plot --allow-different test_spin_ns -o "$T/rep" "$f" "$f2" >"$T/rep.out" 2>&1
ok $? "report of the two runs" "$T/rep.out"
v=$(sed -n '/^Verdict:/,/^$/p' "$T/rep/report.txt" | tr '\n' ' ' | tr -s ' ')
if echo "$v" | grep -q "pipe rtt: cpus .*slower"; then
	check "report.txt: where the change went, the reader's spin named, the event said" \
		python3 - "$T/rep/report.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
sec = t[t.index("Where the change went:\n"):]
assert re.search(r"pipe cpus, reader: \+[0-9.]+ µs ± [0-9.]+ (ns|µs) per op \(.*"
                 r"(cpu-clock|cycles)\)", sec.replace("\n  ", " ")), sec[:400]
rows = [l.split() for l in sec.splitlines() if l.startswith("    ")]
assert any(r[0] in ("spin_until", "pb_test_spin_ns") and r[r.index("→") + 3][0] == "+"
           for r in rows), rows
sec = sec[:sec.index("\n\n", sec.index("From the profile passes"))]
assert all(len(l) <= 72 for l in sec.splitlines()), [l for l in sec.splitlines() if len(l) > 72]
PY
	svg="$T/rep/flame-pipe-cpus-reader.svg"
	grep -q "; \[flame graph\](flame-pipe-cpus-reader.svg)" "$T/rep/report.md"
	ok $? "report.md links the reader's flame graph" "$T/rep/report.md"
	grep -qF ", 2 flame graphs ($T/rep/flame-*.svg)" "$T/rep.out"
	ok $? "report names the flame graphs it wrote" "$T/rep.out"
	check "the flame graph is well-formed SVG, its spin frame red" \
		python3 - "$svg" <<'PY'
import re, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
assert root.get("width") == "1200", root.attrib
frames = {g.find(ns + "title").text: g.find(ns + "rect") for g in root.iter(ns + "g")}
spin = [(t, r) for t, r in frames.items()
        if re.search(r"(^|;)(spin_until|pb_test_spin_ns)$", t.split("\n")[0])]
assert spin, sorted(frames)[:20]
# the one whose own time grew most (a frame is coloured by its own time:
# pb_test_spin_ns, when a build keeps its frame, holds the spin only
# inclusively; the spin can also end a stack or two of a few samples)
own = lambda t: float(re.search(r"\(([+-][0-9.]+)\)$", t).group(1))
t, rect = max(spin, key=lambda x: own(x[0]))
r, g, b = map(int, re.match(r"rgb\((\d+),(\d+),(\d+)\)", rect.get("fill")).groups())
assert r == 255 and g < 128 and g == b, (rect.get("fill"), t)
PY
else
	skip "the spin's change was not significant here ($v): no section to check"
	skip "nor the flame graph's link"
	skip "nor the flame graphs named"
	skip "nor its SVG"
fi

# ---- without it: nothing changes ----
"$PB" bench pipe cpus=$C0,$C1 --repeats 1 --duration 0.1 --warmup 0 -o "$T/res" \
	>"$T/out3" 2>"$T/why"
f3=$(result_of "$T/out3")
pyjson "$f3" '"profile" not in d["jobs"][0] and "profile" not in d["jobs"][0]["params"]' \
	>"$T/py" 2>&1
ok $? "a job without profile= has no profile and no profile param" "$T/py"
! grep -q "^profile " "$T/out3"
ok $? "and says nothing of one" "$T/out3"
"$PB" bench pipe --dry-run --repeats 2 --duration 1 >"$T/plan0" 2>&1
"$PB" bench pipe --dry-run --repeats 2 --duration 1 --profile >"$T/plan1" 2>&1
check "--dry-run plans the profile pass: more time, and says so" \
	python3 - "$T/plan0" "$T/plan1" <<'PY'
import re, sys
p0, p1 = (open(f).read() for f in sys.argv[1:3])
s0, s1 = (int(re.search(r"planned wall time: (\d+) s", p).group(1)) for p in (p0, p1))
assert s1 > s0 and "the profile pass" in p1 and "the profile pass" not in p0, (s0, s1)
PY
exits2 "profile=maybe is a job error" "profile" \
	"$PB" bench pipe profile=maybe --repeats 1 --duration 0.1 -o "$T/res"

done_testing
