#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The manual against the program: every option a command's --help lists is
# in its man page's OPTIONS, and every option the page documents there is in
# --help; every command of 'pinbench --help' has its line in pinbench(1) and
# the reverse; every job key 'pinbench list --format json' reports is in
# pinbench-jobfile(5); every page builds with scdoc without a warning; the
# README stays a README (200 lines at most).  One TAP line per check.
. "$(dirname "$0")/lib.sh"
need_pinbench
doc=doc

# The options of one text, one per line: in "usage:" lines (and the lines
# that continue them with "pinbench"), and on the lines of --help that begin
# with an option.  From an scd page: its OPTIONS section's entry lines (those
# that begin with "*-").
opts_help() {
	sed -n -e '/^usage:/p' -e '/^ *pinbench /p' -e '/^  *-/p' "$1" |
		grep -oE '(^|[] [,(|])--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^[] [,(|]//' | sort -u
}
opts_page() {
	sed -n '/^# OPTIONS/,/^# /p' "$1" | grep '^\*-' | tr -d '*' |
		grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^[ ,]//' | sort -u
}
# same WHAT A B: the two sorted lists are equal, the difference shown
same() {
	comm -3 "$2" "$3" | sed -e 's/^\t/only in the page: /' -e 's/^[^o]/only in --help: &/' \
		>"$T/diff"
	[ ! -s "$T/diff" ]
	ok $? "$1" "$T/diff"
}

for c in run bench list topo events doctor compare plot report export nightly server calibrate \
	campaign bisect-check; do
	page=$doc/pinbench-$c.1.scd
	[ "$c" = bench ] && page=$doc/pinbench-run.1.scd
	if [ ! -f "$page" ]; then
		ok 1 "$c: $page exists"
		continue
	fi
	"$PB" "$c" --help >"$T/help" 2>&1
	opts_help "$T/help" >"$T/h"
	opts_page "$page" >"$T/p"
	[ -s "$T/h" ] || echo "pinbench $c --help lists no option" >"$T/h.why"
	[ -s "$T/h" ]
	ok $? "$c: --help lists options" "$T/h.why"
	same "$c: the options of --help and of $page's OPTIONS are the same" "$T/h" "$T/p"
done

# The commands: 'pinbench --help' against pinbench(1)'s COMMANDS entries.
"$PB" --help 2>&1 | sed -n '/^commands:/,/^$/p' | awk 'NF && !/:$/ { print $1 }' | sort -u >"$T/h"
sed -n '/^# COMMANDS/,/^# /p' $doc/pinbench.1.scd | grep '^\*[a-z]' |
	sed 's/^\*\([a-z-]*\)\*.*/\1/' | sort -u >"$T/p"
[ -s "$T/h" ]
ok $? "pinbench --help lists commands"
same "the commands of pinbench --help and of pinbench.1.scd's COMMANDS are the same" "$T/h" "$T/p"

# Job keys: each common key an entry of KEYS OF EVERY JOB (a table row or a
# definition), each workload's key an entry under its workload, and no
# entry for a key pinbench does not know.
if "$PB" list --format json >"$T/list.json" 2>"$T/err"; then
	python3 - "$T/list.json" $doc/pinbench-jobfile.5.scd >"$T/keys" 2>&1 <<'PY'
import json, re, sys

d = json.load(open(sys.argv[1]))
scd = open(sys.argv[2]).read()

def section(text, head, level):
    m = re.search(r"(?m)^%s %s\n" % (level, re.escape(head)), text)
    if not m:
        return None
    end = re.search(r"(?m)^#{1,%d} " % len(level), text[m.end():])
    return text[m.end():m.end() + end.start() if end else len(text)]

def entries(text):
    """Keys a section documents: "|  *key*" table rows, "*key*" definitions."""
    rows = re.findall(r"(?m)^\|  \*([a-z\\_]+)\*$", text)
    defs = re.findall(r"(?m)^\*([a-z\\_]+)\*(?: \(|$)", text)
    return {k.replace("\\_", "_") for k in rows + defs}

bad = []
common = section(scd, "KEYS OF EVERY JOB", "#")
have = entries(common or "")
want = {k["name"] for k in d["common_keys"]}
bad += ["common key %s: not in KEYS OF EVERY JOB" % k for k in sorted(want - have)]
bad += ["KEYS OF EVERY JOB: %s is no common key" % k for k in sorted(have - want)]
for b in d["benches"]:
    text = section(scd, b["name"].replace("_", "\\_"), "##")
    have = entries(text or "")
    want = {k["name"] for k in b["keys"]}
    bad += ["%s: key %s not in its section" % (b["name"], k) for k in sorted(want - have)]
    bad += ["%s: %s is none of its keys" % (b["name"], k) for k in sorted(have - want)]
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	ok $? "every job key of pinbench list is in pinbench-jobfile.5.scd, and no other" "$T/keys"
else
	ok 1 "pinbench list --format json runs" "$T/err"
fi

# Every page builds, without a word on stderr.
if command -v scdoc >/dev/null 2>&1; then
	for s in "$doc"/*.scd; do
		scdoc <"$s" >"$T/page" 2>"$T/err"
		rc=$?
		[ "$rc" = 0 ] && [ ! -s "$T/err" ] && [ -s "$T/page" ]
		ok $? "scdoc builds $s without a warning (exit $rc)" "$T/err"
	done
else
	skip "no scdoc (tests/deps.sh installs it)"
fi

lines=$(wc -l <README.md)
[ "$lines" -le 200 ]
ok $? "README.md is at most 200 lines ($lines)"

done_testing
