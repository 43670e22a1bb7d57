#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# mutate.sh - the mutation check: do the tests catch what they claim?
#
# Each mutant in tests/mutants.txt (or the file given as $1) is a one-line
# change to code that decides a verdict or protects data.  The tree is
# copied once to a scratch folder (the real tree is never touched); for
# each mutant the script checks its text occurs exactly once in its file,
# applies it, builds what its tests need (make, incremental), runs them,
# and puts the file back.  A mutant is killed when one of its tests fails
# (or times out); it survived when all pass.  One line per mutant, then
#   mutants: K killed, S survived, E equivalent, kill rate K/(K+S)
# Exit 0 when every mutant not marked equivalent was killed; 1 when one
# survived, its text is stale (not exactly once in its file) or its build
# failed (a mutant must compile: choose one that does); 2 on a bad list.
#
# tests/mutants.txt: records separated by blank lines, '#' lines are
# comments; in a record, one "key: value" a line (the value as it is after
# the key's colon and blanks, to the end of the line, tabs included):
#   file:   a path from the top of the tree
#   from:   the exact text to replace (it must occur exactly once)
#   to:     its replacement
#   tests:  what must kill it, blank-separated: unit/LAYER/test_x (a unit
#           binary), unit/LAYER/test_x:PATTERN (only its tests matching the
#           cmocka filter PATTERN, for binaries that honour PB_TEST_FILTER),
#           e2e/NAME.sh (an end-to-end script)
#   equivalent: why (optional): a mutant no test can kill; it is still
#           run, and counted as equivalent when it survives
#
# Environment: MUTATE_KEEP=1 keeps the scratch folder, MUTATE_ONLY=REGEX
# runs only the mutants whose "file: from" line matches, MUTATE_TIMEOUT is
# the seconds one test may take (default 300).
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
list=${1:-$top/tests/mutants.txt}
limit=${MUTATE_TIMEOUT:-300}
[ -r "$list" ] || { echo "mutate.sh: cannot read $list" >&2; exit 2; }
list=$(cd "$(dirname "$list")" && pwd)/$(basename "$list")

scratch=$(mktemp -d "${TMPDIR:-/tmp}/pb-mutate.XXXXXX") || exit 2
cleanup() {
	if [ "${MUTATE_KEEP:-0}" = 1 ]; then
		echo "# scratch tree kept: $scratch"
	else
		rm -rf "$scratch"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start=$(date +%s)
# The tree as it is in the working copy (tracked and untracked-not-ignored
# files), without build outputs: the first build is a full one.
(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
	tar --null -T - -cf -) | (cd "$scratch" && tar -xf -) ||
	{ echo "mutate.sh: cannot copy the tree to $scratch" >&2; exit 2; }
echo "# building the scratch tree $scratch"
if ! make -C "$scratch" -j2 tests >"$scratch/.build.log" 2>&1; then
	tail -20 "$scratch/.build.log"
	echo "mutate.sh: the unmutated tree does not build" >&2
	exit 2
fi

# the list as it is now: editing it during the run changes nothing
cp "$list" "$scratch/.mutants" || exit 2
killed=0 survived=0 equiv=0 broken=0 nr=0

# Run one test item in the scratch tree; 0 when it passed.
run_item() {
	local item=$1 bin filter=

	case $item in
	unit/*:*)
		bin=tests/${item%%:*}
		filter=${item#*:}
		;;
	unit/*)
		bin=tests/$item
		;;
	e2e/*.sh)
		(cd "$scratch" && timeout "$limit" sh "tests/$item") >>"$scratch/.test.log" 2>&1
		return
		;;
	*)
		echo "mutate.sh: bad test '$item'" >&2
		exit 2
		;;
	esac
	if [ -n "$filter" ]; then
		(cd "$scratch" && PB_TEST_FILTER=$filter timeout "$limit" "$bin") \
			>>"$scratch/.test.log" 2>&1
	else
		(cd "$scratch" && timeout "$limit" "$bin") >>"$scratch/.test.log" 2>&1
	fi
}

# The make targets the tests need: the unit binaries, pinbench for e2e.
targets_of() {
	local item out=""

	for item in $1; do
		case $item in
		unit/*) out="$out tests/${item%%:*}" ;;
		e2e/*) out="$out pinbench" ;;
		esac
	done
	echo "$out"
}

# One mutant: file, from, to, tests, equivalent (why, or empty).
mutant() {
	local file=$1 from=$2 to=$3 tests=$4 why=$5 path text rest verdict item t0

	nr=$((nr + 1))
	path=$scratch/$file
	t0=$(date +%s)
	if [ -z "$file" ] || [ -z "$from" ] || [ -z "$tests" ]; then
		echo "mutate.sh: $list: mutant $nr lacks file, from or tests" >&2
		exit 2
	fi
	if [ -n "${MUTATE_ONLY:-}" ] && ! printf '%s: %s\n' "$file" "$from" |
		grep -Eq -- "$MUTATE_ONLY"; then
		nr=$((nr - 1))
		return
	fi
	if [ ! -f "$path" ]; then
		printf 'STALE     %s: no such file\n' "$file"
		broken=$((broken + 1))
		return
	fi
	# $(<) drops the trailing newlines: count them to put them back
	text=$(<"$path")
	rest=${text#*"$from"}
	if [ "$rest" = "$text" ] || [ "${rest#*"$from"}" != "$rest" ]; then
		printf 'STALE     %s: "%s" is not there exactly once\n' "$file" "$from"
		broken=$((broken + 1))
		return
	fi
	cp -p "$path" "$scratch/.orig"
	printf '%s\n' "${text/"$from"/"$to"}" >"$path"
	: >"$scratch/.test.log"
	# shellcheck disable=SC2046 # one word a target
	if ! make -C "$scratch" -j2 $(targets_of "$tests") >"$scratch/.build.log" 2>&1; then
		verdict=BUILD-FAIL
		broken=$((broken + 1))
	else
		verdict=SURVIVED
		for item in $tests; do
			if ! run_item "$item"; then
				verdict="KILLED by $item"
				break
			fi
		done
	fi
	# back, newer than the mutant's object: the next build recompiles it
	cp "$scratch/.orig" "$path"
	touch "$path"
	case $verdict in
	KILLED*)
		killed=$((killed + 1))
		[ -n "$why" ] && verdict="$verdict (marked equivalent: is it?)"
		;;
	SURVIVED)
		if [ -n "$why" ]; then
			verdict="EQUIVALENT ($why)"
			equiv=$((equiv + 1))
		else
			survived=$((survived + 1))
		fi
		;;
	esac
	printf '%-9s %s: "%s" -> "%s" (%ss)\n' "${verdict%% *}" "$file" "$from" "$to" \
		$(($(date +%s) - t0))
	case $verdict in
	KILLED*|EQUIVALENT*) printf '          %s\n' "${verdict#* }" ;;
	BUILD-FAIL) tail -5 "$scratch/.build.log" | sed 's/^/          /' ;;
	esac
}

file='' from='' to='' tests='' why='' have=0
flush() {
	[ "$have" = 1 ] && mutant "$file" "$from" "$to" "$tests" "$why"
	file='' from='' to='' tests='' why='' have=0
}
while IFS= read -r line || [ -n "$line" ]; do
	case $line in
	'#'*) continue ;;
	'') flush; continue ;;
	esac
	key=${line%%:*}
	val=${line#*:}
	val=${val#"${val%%[! 	]*}"}	# the blanks after the colon
	case $key in
	file) file=$val ;;
	from) from=$val ;;
	to) to=$val ;;
	tests) tests=$val ;;
	equivalent) why=$val ;;
	*) echo "mutate.sh: $list: bad line: $line" >&2; exit 2 ;;
	esac
	have=1
done <"$scratch/.mutants"
flush

rate=n/a
[ $((killed + survived)) -gt 0 ] && rate="$killed/$((killed + survived))"
echo "mutants: $killed killed, $survived survived, $equiv equivalent, kill rate $rate" \
	"($nr mutants, $broken stale or not building, $(($(date +%s) - start)) s)"
[ "$survived" = 0 ] && [ "$broken" = 0 ]
