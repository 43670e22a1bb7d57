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

# The usage says where to read on, and what it names is there: 'man
# pinbench' is the page this tree installs, the files it names exist.
need_pinbench
$PB --help >"$T/usage" 2>&1
ok $? "pinbench --help" "$T/usage"
grep -q "'man pinbench'" "$T/usage" && grep -q "'man \./doc/pinbench\.1'" "$T/usage" &&
	[ -f doc/pinbench.1.scd ] && grep -q 'share/man/man1' Makefile
ok $? "the usage names 'man pinbench' and ./doc/pinbench.1, the page make builds and installs" \
	"$T/usage"
# shellcheck disable=SC2020 # each of space and quote becomes a newline
tr -s " '" '\n\n' <"$T/usage" | sed -n 's,^(\{0\,1\}\(\.\/\)\{0\,1\}\([A-Za-z0-9_./-]*\.\(md\|1\)\)[),.]*$,\2,p' \
	| sort -u >"$T/named"
# (a subshell: the loop's exit must end the loop, not this script)
[ -s "$T/named" ] && (while read -r f; do [ -f "$f" ] || { echo "$f: no such file"; exit 1; }; done \
	<"$T/named" >"$T/missing")
ok $? "the files the usage names exist in the tree: $(tr '\n' ' ' <"$T/named")" "$T/missing"

# The library the unit tests link is the layers below cli/: no command's
# object in it (the commands link beside it, into pinbench).
if [ -f libpinbench.a ]; then
	ar t libpinbench.a >"$T/members" 2>&1
	for f in harness/cli/*.c; do basename "$f" .c; done | sed 's/$/.o/' >"$T/cli"
	grep -Fxf "$T/cli" "$T/members" >"$T/both"
	[ $? = 1 ]
	ok $? "libpinbench.a holds no cli/ object" "$T/both"
else
	skip "not built (make tests)"
fi

# core/ and the layers below cli/ refer to no symbol of the workloads
# (benches/ includes core/bench.h, not the other way round): the table
# reaches core as a pointer benches/benches.c sets.
set -- benches/*.o benches/common/*.o
if [ -f "$1" ]; then
	nm --defined-only "$@" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u >"$T/bdef"
	for o in harness/core/*.o harness/checks/*.o harness/sys/*.o harness/lib/*.o \
		 harness/net/*.o harness/report/*.o; do
		nm -u "$o" | awk -v o="$o" '{ print $2, o }'
	done | sort >"$T/undef"
	join "$T/bdef" "$T/undef" >"$T/up"
	[ ! -s "$T/up" ]
	ok $? "no object below cli/ refers to a symbol benches/ defines" "$T/up"
	listed=$($PB list 2>/dev/null | grep -c '^[a-z_]* - ')
	named=$(grep -c '^[[:space:]]*X([a-z_]*)' benches/benches.h)
	[ "$listed" -gt 0 ] && [ "$listed" = "$named" ]
	ok $? "pinbench list shows every workload benches.h names ($listed of $named)"
else
	skip "not built (make tests)"
	skip "not built (make tests)"
fi

# No dead code: every function the product exports is called by the
# product from another file (or by its own file and a test: then static
# would hide it from the test), but for the test seams listed here (the fuzzers' entries and
# accessors the unit tests read a parse through).  The list is exact: a
# seam the product comes to use must leave it.
if [ -f harness/cli/main.o ] && [ -f libpinbench.a ]; then
	python3 - >"$T/dead" 2>&1 <<'PY'
import glob, re, subprocess, sys

seams = {
    "pb_perfstat_parse",	# tests/fuzz/perfstat_fuzz.c, test_perfstat
    "pb_perfstat_find",		# test_perfstat reads a parse through it
    "pb_proto_decode",		# tests/fuzz/proto_fuzz.c: a whole frame
    "pb_jobs_load_text",	# tests/fuzz/jobfile_fuzz.c: a job file's text
    "pb_topo_is_this_system",	# test_topo: loaded from here or not
    "main",
}
objs = sorted(glob.glob("harness/*/*.o") + glob.glob("benches/*.o") +
              glob.glob("benches/common/*.o"))
defs, used = {}, set()
for o in objs:
    out = subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        w = line.split()
        if len(w) == 3 and w[1] == "T":
            defs[w[2]] = o
        elif len(w) == 2 and w[0] == "U":
            used.add(w[1])
def code(path):	# the C text without its comments and strings
    t = open(path).read()
    t = re.sub(r"/\*.*?\*/|//[^\n]*", " ", t, flags=re.S)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', t)
tests_text = " ".join(code(t) for t in glob.glob("tests/unit/*/*.c") + glob.glob("tests/fuzz/*.c"))
tested = set(re.findall(r"\b[A-Za-z_]\w*", tests_text))
bad, seen = [], set()
for name, o in sorted(defs.items()):
    if name in used:
        continue
    n = len(re.findall(r"\b%s\b" % re.escape(name), code(o[:-2] + ".c")))
    if n > 1 and name not in tested:
        bad.append("%s (%s): exported, but only its own file calls it: make it static" %
                   (name, o[:-2] + ".c"))
        continue
    if n > 1:
        continue	# called in its own file, and by a test: a seam
    if name in seams:
        seen.add(name)
    else:
        bad.append("%s (%s): exported, called by nothing in the product" % (name, o[:-2] + ".c"))
for name in sorted(seams - seen):
    bad.append("%s: listed as a test seam, but the product calls it (or it is gone)" % name)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	ok $? "every exported function is called by the product or is a listed test seam" "$T/dead"
else
	skip "not built (make tests)"
fi

done_testing
