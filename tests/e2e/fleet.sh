#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# fleet.sh - many hosts, one view: compare --by-class over a tree of
# generated results from two host classes (three hosts of one CPU model and
# topology whose new kernel is 5 % slower, one host of another whose kernel
# did not change): one comparison per class, no class in another's tables,
# and the fleet summary listing per class the cells that regressed.
. "$(dirname "$0")/lib.sh"
need_pinbench
genresults
X="--cpu-model Xeon-Gold-6230 --topology 2:40:80"
Y="--cpu-model EPYC-7763 --topology 1:64:128"
s=1
for h in a1 a2 a3; do
	mkdir -p "$T/fleet/$h"
	# shellcheck disable=SC2086
	$G -o "$T/fleet/$h/6.1.json" --seed $s --label 6.1 --host $h $X --repeats 6 &&
	$G -o "$T/fleet/$h/6.2.json" --seed $((s + 1)) --label 6.2 --host $h $X --repeats 6 \
		--shift 5
	s=$((s + 2))
done
mkdir -p "$T/fleet/b1"
# shellcheck disable=SC2086
$G -o "$T/fleet/b1/6.1.json" --seed 11 --label 6.1 --host b1 $Y --repeats 6 &&
$G -o "$T/fleet/b1/6.2.json" --seed 12 --label 6.2 --host b1 $Y --repeats 6
ok $? "two host classes of generated results"

"$PB" compare --by-class "$T/fleet" >"$T/out" 2>"$T/err"
ok $? "compare --by-class exits 0" "$T/err"
WHY=$T/out
awk '/^=== host class/ { n++ } END { exit n != 2 }' "$T/out"
ok $? "one comparison per host class"
grep -q '^=== host class 1 of 2: Xeon-Gold-6230; 2 packages, 40 cores, 80 PUs' "$T/out" &&
	grep -q '^    hosts: a1, a2, a3$' "$T/out" &&
	grep -q '^=== host class 2 of 2: EPYC-7763; 1 package, 64 cores, 128 PUs' "$T/out" &&
	grep -q '^    hosts: b1$' "$T/out"
ok $? "each class named by CPU model and topology, with its hosts"
sed -n '/^=== host class 1/,/^=== host class 2/p' "$T/out" | grep -q '^pinbench compare: 6 result files, 2 labels' &&
	sed -n '/^=== host class 2/,/^fleet summary/p' "$T/out" | grep -q '^pinbench compare: 2 result files, 2 labels' &&
	! grep -q 'different CPU models' "$T/out"
ok $? "no table mixes the classes: 6 files in one, 2 in the other, no CPU-model warning"
sed -n '/^fleet summary/,$p' "$T/out" >"$T/sum"
WHY=$T/sum
grep -q '^fleet summary: 2 host classes, 1 with regressions (2 cells):$' "$T/sum"
ok $? "the fleet summary counts the classes and cells that regressed"
grep -q '^Xeon-Gold-6230; .*: 2 regressed$' "$T/sum" &&
	grep -q '^    pingpong (same-cpu): 6.2 +[45]\.[0-9]* % \[+[0-9.]*, +[0-9.]*\], q[ =<].* against 6.1$' "$T/sum" &&
	grep -q '^    pingpong (same-core): 6.2 +' "$T/sum" &&
	! grep -q '^    stream' "$T/sum"
ok $? "the slower class lists its regressed cells (rtt up), not the faster throughput"
grep -q '^EPYC-7763; .*: no regression$' "$T/sum" && grep -q '^    hosts: b1 (2 files)$' "$T/sum"
ok $? "the unchanged class: no regression"

"$PB" compare --by-class --fail-on-regression "$T/fleet" >/dev/null 2>&1
[ $? = 1 ]
ok $? "--fail-on-regression: exit 1 when any class regressed"
"$PB" compare --by-class --fail-on-regression "$T/fleet/b1" >"$T/one" 2>&1
[ $? = 0 ] && grep -q '^fleet summary: 1 host class, 0 with regressions (0 cells):$' "$T/one"
ok $? "one class without a regression: exit 0" "$T/one"
"$PB" compare --by-class --format markdown "$T/fleet" >"$T/md" 2>&1
[ $? = 0 ] && grep -q '^## host class 1 of 2: Xeon' "$T/md" && grep -q '^## fleet summary' "$T/md" &&
	grep -q '^- \*\*EPYC-7763; .*\*\*: no regression$' "$T/md"
ok $? "--format markdown" "$T/md"
"$PB" compare --by-class --baseline 5.0 "$T/fleet" >"$T/nb" 2>&1
[ $? = 0 ] && grep -q ': not compared: no results grouped as 5.0$' "$T/nb"
ok $? "a class without the --baseline label is said, not compared" "$T/nb"
exits2 "--by-class with --format json" "writes text or markdown" \
	"$PB" compare --by-class --format json "$T/fleet"
"$PB" compare --group-by class "$T/fleet" >"$T/gc" 2>&1
[ $? = 0 ] && grep -q '^Xeon-Gold-6230; 2 packages' "$T/gc" && grep -q '^EPYC-7763; 1 package' "$T/gc"
ok $? "--group-by class: a row per host class" "$T/gc"
done_testing
