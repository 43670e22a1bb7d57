#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Result files as a hostile user plants them: a file over the size cap is
# refused naming the file and the cap; a symlink planted in a folder of
# results or a history (to a file the user may not read) is not followed
# and is named, and no error quotes a file's bytes (stderr, report.md);
# values the published schema forbids (a negative rtt, better "sideways",
# status "weird", round -3) are refused with the file and the JSON path.
# Exit 2 for each.
. "$(dirname "$0")/lib.sh"
need_pinbench
genresults
$G -o "$T/a.json" --label 6.1 --seed 1 && $G -o "$T/b.json" --label 6.2 --seed 2 --shift 4
ok $? "fixtures generated"

# ---- the size cap (64 MiB): a sparse file just over it, a valid start
F=$T/huge.json
printf '{"schema": "pinbench-result/1", "jobs": [' >"$F" &&
	truncate -s $((64 * 1024 * 1024 + 1)) "$F"
ok $? "a 64 MiB + 1 byte file"
exits2 "compare: a file over the cap is refused, naming the file and the cap" \
	"huge.json: over 64 MiB, the cap for a result file" "$PB" compare "$F"
exits2 "export: the same" "huge.json: over 64 MiB, the cap" "$PB" export --format junit "$F"
mkdir "$T/big" && cp "$T/a.json" "$T/big/" && ln "$F" "$T/big/huge.json"
"$PB" compare "$T/big" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 0 ] && grep -q "skipping .*huge.json: over 64 MiB" "$T/err"
ok $? "in a folder it is skipped with the same words, the rest compared (exit $rc)" "$T/err"

# ---- no error quotes the file: a secret the reader may read (root), behind
# a symlink; and a corrupt file's own bytes
SECRET=TOPSECRET-4f9c
printf '{"schema": "%s\n' "$SECRET" >"$T/secret"	# jansson quotes the string
chmod 600 "$T/secret"
mkdir -p "$T/h/x" && cp "$T/a.json" "$T/h/x/" && ln -s ../../secret "$T/h/x/x.json"
"$PB" compare "$T/h" >"$T/out" 2>"$T/err"
rc=$?
WHY=$T/err
grep -q "skipping .*h/x/x.json: a symbolic link, not followed" "$T/err"
ok $? "compare of a folder: a planted file symlink is refused, named (exit $rc)"
! grep -q "$SECRET" "$T/out" "$T/err"
ok $? "compare of a folder: nothing of the linked file in the output"
"$PB" export --format junit "$T/h" >"$T/out" 2>"$T/err"
grep -q "h/x/x.json: a symbolic link, not followed" "$T/err" &&
	! grep -q "$SECRET" "$T/out" "$T/err"
ok $? "export of a folder: the same"

printf '{"schema": "pinbench-result/1", "jobs": ["%s\n' "$SECRET" >"$T/corrupt.json"
exits2 "a corrupt file named: exit 2, file, line and column" \
	"corrupt.json: cannot read: .*(line 1, column [0-9]*)" "$PB" compare "$T/corrupt.json"
! grep -q "$SECRET" "$T/exits2.err" && ! grep -q "near '" "$T/exits2.err"
ok $? "... and its bytes are not quoted" "$T/exits2.err"

# the history of nightly (a stand-in for `pinbench run` files tonight's result)
JOB=$T/hist.ini
printf '[global]\nbench=pipe\n\n[pingpong]\npattern=pingpong\n' >"$JOB"
H=$T/hist
mkdir -p "$H/6.1" "$H/x"
cp "$T/a.json" "$H/6.1/20260101T000000-hist.json"
ln -s ../../secret "$H/x/x.json"
cat >"$T/fake-run" <<'EOT'
#!/bin/sh
mkdir -p "$1/$2" && cp "$NEXT" "$1/$2/$(date -u +%Y%m%dT%H%M%S%N)-hist.json"
EOT
chmod +x "$T/fake-run"
NEXT=$T/b.json PINBENCH_RUN_STANDIN=$T/fake-run "$PB" nightly "$JOB" --history "$H" \
	--label 6.2 --no-plot >"$T/out" 2>"$T/err"
rc=$?
cat "$T/out" "$T/err" "$H/6.2/report.md" >"$T/all" 2>/dev/null
WHY=$T/all
grep -q "x/x.json: a symbolic link, not followed" "$T/err"
ok $? "nightly: the planted symlink in the history is named, not followed (exit $rc)"
[ -f "$H/6.2/report.md" ] && ! grep -q "$SECRET" "$T/all"
ok $? "nightly: nothing of the linked file on stderr, stdout or in report.md"

# ---- what the schema forbids, refused with the file and the JSON path
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
d = json.load(open(t + "/a.json"))
def bad(name, edit):
    e = json.loads(json.dumps(d))
    edit(e)
    json.dump(e, open("%s/%s.json" % (t, name), "w"))
bad("rtt", lambda e: e["jobs"][1]["repeats"][0].__setitem__("value", -3.5))
bad("better", lambda e: e["jobs"][0]["metric"].__setitem__("better", "sideways"))
bad("status", lambda e: e["jobs"][2].__setitem__("status", "weird"))
bad("round", lambda e: e["jobs"][0].__setitem__("round", -3))
bad("severity", lambda e: e["anomalies"].append(
    {"kind": "k", "severity": "fatal", "message": "m", "advice": ""}))
bad("summary", lambda e: e["jobs"][0]["summary"].__setitem__("n", 0))
PY
ok $? "files with values the schema forbids"
exits2 "a negative rtt" "rtt.json: not a pinbench result: jobs\[1\].repeats\[0\].value: negative" \
	"$PB" compare "$T/rtt.json"
exits2 "better \"sideways\"" \
	"better.json: not a pinbench result: jobs\[0\].metric.better: another string, want \"lower\" or \"higher\"" \
	"$PB" compare "$T/better.json"
exits2 "status \"weird\"" "status.json: not a pinbench result: jobs\[2\].status: another string" \
	"$PB" compare "$T/status.json"
exits2 "round -3" "round.json: not a pinbench result: jobs\[0\].round: below 1" \
	"$PB" compare "$T/round.json"
exits2 "a run anomaly of severity \"fatal\"" "severity.json: .*anomalies\[0\].severity" \
	"$PB" compare "$T/severity.json"
exits2 "summary.n 0" "summary.json: .*jobs\[0\].summary.n: below 1" "$PB" compare "$T/summary.json"
exits2 "export refuses it too" "rtt.json: not a pinbench result" "$PB" export --format junit "$T/rtt.json"
mkdir "$T/mix" && cp "$T/a.json" "$T/b.json" "$T/round.json" "$T/mix/"
"$PB" compare "$T/mix" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 0 ] && grep -q "skipping .*round.json: not a pinbench result: jobs\[0\].round" "$T/err"
ok $? "in a folder: skipped and named, the rest compared (exit $rc)" "$T/err"
done_testing
