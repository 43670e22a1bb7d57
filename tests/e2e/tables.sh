#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `pinbench list` and `pinbench events` within 100 columns and aligned, piped
# (not a terminal: the width is 100) and in a terminal of 80 columns (script(1)
# gives one, when it is there).
. "$(dirname "$0")/lib.sh"

# wide FILE MAX: the lines of FILE wider than MAX columns (UTF-8 characters)
wide() {
	python3 -c 'import sys
for i, l in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
	l = l.rstrip("\n").replace("\r", "")
	if len(l) > int(sys.argv[2]):
		print("line %d, %d columns: %s" % (i, len(l), l))' "$1" "$2"
}

# aligned FILE REGEX FIELD-REGEX...: every line matching REGEX has each field
# it has (the start of FIELD-REGEX's group 1) where the first such line has
# it; prints the lines that do not
aligned() {
	python3 -c 'import re, sys
rows = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8") if re.match(sys.argv[2], l)]
def starts(l):
	return [m.start(1) if m else None for m in (re.search(f, l) for f in sys.argv[3:])]
if not rows:
	print("no line matches %s" % sys.argv[2])
ref = starts(rows[0]) if rows else []
for l in rows:
	if any(a is not None and a != b for a, b in zip(starts(l), ref)):
		print("not aligned with %r: %r" % (rows[0], l))' "$@"
}

$PB list | cat >"$T/list" 2>"$T/err"
ok $? "list runs" "$T/err"
wide "$T/list" 100 >"$T/wide"
[ ! -s "$T/wide" ]
ok $? "list, piped: every line within 100 columns" "$T/wide"
# a key row: four spaces, the key, its type, "default X", its help
aligned "$T/list" '^    [a-z_]+ ' '^    [a-z_]+ +(\S)' '(default) ' 'default \S+ +(\S)' >"$T/al"
[ ! -s "$T/al" ]
ok $? "list: every key's type, default and help start in the same columns" "$T/al"
grep -q '^    placement  *string  *default same-cpu' "$T/list" &&
	grep -q '^pipe - pipe ping-pong' "$T/list" && grep -q '^keys of every workload:' "$T/list"
ok $? "list: workloads, their keys and the common keys" "$T/list"

for pat in "" cycles; do
	$PB events $pat | cat >"$T/ev" 2>"$T/err"
	ok $? "events $pat runs" "$T/err"
	wide "$T/ev" 100 >"$T/wide"
	[ ! -s "$T/wide" ]
	ok $? "events $pat, piped: every line within 100 columns" "$T/wide"
	# a PMU row: name, type, generic N, fixed N, N events, description
	aligned "$T/ev" '^  \S+ +(os|core|uncore|\?) +generic' '(generic)' '(fixed)' '(events)' >"$T/al"
	[ ! -s "$T/al" ]
	ok $? "events $pat: the PMU rows aligned" "$T/al"
	aligned "$T/ev" '^  [a-z_0-9]+::\S+ +\S' '^  \S+ +(\S)' >"$T/al"
	[ ! -s "$T/al" ] || [ -z "$pat" ]
	ok $? "events $pat: the event descriptions start in one column" "$T/al"
done

# in a terminal: within its width when it is narrower than 100 columns, the
# help wrapped to it
if command -v script >/dev/null 2>&1 && command -v stty >/dev/null 2>&1; then
	for cols in 90 120; do
		# but the line of placement's default, a list with no space to break at
		script -qec "stty cols $cols; $PB list" /dev/null | grep -v '^    placement ' \
			>"$T/tty" 2>"$T/err"
		wide "$T/tty" $((cols < 100 ? cols : 100)) >"$T/wide"
		[ ! -s "$T/wide" ] && grep -q '^pipe' "$T/tty"
		ok $? "list in a $cols-column terminal: every line within $((cols < 100 ? cols : 100))" \
			"$T/wide"
	done
else
	skip "no script(1) or stty: no terminal to try"
	skip "no script(1) or stty: no terminal to try"
fi
echo "1..$n"
[ "$nfail" = 0 ]
