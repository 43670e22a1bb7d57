#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End to end: rounds= and --rounds/--seed: the job file run N times, each
# round's order shuffled with a recorded seed; compare takes the rounds as
# its units.
. "$(dirname "$0")/lib.sh"

cat >"$T/r.ini" <<'INI'
[global]
bench=pipe
repeats=2
duration=0.2
warmup=0
events=none

[a]
placement=same-cpu,same-socket

[b]
size=64
placement=same-cpu
rounds=1
INI

$PB run -v -o "$T/res" --label L --rounds 3 --seed 42 "$T/r.ini" >"$T/r1.out" 2>&1
ok $(ran $?) "--rounds 3 --seed 42 runs and exits 0 (or 3)"
J1=$(result_of "$T/r1.out")
check "rounds 3 and seed 42 are recorded" pyjson "$J1" 'd["rounds"] == 3 and d["seed"] == 42'
check "a runs in rounds 1..3 at each placement; b (rounds=1 in its section, --rounds overriding) too" \
	pyjson "$J1" 'sorted((j["name"], j["placement"], j["round"]) for j in d["jobs"]) == sorted((n, p, r) for r in (1, 2, 3) for (n, p) in (("a", "same-cpu"), ("a", "same-socket"), ("b", "same-cpu")))'
check "jobs_planned counts every round" pyjson "$J1" 'd["jobs_planned"] == 9 and len(d["jobs"]) == 9'
check "rounds run in order: every job of round 1 before round 2" pyjson "$J1" \
	'[j["round"] for j in d["jobs"]] == sorted(j["round"] for j in d["jobs"])'
# a round a loaded machine failed is not counted: N/3 with N the ok rounds in the file
okr=$(python3 -c 'import json, sys; print(sum(1 for j in json.load(open(sys.argv[1]))["jobs"]
	if j["name"] == "a" and j["placement"] == "same-socket" and
	j["status"] in ("ok", "interrupted") and (j.get("summary") or {}).get("n")))' "$J1")
check "the text shows each round and the between-rounds summary (a same-socket $okr/3)" \
	sh -c "grep -q '^round 2 of 3' '$T/r1.out' && grep -q '^between rounds' '$T/r1.out' && grep -Eq '^a +same-socket +$okr/3' '$T/r1.out'"

# the order is the seed's: --dry-run prints it, and the run followed it
$PB run --dry-run --rounds 3 --seed 42 "$T/r.ini" >"$T/plan42.out" 2>&1
check "the run followed the order --dry-run prints for its seed" python3 - "$J1" "$T/plan42.out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
plan = [l.split(":", 1)[1].split() for l in open(sys.argv[2]) if l.startswith("  round ")]
ran = [[j["name"] + "/" + j["placement"] for j in d["jobs"] if j["round"] == r] for r in (1, 2, 3)]
assert plan == ran, (plan, ran)
PY
$PB run --dry-run --rounds 3 --seed 42 "$T/r.ini" >"$T/plan42b.out" 2>&1
check "the same seed, the same order" cmp "$T/plan42.out" "$T/plan42b.out"
# 3 cells: 6 orders a round; over 20 seeds, round 1 takes several of them
for s in $(seq 1 20); do
	$PB run --dry-run --rounds 3 --seed $s "$T/r.ini" | grep '^  round 1:'
done | sort -u >"$T/firsts"
check "other seeds shuffle otherwise (at least 4 of the 6 orders of round 1 in 20 seeds)" \
	test "$(wc -l <"$T/firsts")" -ge 4

# a job with fewer rounds takes part in the first ones only
sed 's/^rounds=1$/rounds=2/' "$T/r.ini" | sed '/^events=none/a rounds=1' >"$T/r4.ini"
printf '[c]\nsize=8\nplacement=same-cpu\nrounds=3\n' >>"$T/r4.ini"
$PB run -o "$T/res4" --label L --seed 9 "$T/r4.ini" >"$T/r4.out" 2>&1
J4=$(result_of "$T/r4.out")
check "rounds= per job: a 1, b 2, c 3 rounds; the run has 3" pyjson "$J4" \
	'd["rounds"] == 3 and sorted((j["name"], j["round"]) for j in d["jobs"]) == [("a", 1), ("a", 1), ("b", 1), ("b", 2), ("c", 1), ("c", 2), ("c", 3)]'

# one round: file order, no shuffle, round 1 and seed null
$PB run -o "$T/res5" --label L "$T/r.ini" >"$T/r5.out" 2>&1
check "without -v: the summary alone, with what each cell resolves over its rounds" sh -c \
	"! grep -q '^round 2 of 3' '$T/r4.out' && ! grep -q '^between rounds' '$T/r4.out' &&
	 grep -Eq '^c +same-cpu +[0-9.]+ .* 3/3 rounds +±[0-9.]+%' '$T/r4.out'"
J5=$(result_of "$T/r5.out")
check "one round keeps the file order, seed null" pyjson "$J5" \
	'd["rounds"] == 1 and d["seed"] is None and [(j["name"], j["placement"], j["round"]) for j in d["jobs"]] == [("a", "same-cpu", 1), ("a", "same-socket", 1), ("b", "same-cpu", 1)]'

# compare: two labels of 3 rounds each are tested on the rounds
$PB run -o "$T/res" --label M --rounds 3 --seed 43 "$T/r.ini" >"$T/r6.out" 2>&1
$PB compare --baseline L "$T/res/L" "$T/res/M" >"$T/cmp.out" 2>&1
ok $? "compare of two 3-round runs exits 0"
# The note when every cell has two ok runs a side or more (a round a loaded
# machine failed is not a run); Run 1..3 columns, or the compact "runs"
# column when a long Change text (inconclusive, not judged) leaves no room.
twoplus=$(python3 -c 'import glob, json, sys
c = {}
for f in glob.glob(sys.argv[1] + "/*/*.json"):
    r = json.load(open(f))
    for j in r["jobs"]:
        k = (r["label"], j["name"], j["placement"])
        c[k] = c.get(k, 0) + (j["status"] == "ok")
print(int(all(v >= 2 for v in c.values())))' "$T/res")
{ [ "$twoplus" = 0 ] || grep -q 'Tested on runs' "$T/cmp.out"; } &&
	{ grep -q 'Run 3' "$T/cmp.out" || grep -Eq ' runs +Average' "$T/cmp.out"; } &&
	! grep -q 'Run 4' "$T/cmp.out"
ok $? "compare tests on the runs: Run 1..3 (or runs) columns and the note" "$T/cmp.out"
$PB compare --format json --baseline L "$T/res/L" "$T/res/M" >"$T/cmp.json" 2>&1
# runs: the rounds whose job ended ok (3 on a quiet machine; a round a
# loaded one failed is not a run), each row printed when the check fails
check "compare json: runs as the files have them (3 rounds), tested on runs, a change interval around the change" \
	python3 - "$T/cmp.json" "$T/res" <<'PY'
import glob, json, sys
d = json.load(open(sys.argv[1]))
ok_runs = {}
for f in glob.glob(sys.argv[2] + "/*/*.json"):
    r = json.load(open(f))
    for j in r["jobs"]:
        if j["status"] == "ok":
            k = (r["label"], j["name"], j["placement"])
            ok_runs[k] = ok_runs.get(k, 0) + 1
good = True
for r in d["results"]:
    want = ok_runs.get((r["label"], r["job"], r["placement"]), 0)
    ci = r["change_ci95"]
    table = [ok_runs.get((lab, r["job"], r["placement"]), 0) for lab in ("L", "M")]
    tested = "runs" if min(table) >= 2 else r["tested"]
    row_ok = (r["status"] != "ok" or (r["runs"] == want and r["tested"] == tested)) and \
        (r["label"] != "M" or ci is None or ci[1] is None or ci[0] <= r["change"] <= ci[1])
    if not row_ok:
        good = False
    print("ok " if row_ok else "BAD", r["label"], r["job"], r["placement"], r["status"], "runs",
          r["runs"], "of", want, r["tested"], r["change"], ci)
print("rounds run:", sorted(ok_runs.items()))
sys.exit(0 if good else 1)
PY

# errors: exit 2 with the problem named
$PB run --seed x "$T/r.ini" >"$T/e1.out" 2>&1
check "--seed x: exit 2 naming it" sh -c "test $? -eq 2 && grep -q \"seed 'x'\" '$T/e1.out'"
printf '[global]\nbench=pipe\nrounds=0\n[a]\n' >"$T/bad.ini"
$PB run "$T/bad.ini" >"$T/e2.out" 2>&1
check "rounds=0: exit 2 naming FILE:LINE" sh -c "test $? -eq 2 && grep -q 'bad.ini:3' '$T/e2.out'"
$PB run --dry-run --rounds 4 "$T/r.ini" >"$T/dry.out" 2>&1
check "--dry-run shows the rounds" grep -q '4 rounds (shuffled)' "$T/dry.out"

done_testing
