#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The build: make SANITIZE=1 compiles with flags under which every
# sanitizer finding stops the program (UBSan's too: by default it prints
# and goes on, and no test would fail), and CI runs the whole suite so
# built after its plain runs, leaving a plain build behind.
. "$(dirname "$0")/lib.sh"

# The compiler and flags of make SANITIZE=1, asked of the Makefile from $T
# (its .build-flags stamp goes there, not into this tree).
flags=$(make -s -C "$T" -f "$(pwd)/Makefile" SANITIZE=1 pb-flags \
	--eval 'pb-flags: ; @echo $(CC) $(CFLAGS) $(LDFLAGS)' 2>"$T/err")
ok $? "make SANITIZE=1 says its flags: $flags" "$T/err"

# san NAME WHAT C-BODY: a program doing WHAT, built with those flags, must
# exit non-zero with the sanitizer's report on stderr.
san() {
	printf '#include <limits.h>\n#include <stdio.h>\n#include <stdlib.h>\n%s\n' "$3" \
		>"$T/$1.c"
	# shellcheck disable=SC2086 # flags are words
	$flags -o "$T/$1" "$T/$1.c" >"$T/$1.cc" 2>&1 || {
		ok 1 "$2: builds" "$T/$1.cc"
		return
	}
	"$T/$1" >"$T/$1.out" 2>&1
	_rc=$?
	[ $_rc != 0 ] && grep -q "$4" "$T/$1.out"
	ok $? "make SANITIZE=1: $2 stops the program (exit $_rc)" "$T/$1.out"
}
san ub "a signed overflow (UBSan)" \
	'int main(int argc, char **argv)
{
	int x = INT_MAX - 1 + argc;

	(void)argv;
	x += argc;
	printf("%d\n", x);
	return 0;
}' "runtime error: signed integer overflow"
san heap "a use after free (ASan)" \
	'int main(int argc, char **argv)
{
	char *p = malloc(4), *volatile q = p;

	(void)argv;
	p[0] = (char)argc;
	free(p);
	printf("%d\n", q[0]);
	return 0;
}' "heap-use-after-free"
san leak "a leak (LeakSanitizer)" \
	'int main(int argc, char **argv)
{
	char *p = malloc(40);

	(void)argv;
	p[0] = (char)argc;
	printf("%d\n", p[0]);
	p = NULL;
	return 0;
}' "detected memory leaks"

# .ci/run: make check, make check with the hog, then make check SANITIZE=1,
# then a plain build.
awk '/^make check$/ { n++ } /^make check SANITIZE=1$/ && n == 2 { s = 1 }
	s && /^make .*tests/ { p = 1 } END { exit !(s && p) }' .ci/run
ok $? ".ci/run: make check SANITIZE=1 after the plain run and the hog run, then a plain build"

done_testing
