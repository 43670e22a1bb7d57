#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# End to end: run --until PCT[,BUDGET]: rounds added until every cell's
# interval is within PCT (a generous one stops at the rule's minimum), or
# the budget is spent (an impossible one); the rule and each cell's
# outcome in the result file and the text; the refusals; --dry-run.
. "$(dirname "$0")/lib.sh"
need_pinbench

JOB="pipe placement=same-cpu --duration 0.05 --warmup 0 --repeats 2 --events none"

# shellcheck disable=SC2086
$PB bench $JOB --until 90,5m -o "$T/res" --label U >"$T/g.out" 2>&1
ok $(ran $?) "--until 90: runs and exits 0 (or 3: an untrusted figure)"
G=$(result_of "$T/g.out")
check "a generous target: reached after the rule's 5 rounds, whole and numbered" pyjson "$G" \
	'd["rounds"] == 5 and [j["round"] for j in d["jobs"]] == [1, 2, 3, 4, 5] and d["seed"] is not None'
check "the rule is recorded: target, budget, minimum, interval, rounds planned and added" \
	pyjson "$G" '(u := d["until"]) and (u["target_pct"], u["budget_s"], u["min_runs"], u["interval_level"], u["planned_rounds"], u["added_rounds"], u["end"]) == (90, 300, 5, 0.975, 1, 4, "reached") and u["wall_s"] > 0'
check "the cell reached it, with its runs and half-width" pyjson "$G" \
	'[(c["job"], c["placement"], c["runs"], c["reached"], c["why"]) for c in d["until"]["cells"]] == [("pipe", "same-cpu", 5, True, None)] and 0 < d["until"]["cells"][0]["halfwidth_pct"] <= 90'
check "the text says it, one line a cell" grep -Eq \
	'^  pipe same-cpu: reached \+-[0-9]+\.[0-9] % after 5 rounds$' "$T/g.out"
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	check "the result file is valid against its schema" /usr/bin/python3 tests/e2e/schemas.py "$G"
else
	skip "no python3-jsonschema"
fi

# an impossible target: the budget ends it; not reaching it is no error
# shellcheck disable=SC2086
$PB bench $JOB --until 0.0001,3 -o "$T/res" --label U >"$T/b.out" 2>&1
ok $(ran $?) "--until 0.0001,3: stops on the budget and exits 0 (or 3)"
B=$(result_of "$T/b.out")
check "the budget ended it: not reached, why budget, within it (2 s slack: a loaded host)" pyjson "$B" \
	'(u := d["until"]) and u["end"] == "budget" and d["seed"] is not None and u["budget_s"] == 3 and u["wall_s"] <= 5 and [(c["reached"], c["why"]) for c in u["cells"]] == [(False, "budget")] and d["rounds"] == u["planned_rounds"] + u["added_rounds"] == len(d["jobs"])'
check "the text says not reached, and why" grep -Eq \
	'^  pipe same-cpu: not reached, \+-[0-9.]+ % after [0-9]+ rounds?: the budget was spent$' \
	"$T/b.out"

# without --until: no until field
# shellcheck disable=SC2086
$PB bench $JOB -o "$T/res" --label U >"$T/n.out" 2>&1
check "without --until the result has no until" pyjson "$(result_of "$T/n.out")" \
	'"until" not in d and d["rounds"] == 1'

# refusals: exit 2 naming the option
for bad in 0 100 nan 1e309 -2 2,xyz 2,0 2,10x 2, ,10m; do
	$PB bench pipe --until "$bad" --dry-run >"$T/e.out" 2>&1
	rc=$?
	[ $rc = 2 ] && grep -q -- "--until '$bad'" "$T/e.out"
	ok $? "--until '$bad' is refused: exit 2 naming --until (exit $rc)" "$T/e.out"
done
$PB run --until 101 configs/quick.ini --dry-run >"$T/e.out" 2>&1
check "run refuses it too" sh -c "test $? -eq 2 && grep -q 'PCT' '$T/e.out'"

# --dry-run prints the rule
$PB bench pipe --until 2,10m --dry-run >"$T/d.out" 2>&1
check "--dry-run prints the rule, its target and budget" grep -q \
	'^until: .* to +-2 % (95 %: a 97.5 % t interval, at least 5 rounds), .* 10 min 00 s after the start$' \
	"$T/d.out"
$PB bench pipe --until 2,1h --dry-run >"$T/d.out" 2>&1
check "budgets in hours" grep -q '1 h 00 min after the start$' "$T/d.out"
$PB bench pipe --until 2 --dry-run >"$T/d.out" 2>&1
check "the default budget is 30 minutes" grep -q '30 min 00 s after the start$' "$T/d.out"

done_testing
