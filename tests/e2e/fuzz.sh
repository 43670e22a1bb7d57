#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The parsers of untrusted input under libFuzzer, briefly: the control
# messages of `pinbench server` (tests/fuzz/proto_fuzz.c, seeds in
# tests/fuzz/corpus/), job files (jobfile_fuzz.c, corpus-jobfile/) and
# perf stat output (perfstat_fuzz.c, corpus-perfstat/) and result files
# (result_fuzz.c, corpus-result/: genresults' and a real bench's).  Built with clang
# -fsanitize=fuzzer,address when clang and libFuzzer are present (the
# harness compiled once, linked into each target), each run for
# FUZZ_SECONDS (default 10) from its seeds (new inputs go to a scratch
# folder, the seeds are not changed).  TAP.
. "$(dirname "$0")/lib.sh"
SECS=${FUZZ_SECONDS:-10}
if ! command -v clang >/dev/null 2>&1; then
	skip "no clang/libFuzzer: clang is not installed"
	done_testing
	exit 0
fi
# the libraries the Makefile links (its PKGS line), so the two never drift
PKGS=$(sed -n 's/^PKGS[[:space:]]*:=[[:space:]]*//p' Makefile)
# shellcheck disable=SC2089,SC2090 # the quotes of "fuzz" are meant for the compiler
CFL="-g -O1 -std=gnu11 -D_GNU_SOURCE -DPB_VERSION=\"fuzz\" -Iharness -Ibenches \
	$(pkg-config --cflags $PKGS 2>/dev/null)"
LIBS="$(pkg-config --libs $PKGS 2>/dev/null) -lpfm -lpthread -lm"

# Does clang have libFuzzer here?  (libclang-rt-dev may be missing.)
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return !d && n; }' \
	>"$T/probe.c"
if ! clang -fsanitize=fuzzer,address -o "$T/probe" "$T/probe.c" >"$T/cc" 2>&1; then
	skip "no clang/libFuzzer (libclang-rt-dev missing?): $(head -n 1 "$T/cc")"
	done_testing
	exit 0
fi

# The harness once, instrumented for the fuzzer, without its main().
mkdir "$T/obj"
rc=0
for f in harness/*/*.c benches/*.c benches/common/*.c; do
	[ -f "$f" ] || continue
	[ "$f" = harness/cli/main.c ] && continue
	o=$T/obj/$(echo "$f" | tr / _).o
	# shellcheck disable=SC2086,SC2090
	clang $CFL -fsanitize=fuzzer-no-link,address -c -o "$o" "$f" >>"$T/cc" 2>&1 || rc=1
done
ok $rc "the harness builds with clang -fsanitize=fuzzer-no-link,address" "$T/cc"
[ $rc = 0 ] || { done_testing; exit 1; }

# fuzz NAME CORPUS WHAT MAXLEN: build tests/fuzz/NAME_fuzz.c, run it SECS s
fuzz() {
	_name=$1
	_seeds=$2
	_what=$3
	_max=$4
	# shellcheck disable=SC2086,SC2090
	clang $CFL -fsanitize=fuzzer,address -o "$T/$_name" "tests/fuzz/${_name}_fuzz.c" \
		"$T"/obj/*.o $LIBS >"$T/cc.$_name" 2>&1
	ok $? "the $_what target builds (tests/fuzz/${_name}_fuzz.c)" "$T/cc.$_name" || return 1
	mkdir -p "$T/new-$_name"
	"$T/$_name" -max_total_time="$SECS" -max_len="$_max" -timeout=5 -rss_limit_mb=1024 \
		-print_final_stats=1 -artifact_prefix="$T/$_name-" "$T/new-$_name" "$_seeds" \
		>"$T/$_name.log" 2>&1
	_rc=$?
	_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$T/$_name.log")
	ok $_rc "libFuzzer ${SECS} s on the $_what: no crash, leak or abort (${_runs:-?} runs)"
	[ $_rc = 0 ] || grep -E "ERROR|SUMMARY|==|Test unit written" "$T/$_name.log" |
		head -n 20 | sed 's/^/# /'
	[ -n "$_runs" ] && [ "$_runs" -gt 100 ]
	ok $? "the $_what fuzzer really ran (more than 100 inputs)"
}
fuzz proto tests/fuzz/corpus "control parser" 9000
fuzz jobfile tests/fuzz/corpus-jobfile "job-file parser" 8192
fuzz perfstat tests/fuzz/corpus-perfstat "perf stat reader" 8192
fuzz result tests/fuzz/corpus-result "result-file loader" 16384
done_testing
