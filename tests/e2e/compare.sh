#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# pinbench compare on result files made by tests/tools/genresults.c (the
# same fixtures as tests/unit/report/test_compare.c): golden text, markdown and csv,
# version order, line width, exit codes.  One TAP line per check.
. "$(dirname "$0")/lib.sh"
need_pinbench
genresults
mkdir "$T/g"
$G -o "$T/g/f1.json" --derived --label 2.6.29 --seed 11 &&
$G -o "$T/g/f2.json" --derived --label 2.6.30-rc2 --seed 12 --repeats 2 --shift 3 \
	--ctx-shift -20 --anomaly noisy:stream:same-cpu &&
$G -o "$T/g/f3.json" --derived --label 2.6.30-rc2 --seed 13 --repeats 2 --shift 3 \
	--ctx-shift -20 &&
$G -o "$T/g/f4.json" --derived --label 2.6.30 --seed 14 --repeats 4 --shift -2 \
	--drop stream:same-core --skip pingpong:same-core &&
$G -o "$T/g/f5.json" --label 2.6.22 --seed 15
ok $? "fixtures generated"

for f in text:txt markdown:md csv:csv; do
	fmt=${f%%:*}
	ext=${f#*:}
	$PB compare --format "$fmt" --baseline 2.6.29 "$T/g" >"$T/out.$ext" 2>"$T/err"
	ok $? "compare --format $fmt exits 0"
	diff -u "tests/golden/compare-$fmt.$ext" "$T/out.$ext" >"$T/diff"
	rc=$?
	[ $rc = 0 ] || comment "$T/diff" 30
	ok $rc "compare --format $fmt matches tests/golden/compare-$fmt.$ext"
done

# Characters, not bytes: drop UTF-8 continuation bytes before counting.
LC_ALL=C sed 's/[\x80-\xbf]//g' "$T/out.txt" |
	awk '{ n = length($0); if (n > 100) { print "# " n ": " $0; bad = 1 } } END { exit bad }'

ok $? "text lines at most 100 characters"

# Rows in version order whatever the order of the files on the line.
$PB compare "$T/g/f4.json" "$T/g/f5.json" "$T/g/f1.json" "$T/g/f2.json" >"$T/o" 2>&1
rows=$(sed -n '/same-cpu/,/^$/p' "$T/o" | awk 'NR > 2 && NF { print $1 }' | head -n 4 |
	tr '\n' ' ')
[ "$rows" = "2.6.22 2.6.29 2.6.30-rc2 2.6.30 " ]
ok $? "rows in version order (got: $rows)"
$PB compare --order given "$T/g/f4.json" "$T/g/f5.json" >"$T/o" 2>&1
rows=$(sed -n '/same-cpu/,/^$/p' "$T/o" | awk 'NR > 2 && NF { print $1 }' | head -n 2 |
	tr '\n' ' ')
[ "$rows" = "2.6.30 2.6.22 " ]
ok $? "--order given keeps the order of the files (got: $rows)"

# Exit codes.  A regression counts when each side has two boots or more
# (a file of the generator is a boot of its own); within one boot a side
# it is "changed within its boot", which never fails.
mkdir "$T/b"
for s in 31 32 33; do
	$G -o "$T/b/a$s.json" --label 3.0 --seed $s &&
		$G -o "$T/b/b$s.json" --label 3.1 --seed $((s + 10)) --shift 5 || break
done
ok $? "three boots a side generated"
$PB compare --fail-on-regression "$T/b" >"$T/o" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "regression (boot level), resolves ±" "$T/o"
ok $? "--fail-on-regression exits 1 on a regression at the boot level (exit $rc)"
$PB compare --baseline 2.6.29 --fail-on-regression "$T/g" >"$T/o" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "changed within its boot" "$T/o" &&
	grep -q "within one boot a side;" "$T/o" &&
	grep -q "^  holds if boots vary by less than" "$T/o" &&
	! grep -q " regression" "$T/o"
ok $? "--fail-on-regression exits 0 on a change within one boot a side (exit $rc)"
$PB compare --fail-on-regression "$T/g/f1.json" "$T/g/f1.json" >/dev/null 2>&1
ok $? "--fail-on-regression exits 0 without one"
$G -o "$T/wrong.json" --schema other/1
$PB compare "$T/wrong.json" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 2 ] && grep -q "wrong.json" "$T/err"
ok $? "a file with another schema: exit 2 naming the file (exit $rc)"
$PB compare "$T/nonexistent.json" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 2 ] && grep -q "nonexistent.json" "$T/err"
ok $? "a missing file: exit 2 naming the file (exit $rc)"
$PB compare --baseline 9.9 "$T/g" >/dev/null 2>&1
ok $([ $? = 2 ]; echo $?) "an unknown baseline: exit 2"
$PB compare --format json "$T/b" >"$T/o.json" 2>&1 &&
	grep -q '"significant": true' "$T/o.json" && grep -q '"verdict": "regression"' "$T/o.json"
ok $? "--format json has significant and verdict"
check "--format json: the level and the resolution of each tested cell" \
	pyjson "$T/o.json" 'all(r["verdict_level"] == "boot" and r["tested_unit"] == "boot" and
		r["levels"]["boots"] == 3 and r["resolves"] > 0 for r in d["results"]
		if r["change"] is not None)'
$PB compare --format json --baseline 2.6.29 "$T/g" >"$T/o.json" 2>&1
check "--format json: one boot a side is within-boot, with its tipping point" \
	pyjson "$T/o.json" 'any(r["verdict_level"] == "within-boot" and (r["tipping_cv"] or 0) > 0 and
		r["verdict"] == "regression-within-boot" for r in d["results"])'
$PB compare --format csv "$T/b" >"$T/o.csv" 2>&1
check "--format csv: the level and outcome columns at the end" \
	grep -q ',test,tested_unit,verdict_level,boots,invocations,tipping_cv,resolves,within_boot,outcome,not_judged$' \
	"$T/o.csv"

# One file counts once: the same file twice, two folders linked to each
# other (symlinked folders are not walked): n stays the files' own.
mkdir "$T/x" "$T/y"
$G -o "$T/x/r.json" --label 3.0 --seed 21 --repeats 2 &&
	$G -o "$T/y/r.json" --label 3.1 --seed 22 --repeats 2 --shift 2 &&
	ln -s ../y "$T/x/to-y" && ln -s ../x "$T/y/to-x"
ok $? "two folders linked to each other"
$PB compare --format json "$T/x" "$T/y" >"$T/o.json" 2>"$T/err"
ok $? "compare of linked folders exits 0"
check "linked folders: every cell n=2, not one per path" \
	pyjson "$T/o.json" 'all(r["n"] == 2 for r in d["results"] if r["status"] == "ok")'
$PB compare "$T/x" "$T/y" 2>&1 | head -n 1 >"$T/o"
check "linked folders: 2 result files" grep -q "compare: 2 result files" "$T/o"
$PB compare --format json "$T/x/r.json" "$T/x/r.json" "$T/y/to-x/r.json" >"$T/o.json" 2>&1
check "a file named three times counts once" \
	pyjson "$T/o.json" 'all(r["n"] == 2 for r in d["results"] if r["status"] == "ok")'

# Unusable files in a folder: skipped with a warning naming each; named
# on the line, an error.  A FIFO never blocks.
mkdir "$T/u"
cp "$T/x/r.json" "$T/u/good.json"
head -c 300 "$T/x/r.json" >"$T/u/trunc.json"
mkfifo "$T/u/fifo.json"
timeout 20 $PB compare "$T/u" >"$T/o" 2>"$T/err"
rc=$?
WHY=$T/err
ok $rc "a folder with a truncated file and a FIFO: exit 0 (exit $rc)"
check "the truncated file is skipped with a warning" \
	grep -q "^pinbench compare: skipping $T/u/trunc.json: cannot read" "$T/err"
check "the FIFO is skipped with a warning" \
	grep -q "^pinbench compare: skipping $T/u/fifo.json: not a regular file (a FIFO)" "$T/err"
check "the good file is compared" grep -q "compare: 1 result file," "$T/o"
WHY=
exits2 "a truncated file named on the line" "trunc.json: cannot read" \
	$PB compare "$T/u/trunc.json"
exits2 "a FIFO named on the line" "fifo.json: not a regular file" \
	timeout 20 $PB compare "$T/u/fifo.json"
exits2 "plot: a FIFO named on the line" "fifo.json: not a regular file" \
	timeout 20 $PB plot "$T/u/fifo.json" -o "$T/p.png"
# an empty folder: nothing to sort (make check SANITIZE=1 stopped on a
# qsort of its NULL list)
mkdir "$T/empty"
exits2 "an empty folder: no result files found" "no result files found" \
	$PB compare "$T/empty"

# Results made with different workload keys measure different things:
# refused (exit 2) naming the job, the key, both values and labels, unless
# --allow-different names the key.  How long it ran may differ.
mkdir "$T/keys"
python3 - "$T/g/f1.json" "$T/g/f5.json" "$T/keys" <<'PY'
import json, sys
for i, (src, size, reps) in enumerate([(sys.argv[1], "1", "4"), (sys.argv[2], "64", "9")]):
    d = json.load(open(src))
    for j in d["jobs"]:
        j["params"]["size"] = size
        j["params"]["repeats"] = reps
    json.dump(d, open("%s/k%d.json" % (sys.argv[3], i), "w"))
    for j in d["jobs"]:
        j["params"]["size"] = "1"
    json.dump(d, open("%s/r%d.json" % (sys.argv[3], i), "w"))
PY
exits2 "different workload keys: refused, naming the key, values and labels" \
	"the results were made with different keys, size: 1 (2.6.29) vs 64 (2.6.22): compare like with like, or --allow-different size" \
	$PB compare "$T/keys/k0.json" "$T/keys/k1.json"
check "--allow-different size: compared" $PB compare --allow-different pattern,size \
	"$T/keys/k0.json" "$T/keys/k1.json"
check "only repeats differ: compared" $PB compare "$T/keys/r0.json" "$T/keys/r1.json"

# A key one result does not record (made before the key existed) ran as its
# default: the same as the default, different from anything else, in either
# order.
python3 - "$T/keys/r0.json" "$T/keys/r1.json" "$T/keys" <<'PY'
import json, sys
for name, src, extra in (("old", sys.argv[1], {}),
                         ("def", sys.argv[2], {"tasks": "processes", "estimator": "mean",
                                               "warmup": "1.0"}),
                         ("thr", sys.argv[2], {"tasks": "threads"}),
                         ("med", sys.argv[2], {"estimator": "median"})):
    d = json.load(open(src))
    for j in d["jobs"]:
        for k in ("tasks", "estimator"):
            j["params"].pop(k, None)
        j["params"].update(extra)
    json.dump(d, open("%s/%s.json" % (sys.argv[3], name), "w"))
PY
check "absent vs the defaults (tasks=processes, estimator=mean): compared" \
	$PB compare "$T/keys/old.json" "$T/keys/def.json"
check "the defaults vs absent, the other order: compared" \
	$PB compare "$T/keys/def.json" "$T/keys/old.json"
exits2 "absent vs tasks=threads: refused" \
	"tasks: absent (2.6.29) vs threads (2.6.22)" $PB compare "$T/keys/old.json" "$T/keys/thr.json"
exits2 "estimator=median vs absent, the new file first: refused" \
	"estimator: median (2.6.22) vs absent (2.6.29)" \
	$PB compare "$T/keys/med.json" "$T/keys/old.json"

done_testing
