#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# pinbench plot and nightly on generated result files: PNG and SVG images
# valid and of the size the layout gives, .dat and .gp kept and rerunnable,
# no placeholder text, the forest of changes, the marks (% and rings on
# error anomalies only), --baseline, --group-by class with gnuplot quiet,
# no gnuplot: exit 2; the nightly
# run with a stand-in for `pinbench run` (PINBENCH_RUN_STANDIN): report.md,
# report.png, exit 1 on a regression.  One TAP line per check.
. "$(dirname "$0")/lib.sh"
need_pinbench
genresults
mkdir "$T/r"
$G -o "$T/r/1.json" --label 6.1 --seed 1 --sweep --latency --derived &&
$G -o "$T/r/2.json" --label 6.2 --seed 2 --sweep --latency --derived --shift 4 \
	--anomaly noisy:stream:same-cpu --severity error &&
$G -o "$T/r/3.json" --label 6.3 --seed 3 --sweep --latency --shift -2 \
	--anomaly noisy:pingpong:same-cpu
ok $? "fixtures generated"

# Without gnuplot on PATH: a clear message and exit 2.
PATH=/nonexistent "$PB" plot "$T/r" -o "$T/none.png" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 2 ] && grep -q gnuplot "$T/err"
ok $? "no gnuplot on PATH: exit 2 with a message (exit $rc)"
"$PB" plot "$T/r" -o "$T/x.jpg" >/dev/null 2>&1
ok $([ $? = 2 ]; echo $?) "an output that is neither .png nor .svg: exit 2"

if ! command -v gnuplot >/dev/null 2>&1; then
	for w in "png made" "png signature" "png size" "no placeholder" "dat and gp kept" \
		 "gp reruns" "marks" "baseline" "unknown baseline" "latency then sweep" \
		 "baseline without the sweep" "log axis" "group-by class" "svg made" "svg root element" \
		 "report --noise forest" "nightly" "nightly forest"; do
		skip "$w: gnuplot not installed"
	done
	done_testing
	exit
fi

"$PB" plot "$T/r" -o "$T/out.png" >/dev/null 2>"$T/err"
ok $? "plot -o out.png exits 0"
sig=$(head -c 8 "$T/out.png" | od -An -tx1 | tr -d ' \n')
[ "$sig" = 89504e470d0a1a0a ]
ok $? "out.png has the PNG signature ($sig)"
# IHDR: width and height (big-endian, 4 bytes each from byte 17): two 800 px columns, 500 px a row
# of the layout, 40 for the caption
wh=$(od -An -tu1 -j16 -N8 "$T/out.png" | awk '{print $2*65536+$3*256+$4, $6*65536+$7*256+$8}')
rows=$(sed -n 's/^set multiplot layout \([0-9]*\),2 .*/\1/p' "$T/out.gp")
[ -n "$rows" ] && [ "$wh" = "1600 $((rows * 500 + 40))" ]
ok $? "out.png is 1600 x $((rows * 500 + 40)) ($wh)"
! grep -q 'x\.x' "$T/out.gp" && grep -q "title 'kernels: 6.1, 6.2, 6.3    host: gen-host" \
	"$T/out.gp" && grep -q 'forest.gp' "$T/out.gp" && grep -q 'logy = 0' "$T/out.gp"
ok $? "out.gp: no placeholder, the caption names kernels and host, a forest panel"
[ -s "$T/out.dat" ] && [ -s "$T/out.gp" ] && grep -q 'sweep.gp' "$T/out.gp" &&
	grep -q 'latency.gp' "$T/out.gp" && grep -q 'means.gp' "$T/out.gp"
ok $? "out.dat and out.gp kept beside the image, with means, sweep and latency panels"
# Means 30 times apart with intervals of three noisy runs reaching below 0:
# a log axis all the same (a linear one put the smaller mean on the axis).
mkdir "$T/span" && $G -o "$T/span/1.json" --label a --seed 1 --jobs 1 --placements 2 \
	--spread 30 --cv 90 --repeats 3 && $G -o "$T/span/2.json" --label b --seed 2 --jobs 1 \
	--placements 2 --spread 30 --cv 90 --repeats 3 &&
	"$PB" plot "$T/span" -o "$T/span.png" >/dev/null 2>"$T/err" &&
	grep -q 'logy = 1' "$T/span.gp" && grep -q 'log scale' "$T/span.gp"
ok $? "means 30x apart, an interval reaching 0: the means panel on a log axis"
rm -f "$T/out.png"
(cd "$T" && gnuplot out.gp) 2>"$T/err" && [ -s "$T/out.png" ]
ok $? "gnuplot out.gp remakes the image"
grep -q 'set label "[+-][0-9.]* %"' "$T/out.gp" &&
	[ "$(grep -c 'point pt 6' "$T/out.gp")" = 1 ] && ! grep -q 'e+0' "$T/out.gp"
ok $? "out.gp labels the sweep's changes, rings the error anomaly and not the warning; no 1e+06"
"$PB" plot --baseline 6.2 "$T/r" -o "$T/b.png" >/dev/null 2>"$T/err" &&
	grep -q "against 6.2, 95% CI" "$T/b.gp"
ok $? "plot --baseline 6.2: the changes are against 6.2"
"$PB" plot --baseline 9.9 "$T/r" -o "$T/b9.png" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 2 ] && grep -q "baseline '9.9' not found; have: 6.1 6.2 6.3" "$T/err"
ok $? "plot --baseline 9.9 (not a label): exit 2 naming the labels (exit $rc)"
# A latency panel before a sweep's (tables in first-seen order): the log y
# scale of the one must not carry over to the other.
mkdir "$T/o"
$G -o "$T/o/1.json" --label 6.1 --seed 1 --latency && $G -o "$T/o/2.json" --label 6.1 \
	--seed 2 --sweep && $G -o "$T/o/3.json" --label 6.2 --seed 3 --latency --sweep &&
	"$PB" plot "$T/o" -o "$T/o.png" >/dev/null 2>"$T/err" && [ ! -s "$T/err" ] &&
	[ "$(grep -n 'latency.gp' "$T/o.gp" | cut -d: -f1)" -lt \
	  "$(grep -n 'sweep.gp' "$T/o.gp" | cut -d: -f1)" ]
ok $? "a latency panel then a sweep panel: drawn, gnuplot quiet" "$T/err"
mkdir "$T/nb"
$G -o "$T/nb/1.json" --label 6.1 --seed 1 --sweep && $G -o "$T/nb/2.json" --label 6.2 --seed 2 &&
	"$PB" plot --baseline 6.2 "$T/nb" -o "$T/nb.png" >/dev/null 2>"$T/err" &&
	grep -q "dashed: 6.1''s linear scaling" "$T/nb.gp"
ok $? "--baseline a label without the sweep: the first series' linear line" "$T/err"
# --group-by class: long labels wrapped, not rotated into the next panel; gnuplot quiet
mkdir "$T/cl"
$G -o "$T/cl/1.json" --seed 1 --cpu-model "Intel(R) Xeon(R) Platinum 8280 CPU @ 2.70GHz" \
	--topology 2:56:112 && $G -o "$T/cl/2.json" --seed 2 --topology 2:56:112 \
	--cpu-model "AMD EPYC 7763 64-Core Processor" &&
	"$PB" plot --group-by class "$T/cl" -o "$T/cl.png" >/dev/null 2>"$T/err" &&
	! grep -q 'rotate by' "$T/cl.gp" && ! grep -q ' line [0-9]*: ' "$T/err" && [ -s "$T/cl.png" ]
ok $? "plot --group-by class: labels wrapped, gnuplot quiet" "$T/err"
"$PB" plot "$T/r" -o "$T/out.svg" >/dev/null 2>"$T/err"
ok $? "plot -o out.svg exits 0"
grep -q '^<svg' "$T/out.svg" && grep -q '</svg>' "$T/out.svg"
ok $? "out.svg has an svg root element"

# The figure judged as report.md is: between boots by a noise profile (calibrate
# --from four boots), so a change report.md marks * (not w, within one boot) is
# coloured a regression, not one within one boot.
mkdir "$T/cal" "$T/A" "$T/B"
for k in 1 2 3 4; do
	$G -o "$T/cal/c$k.json" --label 6.1.0-17-amd64 --seed $((k + 40)) --boot c$k || break
done &&
	$G -o "$T/A/a.json" --label 6.1.0-17-amd64 --seed 1 --boot aa &&
	$G -o "$T/B/b.json" --label 6.1.0-18-amd64 --seed 2 --boot bb --shift 5 &&
	"$PB" calibrate --from -o "$T/noise.json" "$T/cal" >/dev/null 2>"$T/err" &&
	"$PB" report --noise "$T/noise.json" -o "$T/rep" "$T/A" "$T/B" >/dev/null 2>"$T/err" &&
	grep -q '^| same-cpu | 6.1.0-18-amd64 |.*% \* |$' "$T/rep/report.md" &&
	! grep -q '% w |$' "$T/rep/report.md" &&
	grep -q '^cats = "1"$' "$T/rep/report.gp" && ! grep -q '^cats = "3"' "$T/rep/report.gp"
ok $? "report --noise: the forest colours the boot-level regression as report.md words it" \
	"$T/rep/report.md"

# nightly, with a stand-in for the run (PINBENCH_RUN_STANDIN DIR LABEL JOBFILE).
cat >"$T/fake-run" <<EOT
#!/bin/sh
mkdir -p "\$1/\$2" && exec "$G" -o "\$1/\$2/\$(date -u +%Y%m%dT%H%M%S%N)-quick.json" \
	--label "\$2" --config configs/quick.ini --seed \$FAKE_SEED --shift \$FAKE_SHIFT
EOT
chmod +x "$T/fake-run"
export PINBENCH_RUN_STANDIN="$T/fake-run"
FAKE_SEED=1 FAKE_SHIFT=0 "$PB" nightly configs/quick.ini --history "$T/h" \
	--label 6.1.0-17-amd64 >"$T/n1" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "no earlier kernel" "$T/n1"
ok $? "nightly on the first kernel: nothing to compare, exit 0 (exit $rc)"
# Three more nights of it (A/A): how much boots vary, so that one night of
# the next kernel can be judged at the boot level.
for s in 11 12 13; do
	FAKE_SEED=$s FAKE_SHIFT=0 "$PB" nightly configs/quick.ini --history "$T/h" \
		--label 6.1.0-17-amd64 --no-plot >/dev/null 2>&1 || break
done
ok $? "three A/A nights of the first kernel"
FAKE_SEED=2 FAKE_SHIFT=5 "$PB" nightly configs/quick.ini --history "$T/h" \
	--label 6.1.0-18-amd64 >"$T/n2" 2>&1
rc=$?
d=$T/h/6.1.0-18-amd64
[ $rc = 1 ] && grep -q "compared with: \*\*6.1.0-17-amd64\*\*" "$d/report.md" &&
	grep -q "regression" "$d/report.md" &&
	grep -Eq "\]\(report-[0-9]{8}T[0-9]{6}Z\.png\)" "$d/report.md"
ok $? "nightly with a 5 % regression: report.md against 6.1.0-17-amd64, exit 1 (exit $rc)"
sig=$(head -c 8 "$d/report.png" | od -An -tx1 | tr -d ' \n')
[ "$sig" = 89504e470d0a1a0a ]
ok $? "nightly report.png is a PNG"
grep -q '^"x" "mean"' "$d/report.dat" && grep -q "6.1.0-18-amd64" "$d/report.dat"
ok $? "nightly: report.png is the cells' history, every night's mean up to tonight's kernel"
FAKE_SEED=3 FAKE_SHIFT=0 "$PB" nightly configs/quick.ini --history "$T/h" \
	--label 6.1.0-19-amd64 --no-plot >"$T/n3" 2>&1
rc=$?
grep -q "compared with: \*\*6.1.0-18-amd64\*\*" "$T/h/6.1.0-19-amd64/report.md"
ok $? "nightly compares with the newest earlier kernel (exit $rc)"

# A truncated result of a newer earlier kernel is said (stderr and
# report.md), not silently passed over for an older one; a symlink loop in
# the history is not walked (the new result is listed once).
mkdir "$T/h/6.1.0-20-amd64"
head -c 200 "$(ls "$T"/h/6.1.0-19-amd64/*.json | head -n 1)" >"$T/h/6.1.0-20-amd64/x-quick.json"
ln -s .. "$T/h/6.1.0-19-amd64/loop"
FAKE_SEED=4 FAKE_SHIFT=0 "$PB" nightly configs/quick.ini --history "$T/h" \
	--label 6.1.0-21-amd64 --no-plot >"$T/n4" 2>"$T/e4"
rc=$?
md=$T/h/6.1.0-21-amd64/report.md
WHY=$T/e4
grep -q "^pinbench nightly: skipping $T/h/6.1.0-20-amd64/x-quick.json: cannot read" "$T/e4"
ok $? "nightly warns about a truncated earlier result, naming it (exit $rc)"
grep -q "skipped.*6.1.0-20-amd64/x-quick.json: cannot read" "$md"
ok $? "report.md lists the skipped file" "$md"
[ "$(grep -c '^- result: ' "$md")" = 1 ]
ok $? "a symlink loop in the history: the new result listed once" "$md"
WHY=

done_testing
