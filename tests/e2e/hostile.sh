#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Result files travel between machines and carry strings from the network
# (a pinbench server's host name): labels, job names, placements and peer
# host names with shell commands in backquotes and terminal escapes must
# reach no shell (through gnuplot) and no terminal raw, in every output.
. "$(dirname "$0")/lib.sh"
need_pinbench
genresults
mkdir "$T/r"
$G -o "$T/a.json" --label 6.1 --seed 1 --latency &&
$G -o "$T/b.json" --label 6.2 --seed 2 --latency --shift 4
ok $? "fixtures generated"

# hostile strings: backquoted commands, ESC, CR, NL, a Markdown pipe
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
evil = "k`touch %s/PWNED`\x1b[31m\r\n|x'\"" % t
for n, f in (("a", "6.1"), ("b", "6.2")):
    d = json.load(open("%s/%s.json" % (t, n)))
    d["label"] = evil + f
    d["host"]["hostname"] = evil
    for j in d["jobs"]:
        j["name"] = "job`touch %s/PWNED`\x1b]0;title\x07" % t
        j["peer"] = {"address": "127.0.0.1:7543", "hostname": evil, "kernel": evil,
                     "cpu_model": evil, "cpu": 0}
        for a in j.get("anomalies", []):
            a["message"] = evil
        # keys are printed too: derived figures' roles and events
        j["derived"] = {evil: {evil: 1.5, "cycles/op": 2.0}}
    json.dump(d, open("%s/r/%s.json" % (t, n), "w"))
    # a workload key only one of them has: the refusal names it
    if n == "a":
        for j in d["jobs"]:
            j["params"][evil] = evil
    json.dump(d, open("%s/k%s.json" % (t, n), "w"))
PY
ok $? "hostile copies written"

clean() {	# clean FILE WHAT: no ESC, CR, BEL in FILE, and nothing ran
	python3 - "$1" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
bad = [c for c in (b"\x1b", b"\r", b"\x07") if c in b]
sys.exit(1 if bad else 0)
PY
	ok $? "$2: no control characters reach the output" "$1"
	check "$2: no command ran" test ! -e "$T/PWNED"
}
for fmt in text markdown csv json; do
	"$PB" compare --format $fmt "$T/r" >"$T/cmp.$fmt" 2>&1
	clean "$T/cmp.$fmt" "compare --format $fmt"
done
check "the hostile derived figures are shown" grep -q "Per op" "$T/cmp.text"
"$PB" compare "$T/ka.json" "$T/kb.json" >"$T/keys.txt" 2>&1
ok "$(test $? = 2; echo $?)" "a key only one result has: refused (exit 2)" "$T/keys.txt"
check "the refusal names the key" grep -q "vs absent" "$T/keys.txt"
clean "$T/keys.txt" "the refusal"
"$PB" compare "$T/kb.json" "$T/ka.json" >"$T/keys2.txt" 2>&1
ok "$(test $? = 2; echo $?)" "the same, the other file first: refused (exit 2)" "$T/keys2.txt"
clean "$T/keys2.txt" "the refusal, the other file first"
"$PB" compare --group-by peer "$T/r" >"$T/peer.txt" 2>&1
clean "$T/peer.txt" "compare --group-by peer"
check "compare json is still JSON" pyjson "$T/cmp.json" 'True'

if command -v gnuplot >/dev/null 2>&1; then
	for ext in png svg; do
		"$PB" plot "$T/r" -o "$T/p.$ext" >"$T/plot.out" 2>&1
		ok $? "plot -o p.$ext exits 0" "$T/plot.out"
		check "plot $ext: no command ran" test ! -e "$T/PWNED"
		clean "$T/p.gp" "plot $ext: the .gp"
		clean "$T/p.dat" "plot $ext: the .dat"
	done
	(cd "$T" && gnuplot p.gp) >/dev/null 2>&1
	check "the kept .gp reruns without running anything" test ! -e "$T/PWNED"
	"$PB" plot --group-by peer "$T/r" -o "$T/q.png" >/dev/null 2>&1
	check "plot --group-by peer: no command ran" test ! -e "$T/PWNED"
else
	skip "plot: gnuplot not installed"
fi
done_testing
