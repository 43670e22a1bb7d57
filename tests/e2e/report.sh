#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# pinbench report BASELINE NEW: the changelog files from result files made
# by tests/tools/genresults.c: the header, the compact table, the verdict
# lines, report.md's sections, report.txt within 72 columns, the plot, A/A
# with one label, errors.  tests/unit/report/test_report.c holds both files
# to golden copies.
. "$(dirname "$0")/lib.sh"
need_pinbench
genresults
mkdir -p "$T/base" "$T/new" "$T/same"
for i in 1 2 3; do
	$G -o "$T/base/b$i.json" --derived --label 6.1 --seed $((20 + i)) --cv 0.5 &&
	$G -o "$T/new/n$i.json" --derived --label 6.2 --seed $((30 + i)) --cv 0.5 --shift 4 \
		--anomaly noisy:stream:same-cpu &&
	$G -o "$T/same/s$i.json" --label 6.1 --seed $((40 + i)) --cv 0.5
done
ok $? "fixtures generated: 3 runs a side, +4 % on the new side"

$PB report -o "$T/r" "$T/base" "$T/new" >"$T/out" 2>"$T/err"
rc=$?
WHY=$T/err
ok $rc "report exits 0"
check "report.md, report.txt written" test -s "$T/r/report.md" -a -s "$T/r/report.txt"
check "stdout is report.txt" cmp "$T/out" "$T/r/report.txt"
check "the verdict names each job and its slower placements, with interval and q" \
	grep -Eq '^  pingpong rtt: same-cpu \+[0-9.]+ % \[\+[0-9.]+, \+[0-9.]+\], q( < |=)[0-9.]+, slower' "$T/out"
check "a stream (higher is better) drop of 4 % is slower too" \
	grep -Eq '^  stream throughput: same-cpu \+[0-9.]+ %.*faster' "$T/out"
check "report.txt: no line over 72 columns" \
	sh -c "! awk '{ if (length(\$0) > 72) { print; bad = 1 } } END { exit !bad }' '$T/r/report.txt'"
check "report.txt: the compact table, a row per cell and side, 3 runs each" \
	sh -c "test \$(grep -Ec '^    (base|new) +3 ' '$T/out') -eq 8 &&
	grep -q ' n  *Min  *Mean  *Stddev CoeffVar  *Max Change' '$T/out'"
check "report.txt: the header names each side's kernel, date and machine" sh -c "
	grep -q '^baseline: 6.1' '$T/out' && grep -q '^  kernel: 6.2 ' '$T/out' &&
	grep -q '^  date: ' '$T/out' && grep -q '^  machine: ' '$T/out'"
check "report.txt: no per-op figures" sh -c "! grep -q '/op' '$T/out'"
check "report.txt: the anomaly legend names the kind, where and an example" \
	grep -q '^  V noisy: stream same-cpu: 6.2' "$T/out"
check "report.txt: the command lines to reproduce each side" \
	sh -c "grep -q '^Reproduce:' '$T/out' && grep -q '^    genresults' '$T/out'"
check "report.md: verdict, the compact table, reproduce" sh -c "
	grep -q '^# pinbench: 6.2 against 6.1' '$T/r/report.md' &&
	grep -q '^## Verdict' '$T/r/report.md' && grep -q '^- \*\*pingpong\*\* rtt: ' '$T/r/report.md' &&
	grep -q '^## Results' '$T/r/report.md' &&
	grep -q '^| Placement | Side | n | Min | Mean | Stddev | CoeffVar | Max | Change |' '$T/r/report.md' &&
	grep -q '^## Reproduce' '$T/r/report.md'"
if command -v gnuplot >/dev/null 2>&1; then
	check "the plot as PNG and SVG beside it, linked from report.md" sh -c "
		test -s '$T/r/report.png' && test -s '$T/r/report.svg' &&
		grep -q '(report.png)' '$T/r/report.md'"
else
	skip "gnuplot is not installed: no plot"
fi

# A/A: one label on both sides
$PB report --no-plot -o "$T/aa" "$T/base" "$T/same" >"$T/aa.out" 2>"$T/err"
ok $? "A/A with one label: exits 0"
check "A/A: the new side is named '6.1 (new)' and nothing is significant" sh -c "
	grep -q '^pinbench: 6.1 (new) against 6.1' '$T/aa.out' &&
	! grep -Eq 'slower|faster' '$T/aa.out' && test ! -e '$T/aa/report.png'"

# the default folder name
pb=$(cd "$(dirname "$PB")" && pwd)/$(basename "$PB")
(cd "$T" && "$pb" report --no-plot base new >/dev/null 2>&1)
check "default folder report-NEW-vs-BASELINE" test -s "$T/report-6.2-vs-6.1/report.md"

# errors: exit 2 with the problem named
$PB report "$T/base" >"$T/e1" 2>&1
check "one path: exit 2" sh -c "test $? -eq 2 && grep -q 'want BASELINE and NEW' '$T/e1'"
$PB report "$T/base" "$T/nonexistent" >"$T/e2" 2>&1
check "a missing path: exit 2 naming it" sh -c "test $? -eq 2 && grep -q nonexistent '$T/e2'"
$PB report "$T/base" "$T/base" >"$T/e3" 2>&1
check "the same files both sides: exit 2" sh -c "test $? -eq 2 && grep -q 'same files' '$T/e3'"
$PB report --min-change x "$T/base" "$T/new" >"$T/e4" 2>&1
check "--min-change x: exit 2" sh -c "test $? -eq 2 && grep -q \"min-change\" '$T/e4'"
done_testing
