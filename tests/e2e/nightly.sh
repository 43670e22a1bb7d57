#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# pinbench nightly over a history of small result files written here with
# controlled values: A/A runs of one kernel set the noise floor, a step at
# 6.3 is named as the change point, one bad night is not one, and the exit
# codes 0 (no regression), 1 (a regression), 3 (a job failed, with a real
# job whose set-up hangs) and the silence of -q; every night's report kept
# (report-<UTC date-time>.md, report.md the newest), the history plot's
# data (every night, every value, the change point, the band), and A/A
# wording that agrees with itself, in the singular for one.
. "$(dirname "$0")/lib.sh"
need_pinbench

JOB=$T/hist.ini
printf '[global]\nbench=pipe\n\n[pingpong]\npattern=pingpong\n' >"$JOB"

# result FILE LABEL STARTED PINGPONG_US STREAM_MBS [SPREAD]: one run, two
# cells (pingpong same-cpu, lower is better; stream same-cpu, higher is
# better), four repeats each at 1 - 0.002, + 0.002, - 0.001 and + 0.001
# times SPREAD (default 1) of the mean.
result() {
	mkdir -p "$(dirname "$1")"
	awk -v label="$2" -v started="$3" -v pp="$4" -v st="$5" -v k="${6:-1}" -v cfg="$JOB" 'BEGIN {
		printf "{\"schema\": \"pinbench-result/1\", \"label\": \"%s\",\n", label
		printf " \"host\": {\"hostname\": \"h\", \"kernel\": \"%s\"},\n", label
		printf " \"started\": \"%s\", \"config\": \"%s\", \"jobs\": [\n", started, cfg
		job("pingpong", pp, "rtt", "us", "lower"); printf ",\n"
		job("stream", st, "throughput", "MB/s", "higher"); printf "]}\n"
	}
	function job(name, m, metric, unit, better,   f, i) {
		split("-0.002 0.002 -0.001 0.001", f, " ")
		printf "{\"name\": \"%s\", \"bench\": \"pipe\", \"placement\": \"same-cpu\", ", name
		printf "\"status\": \"ok\", \"params\": {\"bench\": \"pipe\"}, "
		printf "\"metric\": {\"name\": \"%s\", \"unit\": \"%s\", ", metric, unit
		printf "\"better\": \"%s\"}, \"repeats\": [", better
		for (i = 1; i <= 4; i++)
			printf "%s{\"value\": %.6f, \"in_summary\": true}", (i > 1 ? ", " : ""), m * (1 + k * f[i])
		printf "], \"summary\": {\"n\": 4, \"mean\": %.6f}}", m
	}' >"$1"
}

# The history: 6.1 three times and 6.2, 6.3, 6.4 twice each (A/A), a
# step of +10 % in rtt at 6.3, one bad night (6.5, +23 %).
H=$T/h
i=0
while read -r label pp st; do
	i=$((i + 1))
	result "$H/$label/2026010${i}T000000-hist.json" "$label" \
		"2026-01-0${i}T00:00:00Z" "$pp" "$st"
done <<EOT
6.1 10.00 1500
6.1 10.10 1502
6.1 9.95 1498
6.2 10.05 1501
6.2 9.98 1499
6.3 11.00 1500
6.3 11.10 1503
6.4 11.05 1497
6.4 10.95 1500
6.5 13.50 1501
EOT

# A stand-in for the run (PINBENCH_RUN_STANDIN DIR LABEL JOBFILE): it files
# $NEXT under DIR/L/ and exits $NEXT_RC.
cat >"$T/fake-run" <<'EOT'
#!/bin/sh
mkdir -p "$1/$2" && cp "$NEXT" "$1/$2/$(date -u +%Y%m%dT%H%M%S%N)-hist.json"
exit "${NEXT_RC:-0}"
EOT
chmod +x "$T/fake-run"

# night LABEL PINGPONG [OPTIONS...]: tonight's run of LABEL, output in $T/out
night() {
	_l=$1
	_v=$2
	shift 2
	result "$T/next.json" "$_l" "2026-02-01T00:00:00Z" "$_v" 1500
	NEXT=$T/next.json PINBENCH_RUN_STANDIN=$T/fake-run "$PB" nightly "$JOB" --history "$H" \
		--label "$_l" --no-plot "$@" >"$T/out" 2>"$T/err"
}

night 6.6 11.00
rc=$?
WHY=$T/out
[ $rc = 0 ]
ok $? "better than the bad night before it: exit 0 (exit $rc)"
grep -q "compared with: \*\*6.5\*\*" "$H/6.6/report.md"
ok $? "report.md compares with the newest earlier kernel" "$H/6.6/report.md"
grep -q "^  pingpong same-cpu (11 runs): 6.3: +10.[0-9] % regression (p 0.0" "$T/out"
ok $? "the text names the step at 6.3: +10 %, a regression"
grep -q "| pingpong | same-cpu | 11 | \*\*6.3\*\*: +10.[0-9] % regression" "$H/6.6/report.md"
ok $? "report.md names the step at 6.3" "$H/6.6/report.md"
[ "$(grep -c "6.5" "$T/out" | tr -d ' ')" -ge 1 ] && ! grep -q "6.5: " "$T/out"
ok $? "the bad night (6.5) is not a change point"
grep -q "^  stream same-cpu (11 runs): no change point" "$T/out"
ok $? "a flat cell: no change point"
grep -q "At most 9 A/A runs of 4 kernels" "$T/out" &&
	grep -q "At most 9 A/A runs of 4 kernels" "$H/6.6/report.md"
ok $? "the floor says how many A/A runs it rests on (text and report.md)"
grep -q "^verdict: no regression" "$T/out"
ok $? "verdict: no regression"
[ -z "$(awk 'length > 100' "$T/out")" ]
ok $? "text lines at most 100 characters"
cp "$T/out" "$T/out-6.6"

night 6.7 12.00
rc=$?
[ $rc = 1 ] && grep -q "^    +9.1 %: regression" "$T/out" &&
	grep -q "^verdict: regression" "$T/out"
ok $? "+9 % against 6.6: a regression, exit 1 (exit $rc)"

night 6.8 12.00 -q
rc=$?
[ $rc = 0 ] && [ ! -s "$T/out" ] && [ ! -s "$T/err" ]
ok $? "-q and no regression: exit 0, nothing printed (exit $rc)"
grep -q "^\*\*Verdict: no regression.\*\*" "$H/6.8/report.md"
ok $? "-q still writes report.md" "$H/6.8/report.md"

# +1.2 %: above --min-change (1 %), but within twice the between-run CV
# the A/A runs show (0.67 %: a floor of 1.3 %); one night a kernel, the
# interval holds that CV as the variation between boots: not significant,
# and its interval reaches beyond what it resolves: inconclusive.
night 6.9 12.144
rc=$?
[ $rc = 0 ] && grep -q "^  pingpong same-cpu: floor 1.3 % = 2 x CV 0.6[0-9] % (9 A/A runs of 4 kernels)" "$T/out" &&
	grep -q "^    +1.2 %: inconclusive (interval \[-1.[0-9], +3.[0-9]\]) at the boot level (A/A noise)" \
	"$T/out"
ok $? "+1.2 % within the noise floor of 1.3 %: exit 0 (exit $rc)"
night 6.9 12.144 --min-change 0.5 --no-plot
rc=$?
[ $rc = 0 ]
ok $? "--min-change below 2 x CV: the floor is still the noise's (exit $rc)"
# Two nights of 6.9: both reports kept, report.md the second's (a hard link to it).
ls "$H/6.9" >"$T/ls"
WHY=$T/ls
[ "$(ls "$H"/6.9/report-*.md | wc -l)" = 2 ] &&
	[ "$(grep -l "earlier runs of 6.9: 1 (A/A" "$H"/6.9/report-*.md | wc -l)" = 1 ]
ok $? "a second night of a kernel keeps the first's report: two report-<UTC date-time>.md"
second=$(grep -l "earlier runs of 6.9: 1 (A/A" "$H"/6.9/report-*.md)
[ "$H/6.9/report.md" -ef "$second" ] && [ ! -L "$H/6.9/report.md" ] &&
	grep -q "^report: $second (also report.md)" "$T/out"
ok $? "report.md is the newest night's report, and the text names the night's"
echo "$second" | grep -Eq '/report-[0-9]{8}T[0-9]{6}Z(-[0-9]+)?\.md$'
ok $? "the night's report is named by its UTC date-time ($second)"
WHY=$T/out

night 6.10 13.50 -q
rc=$?
[ $rc = 1 ] && grep -q "^verdict: regression" "$T/out"
ok $? "-q with a regression: exit 1, the report printed (exit $rc)"

# The plot of a night: every night of each cell, its change point, its band.
if ! command -v gnuplot >/dev/null 2>&1; then
	skip "the history plot: gnuplot is not installed"
else
	result "$T/next.json" 6.11 "2026-02-01T00:00:00Z" 13.4 1500
	NEXT=$T/next.json PINBENCH_RUN_STANDIN=$T/fake-run "$PB" nightly "$JOB" --history "$H" \
		--label 6.11 >"$T/out" 2>"$T/err"
	png=$(ls "$H"/6.11/report-*.png)
	dat=${png%.png}.dat
	WHY=$dat
	sig=$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')
	[ "$sig" = 89504e470d0a1a0a ] && [ "$H/6.11/report.png" -ef "$png" ] &&
		grep -q "^!\[pinbench plots\](${png##*/})" "$H/6.11/report.md"
	ok $? "the night's plot is a PNG named as its report, report.png the newest"
	nruns=$(sed -n 's/^  pingpong same-cpu (\([0-9]*\) runs).*/\1/p' "$T/out")
	# the first "mean" block: pingpong's run means, one row a night
	awk '/^"x" "mean"/ { b++; next } b == 1 && NF == 0 { exit } b == 1 { print $3 }' "$dat" \
		>"$T/nights"
	[ -n "$nruns" ] && [ "$nruns" -ge 17 ] && [ "$(wc -l <"$T/nights")" = "$nruns" ] &&
		(for k in 6.1 6.2 6.3 6.4 6.5 6.6 6.7 6.8 6.9 6.10 6.11; do
			grep -qx "\"$k\"" "$T/nights" || exit 1
		done)
	ok $? "the plot data has every night of the cell ($nruns), every kernel"
	[ "$(awk '/^"x" "runs"/ { b++; next } b == 1 && NF == 0 { exit } b == 1' "$dat" |
		wc -l)" -ge $((4 * (nruns - 1))) ]
	ok $? "the plot data has every value of every night"
	gp=${png%.png}.gp
	WHY=$gp
	grep -q "^set arrow from [0-9.]*, graph 0 .*#d62728" "$gp" && grep -q "'6.3: +10" "$gp" &&
		grep -q "^set object 1 rect from" "$gp"
	ok $? "the plot marks the change point at 6.3 and the noise floor band"
	# a night without a plot: the last one's stays, under its own name only
	night 6.11 13.4
	WHY=$T/err
	[ ! -e "$H/6.11/report.png" ] && [ ! -e "$H/6.11/report.gp" ] && [ -s "$png" ] &&
		! grep -q "report.*\.png" "$H/6.11/report.md"
	ok $? "--no-plot: no report.png of an earlier night passes for tonight's"
	WHY=$T/out
fi

# A step at the newest kernel that ran three times: a change point at this
# kernel, a regression.
H=$T/h2
i=0
while read -r label pp; do
	i=$((i + 1))
	result "$H/$label/2026010${i}T000000-hist.json" "$label" "2026-01-0${i}T00:00:00Z" "$pp" 1500
done <<EOT
5.8 10.03
5.8 9.99
5.9 10.00
5.9 10.05
5.10 9.98
5.10 10.02
5.11 11.00
5.11 11.05
EOT
night 5.11 11.02
rc=$?
[ $rc = 1 ] && grep -q "^  pingpong same-cpu (9 runs): 5.11: +10.[0-9] % regression (p 0.0[0-4][0-9]) at this kernel" "$T/out"
ok $? "a change point at this kernel, a regression: exit 1 (exit $rc)"

# The same, but the runs of 5.10 are so spread (repeats +-30 %) that the
# comparison with it is not significant: the change point alone says it.
H=$T/h2b
i=0
while read -r label pp k; do
	i=$((i + 1))
	result "$H/$label/2026010${i}T000000-hist.json" "$label" "2026-01-0${i}T00:00:00Z" "$pp" 1500 "$k"
done <<EOT
5.8 10.03 1
5.8 9.99 1
5.9 10.00 1
5.9 10.05 1
5.10 9.98 150
5.10 10.02 150
5.11 11.00 1
5.11 11.05 1
EOT
night 5.11 11.02
rc=$?
[ $rc = 1 ] && grep -q "^    +1[0-9].[0-9] %: inconclusive (interval \[" "$T/out" &&
	grep -q "^verdict: regression (a change point at this kernel)" "$T/out"
ok $? "a change point at this kernel alone: exit 1 (exit $rc)"

# Only earlier runs of the same kernel: A/A, the noise, nothing to compare.
H=$T/h3
result "$H/6.1/20260101T000000-hist.json" 6.1 2026-01-01T00:00:00Z 10.0 1500
night 6.1 10.02
rc=$?
[ $rc = 0 ] && grep -q "no earlier kernel than 6.1 in $H: compared with its earlier run (A/A)" "$T/out" &&
	grep -q "^    tonight 10.0[0-9] µs, 4 values$" "$T/out" &&
	grep -q "^    A/A vs 1 earlier run of this kernel: +0.2 %: within the floor" "$T/out" &&
	grep -q "floor 1.0 % (--min-change; 1 earlier run of this kernel, a CV needs 2)" "$T/out" &&
	grep -q "earlier runs of 6.1: 1 (A/A" "$H/6.1/report.md"
ok $? "A/A runs only: compared with them, exit 0 (exit $rc)"
# What it says about A/A agrees with itself (issue 25): one earlier run of
# the kernel is an A/A comparison, not "no A/A runs"; no comparisons are
# not "adjusted for the 0 comparisons"; one is never "1 runs".
WHY=$T/out
! grep -q "No A/A runs in the history" "$T/out" "$H/6.1/report.md" &&
	grep -q "^  No CV from A/A runs yet: it needs a kernel with two runs besides tonight's,$" "$T/out" &&
	grep -q "^and 6.1 has 1 earlier run: the floor is --min-change.$" "$H/6.1/report.md"
ok $? "one earlier run of the kernel: A/A said, and why there is no CV yet"
! grep -q "0 comparisons" "$T/out" "$H/6.1/report.md"
ok $? "nothing compared: no 'adjusted for the 0 comparisons'"
! grep -Eq "(^|[^0-9.])1 (runs|nights|kernels|values|earlier runs)" "$T/out" "$H/6.1/report.md" &&
	grep -q "(2 runs): no change point" "$T/out" && grep -q "; 2 runs in the history" "$T/out"
ok $? "singular and plural: no '1 runs'"
night 6.1 10.5
rc=$?
[ $rc = 0 ] && grep -q "floor 1.0 % (--min-change; 2 x CV = 0.28 % is below it, 2 A/A runs)" "$T/out" &&
	grep -q "^    A/A vs 2 earlier runs of this kernel: +4.9 %: beyond the floor (not a regression)" "$T/out" &&
	grep -q "^verdict: no earlier kernel, only A/A runs of this one" "$T/out"
ok $? "A/A beyond the floor: said, not a regression (exit $rc)"
# Reports at every name tonight's could take (this second and the next
# ten): none is replaced, tonight's takes a name of its own.
H=$T/h8
now=$(date -u +%s)
mkdir -p "$H/7.1"
for s in 0 1 2 3 4 5 6 7 8 9 10; do
	echo precious >"$H/7.1/report-$(date -u -d "@$((now + s))" +%Y%m%dT%H%M%SZ).md"
done
night 7.1 10.0
rc=$?
WHY=$T/err
[ $rc = 0 ] && [ "$(cat "$H"/7.1/report-*Z.md | grep -c '^precious$')" = 11 ] &&
	[ "$(ls "$H"/7.1/report-*Z-2.md | wc -l)" = 1 ] &&
	[ "$H/7.1/report.md" -ef "$(ls "$H"/7.1/report-*Z-2.md)" ]
ok $? "an earlier report at tonight's name is kept: tonight's is report-...Z-2.md (exit $rc)"
WHY=$T/out
H=$T/h4
night 7.0 10.0
grep -q "No A/A runs in the history" "$T/out" && grep -q "(1 run): no change point" "$T/out" &&
	grep -q "; 1 run in the history" "$T/out" &&
	grep -q "compared with: nothing" "$H/7.0/report.md" &&
	! grep -Eq "(^|[^0-9.])1 (runs|nights|kernels|values)|0 comparisons" "$T/out" "$H/7.0/report.md"
ok $? "no A/A runs: said; one run, not '1 runs'"

# A job that fails (its set-up hangs past timeout=0.5), with the real
# `pinbench run`: exit 3, said in the text and the report, -q or not.
printf '[hang]\nbench=pipe\ntest_hang=setup\ntimeout=0.5\nrepeats=1\nduration=0.1\nwarmup=0\nplacement=same-cpu\n' >"$T/hang.ini"
"$PB" nightly "$T/hang.ini" --history "$T/h5" --label 6.1 --no-plot -q >"$T/out" 2>"$T/err"
rc=$?
WHY=$T/err
[ $rc = 3 ] && grep -q "^verdict: some jobs failed" "$T/out" &&
	grep -q "some jobs failed" "$T/h5/6.1/report.md"
ok $? "a failed job: exit 3, said even with -q (exit $rc)"

# -q with the real `pinbench run` of a tiny job, twice (the second one is
# an A/A run of the first): nothing at all on stdout or stderr.
printf '[tiny]\nbench=pipe\nrepeats=1\nduration=0.1\nwarmup=0\nplacement=same-cpu\nevents=none\n' >"$T/tiny.ini"
"$PB" nightly "$T/tiny.ini" --history "$T/h6" --label 6.1 --no-plot -q >"$T/out" 2>"$T/err" &&
	"$PB" nightly "$T/tiny.ini" --history "$T/h6" --label 6.1 --no-plot -q >>"$T/out" 2>>"$T/err"
rc=$?
[ $rc = 0 ] && [ ! -s "$T/out" ] && [ ! -s "$T/err" ] && [ -s "$T/h6/6.1/report.md" ]
ok $? "-q with a real run and no regression: exit 0, silent, report.md written (exit $rc)"
# The run is the engine called by nightly, not the program run again: the
# result names nightly's command line.
grep -l '"cmdline": "pinbench nightly '"$T"'/tiny.ini --history ' "$T"/h6/6.1/*.json \
	>"$T/cmdline" 2>&1
[ "$(wc -l <"$T/cmdline")" = 2 ]
ok $? "the results of nightly's runs name nightly's command line" "$T/cmdline"

# -q and a job file pinbench run refuses: exit 2, and its reason is shown.
"$PB" nightly tests/e2e/jobs/bad-key.ini --history "$T/h7" --label 6.1 --no-plot -q \
	>"$T/out" 2>"$T/err"
rc=$?
[ $rc = 2 ] && grep -q "bad-key.ini:[0-9]" "$T/err" && grep -q "^pinbench nightly: pinbench run .*failed (exit 2)" "$T/err"
ok $? "-q and a refused job file: exit 2, the run's reason shown (exit $rc)"
WHY=

done_testing
