#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The control-message parser of `pinbench server` under libFuzzer
# (tests/fuzz/proto_fuzz.c), briefly: built with clang
# -fsanitize=fuzzer,address when clang and libFuzzer are present, run for
# FUZZ_SECONDS (default 15) from the seed corpus tests/fuzz/corpus/ (new
# inputs go to a scratch folder, the seeds are not changed).  TAP.
. "$(dirname "$0")/lib.sh"
SECS=${FUZZ_SECONDS:-15}
if ! command -v clang >/dev/null 2>&1; then
	skip "no clang/libFuzzer"
	done_testing
	exit 0
fi
SRC="tests/fuzz/proto_fuzz.c $(ls harness/*.c benches/*.c | grep -v '^harness/main.c$')"
# shellcheck disable=SC2086
if ! clang -g -O1 -fsanitize=fuzzer,address -std=gnu11 -D_GNU_SOURCE \
	-DPB_VERSION=\"fuzz\" -Iharness -Ibenches \
	$(pkg-config --cflags hwloc jansson 2>/dev/null) -o "$T/proto_fuzz" $SRC \
	$(pkg-config --libs hwloc jansson 2>/dev/null) -lpfm -lpthread -lm >"$T/cc" 2>&1; then
	if grep -q -i "fuzzer" "$T/cc"; then
		skip "no clang/libFuzzer (libclang-rt-dev missing)"
		done_testing
		exit 0
	fi
	comment "$T/cc" 20
	ok 1 "the fuzz target builds with clang"
	done_testing
	exit 1
fi
ok 0 "the fuzz target builds with clang -fsanitize=fuzzer,address"
mkdir -p "$T/corpus"
"$T/proto_fuzz" -max_total_time="$SECS" -max_len=9000 -timeout=5 -rss_limit_mb=1024 \
	-print_final_stats=1 -artifact_prefix="$T/" "$T/corpus" tests/fuzz/corpus \
	>"$T/fuzz.log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$T/fuzz.log")
ok $rc "libFuzzer ${SECS} s on the control parser: no crash, leak or abort (${runs:-?} runs)"
[ $rc = 0 ] || grep -E "ERROR|SUMMARY|==" "$T/fuzz.log" | head -n 20 | sed 's/^/# /'
[ -n "$runs" ] && [ "$runs" -gt 100 ]
ok $? "the fuzzer really ran (more than 100 inputs)"
done_testing
