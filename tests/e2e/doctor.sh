#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# pinbench doctor end to end: fake /proc and /sys trees (tests/sysroot/*),
# recorded perf stat outputs (tests/perfstat/*), usage errors, and this
# machine.  One TAP line per check.
. "$(dirname "$0")/lib.sh"
WHY=$T/out	# checks look at the output of doctor

# $PB when it has the doctor; otherwise a small driver around cmd_doctor.
if ! "$PB" doctor --help 2>/dev/null | grep -q -- --perf-stat; then
	cat >"$T/main.c" <<'EOF'
#include "cli/cmds.h"
int main(int argc, char **argv) { return cmd_doctor(argc - 1, argv + 1); }
EOF
	# shellcheck disable=SC2046
	${CC:-cc} -std=gnu11 -D_GNU_SOURCE -Iharness $(pkg-config --cflags jansson) \
		-o "$T/pinbench" "$T/main.c" harness/checks/doctor.c harness/sys/env.c \
		harness/sys/probe.c harness/checks/perfstat.c harness/lib/anomaly.c \
		$(pkg-config --libs jansson) -lpthread -lm || exit 2
	PB="$T/pinbench"
fi

# doctor under a root: output in $T/out, exit code in $T/rc.  A fake tree
# gets injected probe readings too ($PROBES, default a steady 3.00 GHz, the
# trees' nominal): this host's own clock has nothing to do with the tree.
doc() {
	root=$1
	shift
	if [ -n "$root" ]; then
		PINBENCH_PROBE_FILE=${PROBES:-tests/probes/steady-3000} \
			PINBENCH_SYSROOT=$root "$PB" doctor "$@" >"$T/out" 2>&1
	else
		"$PB" doctor "$@" >"$T/out" 2>&1
	fi
	echo $? >"$T/rc"
}
rc_is() { [ "$(cat "$T/rc")" = "$1" ]; }
has() { grep -q -- "$1" "$T/out"; }
hasnt() { ! grep -q -- "$1" "$T/out"; }

S=tests/sysroot
P=tests/perfstat

doc $S/good
check "good tree: exit 0" rc_is 0
check "good tree: every environment check ok" \
	sh -c "! grep -E '^  (warn|fail|skip) ' '$T/out' | grep -v probe"
check "good tree: nominal from the model name" has "vs nominal 3000 MHz (model-name)"

check "good tree: the injected 3000 MHz agrees with nominal" \
	has "^  ok    probe-vs-nominal  *slowest cpu0 3000 MHz vs nominal 3000 MHz (model-name): +0.0 %"
PROBES=tests/probes/e5450-2009 doc $S/good
check "good tree, 2009 clock: probe-vs-nominal fails at 2.0 vs 3.0 GHz" \
	has "^  fail  probe-vs-nominal  *slowest cpu0 2000 MHz vs nominal 3000 MHz (model-name): -33.3 %"
check "good tree, 2009 clock: exit 1" rc_is 1

doc $S/governor
check "powersave (acpi-cpufreq): exit 1" rc_is 1
check "powersave: governor fails with its figure" has "^  fail  governor  *powersave on 2 CPUs"
check "powersave: the fix" has "fix: cpupower frequency-set -g performance"

doc $S/throttling
check "throttle counters: warn with the count" has "^  warn  throttling  *22 throttle events"
check "throttle counters: a warning is not a failure (exit 0)" rc_is 0

doc $S/watchdog
check "nmi_watchdog on: warn" has "^  warn  nmi_watchdog  *on"
check "nmi_watchdog on: the fix" has "fix: echo 0 > /proc/sys/kernel/nmi_watchdog"

doc $S/paranoid --user
check "paranoid 3 for a user: fail, in words" \
	has "^  fail  perf_event_paranoid  *3: forbids every perf_event_open"
check "paranoid 3 for a user: exit 1" rc_is 1
doc $S/paranoid
if [ "$(id -u)" = 0 ]; then
	check "paranoid 3 as root: ok (privileged)" has "^  ok    perf_event_paranoid  *3:.*privileged"
fi

doc $S/mixed
check "mixed governors summarised" has "governor  *mixed: performance on 1 CPU, schedutil on 1 CPU"
check "turbo on: warn" has "^  warn  boost"

doc $S/empty
check "empty root: everything unknown, nothing fails" rc_is 0
check "empty root: all skipped" has "0 ok, 0 warn, 0 fail, 12 skip"

doc $S/governor --format json
check "json: valid, governor fail, environment stored" python3 -c "
import json, sys
d = json.load(open('$T/out'))
g = [c for c in d['checks'] if c['name'] == 'governor'][0]
assert g['status'] == 'fail', g
assert d['environment']['cpufreq']['governor'] == 'powersave'
assert d['summary']['fail'] == 1
"

# someone else's perf stat
for f in e5450-2009-text.txt e5450-2009-csv.txt e5450-2009-orig.txt; do
	doc "" --perf-stat $P/$f --nominal-mhz 3000
	check "$f: flagged, exit 1" rc_is 1
	check "$f: 2.00 GHz against 3.00 GHz" has "effective clock 2.00 GHz (cycles / .*-clock), 33.3 % below the nominal 3.00 GHz (given)"
	check "$f: time-shared counters" has "counter-multiplexed: .*cycles 66.67 %"
done
doc $S/good --perf-stat $P/e5450-2009-text.txt
check "no --nominal-mhz: this host's nominal, named" has "3.00 GHz (this host's, from model-name)"
doc "" --perf-stat $P/clean-text.txt --nominal-mhz 3000
check "a clean perf stat: nothing flagged, exit 0" sh -c "rc=\$(cat $T/rc); [ \$rc = 0 ] && grep -q 'verdict: nothing flagged' $T/out"
doc "" --perf-stat $P/slow-full-csv.txt --nominal-mhz 3000
check "fully counted but slow: the clock itself was low" has "the clock itself was low"
PINBENCH_SYSROOT= "$PB" doctor --perf-stat - --nominal-mhz 3000 \
	<$P/thishost-text.txt >"$T/out" 2>&1
echo $? >"$T/rc"
check "stdin, <not supported> cycles: flagged" sh -c "[ \$(cat $T/rc) = 1 ] && grep -q 'counter-unsupported: .*cycles' $T/out"
doc "" --perf-stat $P/e5450-2009-csv.txt --nominal-mhz 3000 --format json
check "perf stat json" python3 -c "
import json
d = json.load(open('$T/out'))
assert d['format'] == 'csv' and d['flagged'] is True
assert abs(d['effective_mhz'] - 2000.9) < 0.5
assert {a['kind'] for a in d['anomalies']} >= {'counter-multiplexed', 'frequency-low'}
"

# every form perf stat writes: this machine's perf 6.1 (no PMU), and the
# shapes of perf 4.19, 5.10 and a newer 6.x
for f in default x-comma x-semicolon x-colon x-tab json I100 I100-x-comma I100-json \
	r3 r3-x-comma r3-json; do
	doc "" --perf-stat $P/perf61-kvm-$f.txt --nominal-mhz 3000
	check "perf 6.1 $f: read, cycles <not supported> shown as such" sh -c \
		"[ \$(cat $T/rc) = 1 ] && grep -q '^  cycles  *<not supported>  *-' $T/out && \
		grep -q 'counter-unsupported: .*cycles, instructions' $T/out"
	check "perf 6.1 $f: no '100.00%' on an uncounted event" \
		sh -c "! grep -E '<not (supported|counted)> +[0-9]' $T/out"
done
doc "" --perf-stat $P/perf61-kvm-x-semicolon.txt
check "-x';': the separator named" has "^perf stat output .* (CSV, separator ';', 6 events)"
doc "" --perf-stat $P/perf61-kvm-x-tab.txt
check "-x tab: the separator named" has "separator '[\\]t'"
doc "" --perf-stat $P/perf61-kvm-I100.txt
check "-I 100: the intervals counted" has "^intervals: 4, 0.100 s to 0.352 s (2 flagged, 2 counted nothing)"
check "-I 100: an idle interval said so" has "^      0.200518 s  idle "
check "-I 100: the flagged intervals summed up" \
	has "interval-flagged: 2 of 4 intervals flagged (2 counted nothing)"
doc "" --perf-stat $P/perf61-kvm-I100-summary-x-comma.txt
check "-I 100 --summary -x,: the whole is perf's summary, not twice the counts" sh -c \
	"grep -q '3 intervals; below perf.s --summary' $T/out && grep -q '^  task-clock  *0.69 msec' $T/out"
doc "" --perf-stat $P/perf61-kvm-I100-json.txt --format json
check "-I 100 -j: json with four intervals" python3 -c "
import json
d = json.load(open('$T/out'))
assert d['format'] == 'json' and len(d['intervals']) == 4, d.keys()
assert [i['idle'] for i in d['intervals']] == [False, True, True, False]
cyc = [e for e in d['events'] if e['name'] == 'cycles'][0]
assert cyc['status'] == 'not supported' and cyc['percent'] is None and cyc['value'] is None
"
doc "" --perf-stat $P/perf61-kvm-r3.txt
check "-r 3: runs and variance shown" sh -c "grep -q '(text, 6 events, 3 runs, 0.102 s elapsed +- 0.25 %)' $T/out && \
	grep -q '^  task-clock  *0.79 msec  *100.00%  *14.53%' $T/out"
check "-r 3: a large variance is a warning" \
	has "warn  counter-variance: run-to-run variance above 5 % over 3 runs: task-clock +- 14.53 %"
doc "" --perf-stat $P/perf419-r5-text.txt --nominal-mhz 3000
check "perf 4.19 text: task-clock (msec), 2.00 GHz vs 3.00 flagged" sh -c \
	"grep -q '^  task-clock  *2004.18 msec' $T/out && grep -q 'error frequency-low: effective clock 2.00 GHz' $T/out && \
	grep -q 'counter-variance: .*cycles +- 9.08 %' $T/out"
doc "" --perf-stat $P/perf510-r3-text.txt --nominal-mhz 3600
check "perf 5.10 text -r 3 at its nominal: nothing flagged, exit 0" sh -c \
	"[ \$(cat $T/rc) = 0 ] && grep -q 'verdict: nothing flagged' $T/out"
doc "" --perf-stat $P/perf510-I1000-x-semicolon.txt --nominal-mhz 3000
check "perf 5.10 -I -x';': the slow second second flagged" sh -c \
	"grep -q '^      2.000235 s  flagged  1.60 GHz  error frequency-low' $T/out && \
	grep -q 'error interval-flagged: 1 of 3 intervals flagged' $T/out"
doc "" --perf-stat $P/perf6new-r5-json.txt --nominal-mhz 3000
check "newer perf 6.x json: <not counted> kept, cycles 2.00 GHz" sh -c \
	"grep -q '^  branches  *<not counted>  *-' $T/out && grep -q 'effective clock 2.00 GHz (cycles / task-clock)' $T/out"
doc "" --perf-stat $P/edited-ghz-text.txt --nominal-mhz 3000
check "perf's own GHz disagreeing with cycles / task-clock: flagged" \
	has "clock-inconsistent: perf's own figure 3.500 GHz"
doc $S/good --perf-stat $P/perf419-r5-text.txt
check "no --nominal-mhz: says it judged against this host's and how to change that" \
	has "^judged against this host's nominal 3.00 GHz (from model-name); pass --nominal-mhz for the machine the paste came from"
doc "" --perf-stat $P/perf419-r5-text.txt --nominal-mhz 3000
check "--nominal-mhz given: no 'this host' note" hasnt "this host"

# usage
doc "" --bogus
check "unknown option: exit 2 with a message" sh -c "[ \$(cat $T/rc) = 2 ] && grep -q 'unknown argument' $T/out"
doc "" --perf-stat $P/clean-text.txt --nominal-mhz abc
check "bad --nominal-mhz: exit 2" rc_is 2
doc "" --nominal-mhz 3000
check "--nominal-mhz without --perf-stat: exit 2" rc_is 2
doc "" --format xml
check "bad --format: exit 2" rc_is 2
printf '  1,000.00 msec task-clock\n  -3,000,000  cycles\n' >"$T/neg.txt"
doc "" --perf-stat "$T/neg.txt" --nominal-mhz 3000
check "a negative count: exit 2 naming FILE:LINE" sh -c \
	"[ \$(cat $T/rc) = 2 ] && grep -q 'neg.txt:2: cycles: negative count' $T/out"
doc "" --perf-stat "$T/nonexistent"
check "missing perf stat file: exit 2, named" sh -c "[ \$(cat $T/rc) = 2 ] && grep -q nonexistent $T/out"
doc "" --help
check "--help: exit 0 with usage" sh -c "[ \$(cat $T/rc) = 0 ] && grep -q 'usage: pinbench doctor' $T/out"

# this machine, as it is
doc ""
check "this machine: every check reported" sh -c "for c in governor boost throttling \
nmi_watchdog perf_event_paranoid pmu smt isolation throttling-now probe-stability \
probe-vs-nominal; do grep -qE \"^  (ok|skip|warn|fail) +\$c \" $T/out || exit 1; done"
check "this machine: exit 1 exactly when a check fails" sh -c "rc=\$(cat $T/rc); \
if grep -q '^  fail ' $T/out; then [ \$rc = 1 ]; else [ \$rc = 0 ]; fi"
check "this machine: the probe reports its spread" has "probe-stability  *two probes per CPU agree within [0-9.]* %"

done_testing
