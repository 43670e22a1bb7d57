#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Rooms named for what they hold (issue 23): nothing generated is kept in
# git, the product is compiled without the tests' headers, the library
# the tests link holds no cli/ object, and core/ declares nothing that
# only a layer above it defines.
. "$(dirname "$0")/lib.sh"

# No Python byte code in the tree, and git ignores it when a run of the
# scripts leaves some.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files | grep -E '(^|/)__pycache__/|\.py[co]$' >"$T/pyc"
	[ ! -s "$T/pyc" ]
	ok $? "no __pycache__ or .pyc file is committed" "$T/pyc"
	git check-ignore -q tests/e2e/__pycache__/x.cpython-311.pyc
	ok $? "git ignores tests/e2e/__pycache__/*.pyc"
else
	skip "not a git work tree"
	skip "not a git work tree"
fi

# The compile commands make would run for a product object and a test
# object, asked of the Makefile in $T (its .build-flags stamp goes there).
mkdir -p "$T/harness/core" "$T/tests/unit/core"
: >"$T/harness/core/x.c"
: >"$T/tests/unit/core/test_x.c"
make -s -n -C "$T" -f "$(pwd)/Makefile" harness/core/x.o tests/unit/core/test_x.o \
	>"$T/cc" 2>&1
ok $? "make -n says how it compiles an object" "$T/cc"
grep 'harness/core/x\.o' "$T/cc" >"$T/cc.product"
[ -s "$T/cc.product" ] && ! grep -q -- '-Itests' "$T/cc.product"
ok $? "the product is compiled without -Itests" "$T/cc"
grep 'tests/unit/core/test_x\.o' "$T/cc" | grep -q -- '-Itests'
ok $? "a test object is compiled with -Itests" "$T/cc"

done_testing
