#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Comparable, or refused: the environment a run records (a fake sysroot),
# compare printing where two hand-made results' machines differ
# (mitigations, cmdline, microcode, THP, CPU model) in text, markdown and
# json, within 100 columns (plot: on stderr); plot refusing different
# workload keys unless --allow-different; nightly setting such tables
# aside, saying why.
. "$(dirname "$0")/lib.sh"
need_pinbench
genresults

# What a run records, under a fake root: pinbench doctor --format json
# stores the same environment object as every result file.
PINBENCH_SYSROOT=tests/sysroot/mitigations "$PB" doctor --format json >"$T/doc.json" 2>"$T/err"
check "the recorded environment has cmdline, vulnerabilities, microcode, THP, governor, SMT" \
	pyjson "$T/doc.json" '((e := d["environment"]) and
	e["cmdline"].endswith("spectre_v2=retpoline quiet") and
	e["vulnerabilities"]["meltdown"] == "Mitigation: PTI" and
	e["vulnerabilities"]["spectre_v2"].startswith("Mitigation: Retpolines;") and
	e["microcode"] == {"cpuinfo": "0x5003604", "version": "0x5003604"} and
	e["thp"] == {"enabled": "madvise", "defrag": "madvise"} and
	e["cpufreq"]["governor"] == "performance" and e["smt"] == {"control": "on", "active": True})'
PINBENCH_SYSROOT=tests/sysroot/empty "$PB" doctor --format json >"$T/doc.json" 2>"$T/err"
check "an empty root: each of them null, not an error" \
	pyjson "$T/doc.json" '((e := d["environment"]) and e["cmdline"] is None and
	e["vulnerabilities"] is None and e["microcode"] == {"cpuinfo": None, "version": None} and
	e["thp"] == {"enabled": None, "defrag": None})'

# Two results of the same jobs, made on machines that differ.
mkdir "$T/r"
$G -o "$T/r/a.json" --label 6.1 --seed 1 &&
	$G -o "$T/r/b.json" --label 6.2 --seed 2 --shift 3 &&
	$G -o "$T/r/c.json" --label 6.3 --seed 3
ok $? "fixtures generated"
python3 - "$T/r" <<'PY'
import json, sys
d = sys.argv[1]
def env(name, model, cmdline, spectre, micro, thp, more=None, idle="menu"):
    path = "%s/%s.json" % (d, name)
    r = json.load(open(path))
    h = r["host"]
    h["cpu_model"] = model
    h["topology"] = {"packages": 1, "cores": 2, "pus": 2, "llcs": 1, "numa_nodes": 1,
                     "smt": False}
    v = {"meltdown": "Mitigation: PTI", "spectre_v2": spectre}
    v.update(more or {})
    h["environment"] = {"cmdline": cmdline, "vulnerabilities": v,
                        "microcode": {"cpuinfo": micro, "version": None},
                        "thp": {"enabled": thp, "defrag": "madvise"},
                        "cpufreq": {"governor": "performance"},
                        "smt": {"control": "notsupported", "active": False},
                        "cpuidle": {"driver": "intel_idle", "governor": idle}}
    json.dump(r, open(path, "w"))
xeon = "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz"
env("a", xeon, "BOOT_IMAGE=/boot/vmlinuz-6.1 root=/dev/vda1 ro quiet",
    "Mitigation: Retpolines", "0x5003604", "madvise")
env("b", xeon, "BOOT_IMAGE=/boot/vmlinuz-6.2 root=/dev/vda1 ro quiet mitigations=off",
    "Vulnerable", "0x5003605", "always", {"gather_data_sampling": "Not affected"}, "teo")
env("c", "AMD EPYC 7B13 64-Core Processor",
    "BOOT_IMAGE=/boot/vmlinuz-6.3 root=/dev/vda1 ro quiet",
    "Mitigation: Retpolines", "0x5003604", "madvise")
PY
ok $? "environments written"

"$PB" compare "$T/r/a.json" "$T/r/b.json" >"$T/ab.txt" 2>"$T/err"
ok $? "compare of two environments exits 0"
WHY=$T/ab.txt
check "text: mitigations differ, named, with both values" \
	grep -qx "mitigations differ: spectre_v2: 6.1: Mitigation: Retpolines; 6.2: Vulnerable" \
	"$T/ab.txt"
check "text: a vulnerability one kernel does not list" grep -qx \
	"mitigations differ: gather_data_sampling: 6.1: (absent); 6.2: Not affected" "$T/ab.txt"
check "text: the cmdline words not in both (BOOT_IMAGE aside)" grep -qx \
	"cmdline differs: 6.1: (only shared words); 6.2: mitigations=off" "$T/ab.txt"
check "text: microcode differs" grep -qx "microcode differs: 6.1: 0x5003604; 6.2: 0x5003605" \
	"$T/ab.txt"
check "text: THP differs" grep -qx "THP differs: enabled: 6.1: madvise; 6.2: always" "$T/ab.txt"
check "text: cpuidle differs (the governor)" grep -qx \
	"cpuidle differs: 6.1: intel_idle (governor menu); 6.2: intel_idle (governor teo)" "$T/ab.txt"
! grep -q "warning:\|governor differs\|SMT differs\|meltdown\|defrag" "$T/ab.txt"
ok $? "text: nothing said of what is the same (one CPU model, governor, SMT, meltdown)"
# above the tables: every difference comes before the first table's title
first=$(grep -n "^mitigations differ" "$T/ab.txt" | head -n 1 | cut -d: -f1)
table=$(grep -n " — same-cpu" "$T/ab.txt" | head -n 1 | cut -d: -f1)
[ -n "$first" ] && [ -n "$table" ] && [ "$first" -lt "$table" ]
ok $? "text: the differences are above the tables (line $first, table at $table)"
WHY=

"$PB" compare "$T/r/a.json" "$T/r/c.json" >"$T/ac.txt" 2>"$T/err"
WHY=$T/ac.txt
check "text: different CPU models, a warning with each model" sh -c "
	grep -qx 'warning: the results come from different CPU models:' '$T/ac.txt' &&
	grep -qx '  6.1: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz' '$T/ac.txt' &&
	grep -qx '  6.3: AMD EPYC 7B13 64-Core Processor' '$T/ac.txt'"
WHY=
"$PB" compare "$T/r" >"$T/abc.txt" 2>"$T/err"
check "three labels: the ones that agree share a value" grep -qx \
	"mitigations differ: spectre_v2: 6.1, 6.3: Mitigation: Retpolines; 6.2: Vulnerable" \
	"$T/abc.txt"

"$PB" compare --format markdown "$T/r/a.json" "$T/r/b.json" >"$T/ab.md" 2>"$T/err"
WHY=$T/ab.md
check "markdown: the differences as list items above the tables" sh -c "
	grep -qx -- '- mitigations differ: spectre_v2: 6.1: Mitigation: Retpolines; 6.2: Vulnerable' \
		'$T/ab.md' &&
	grep -qx -- '- cmdline differs: 6.1: (only shared words); 6.2: mitigations=off' '$T/ab.md' &&
	[ \$(grep -n '^- mitigations' '$T/ab.md' | head -n 1 | cut -d: -f1) -lt \
	  \$(grep -n '^### ' '$T/ab.md' | head -n 1 | cut -d: -f1) ]"
"$PB" compare --format markdown "$T/r/a.json" "$T/r/c.json" >"$T/ac.md" 2>"$T/err"
check "markdown: the CPU model warning" grep -qx -- \
	"- warning: the results come from different CPU models:" "$T/ac.md"
WHY=

"$PB" compare --format json "$T/r" >"$T/abc.json" 2>"$T/err"
ok $? "compare --format json exits 0"
check "json: environment_differences, with kind, item, values and message" python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))["environment_differences"]
m = [x for x in e if x["kind"] == "mitigations" and x["item"] == "spectre_v2"][0]
c = [x for x in e if x["kind"] == "cpu_model"][0]
assert m["values"] == [{"value": "Mitigation: Retpolines", "groups": ["6.1", "6.3"]},
                       {"value": "Vulnerable", "groups": ["6.2"]}], m
assert not m["warning"] and c["warning"], e
assert c["message"].startswith("warning: the results come from different CPU models: "), c
assert [x["kind"] for x in e] == ["cpu_model", "mitigations", "mitigations", "cmdline",
                                  "microcode", "thp", "cpuidle"], e
' "$T/abc.json"
"$PB" compare --format json "$T/r/a.json" "$T/r/a.json" >"$T/aa.json" 2>"$T/err"
check "json: one machine, no differences (an empty array)" \
	pyjson "$T/aa.json" 'd["environment_differences"] == []'
"$PB" compare --format csv "$T/r" >"$T/abc.csv" 2>"$T/err"
check "csv: data rows only, no difference lines" sh -c "! grep -q 'differ' '$T/abc.csv'"

# An old result (no environment, no topology): only what it does say is compared.
$G -o "$T/old.json" --label 5.0 --seed 5 --old
"$PB" compare --format json "$T/r/a.json" "$T/old.json" >"$T/old.out" 2>"$T/err"
check "a result without an environment: no differences invented" \
	pyjson "$T/old.out" '[x["kind"] for x in d["environment_differences"]] == ["cpu_model"]'

# Different hosts: a warning, except when grouping by host.
$G -o "$T/h1.json" --label 6.1 --seed 1 --host alpha &&
	$G -o "$T/h2.json" --label 6.2 --seed 2 --host beta
"$PB" compare "$T/h1.json" "$T/h2.json" >"$T/h.txt" 2>"$T/err"
check "different hosts: a warning" grep -qx \
	"warning: the results come from different hosts: 6.1: alpha; 6.2: beta" "$T/h.txt"
"$PB" compare --group-by host "$T/h1.json" "$T/h2.json" >"$T/h.txt" 2>"$T/err"
check "grouped by host: no warning about it" sh -c "! grep -q 'different hosts' '$T/h.txt'"
$G -o "$T/h3.json" --label 6.1 --seed 3 --host beta
"$PB" compare "$T/h1.json" "$T/h3.json" "$T/h2.json" >"$T/h.txt" 2>"$T/err"
check "one label made on two hosts: a warning, the first file's host compared" sh -c "
	grep -qx 'warning: the files of 6.1 differ among themselves in host; the first one.s are compared' '$T/h.txt' &&
	grep -qx 'warning: the results come from different hosts: 6.1: alpha; 6.2: beta' '$T/h.txt'"

# Long values: wrapped between words within 100 columns, a word too long
# for a line cut with an ellipsis.
python3 - "$T/r/a.json" "$T/r/b.json" "$T/w" <<'PY'
import json, os, sys
os.mkdir(sys.argv[3])
for i, (src, spectre, extra) in enumerate([
        (sys.argv[1], "Mitigation: Retpolines; IBPB: conditional; IBRS_FW; STIBP: disabled; "
         "RSB filling; PBRSB-eIBRS: Not affected; BHI: Retpoline", "y" * 130),
        (sys.argv[2], "Mitigation: Enhanced / Automatic IBRS; IBPB: conditional; RSB filling; "
         "PBRSB-eIBRS: SW sequence; BHI: BHI_DIS_S", " ".join("opt%d=on" % k for k in range(30)))]):
    d = json.load(open(src))
    d["host"]["environment"]["vulnerabilities"]["spectre_v2"] = spectre
    d["host"]["environment"]["cmdline"] += " " + extra
    d["label"] = "kernel-with-a-rather-long-label-number-%d" % i
    json.dump(d, open("%s/%d.json" % (sys.argv[3], i), "w"))
PY
"$PB" compare "$T/w" >"$T/w.txt" 2>"$T/err"
LC_ALL=C sed 's/[\x80-\xbf]//g' "$T/w.txt" |
	awk '{ n = length($0); if (n > 100) { print "# " n ": " $0; bad = 1 } } END { exit bad }'
ok $? "long values: every line at most 100 columns"
WHY=$T/w.txt
check "a value with '; ' in it: the head, then a line per label" sh -c "
	grep -qx 'mitigations differ: spectre_v2:' '$T/w.txt' &&
	grep -q '^  kernel-with-a-rather-long-label-number-0: Mitigation: Retpolines; IBPB:' '$T/w.txt' &&
	grep -q '^      .*BHI: Retpoline\$' '$T/w.txt'"
check "a word longer than a line ends in an ellipsis" grep -q '^      yyyy*…$' "$T/w.txt"
check "cmdline words wrapped between words" grep -q '^      opt[0-9]*=on opt' "$T/w.txt"
WHY=

# plot says the differences on stderr (here before it finds no gnuplot).
PATH=/nonexistent "$PB" plot "$T/r/a.json" "$T/r/b.json" -o "$T/e.png" >/dev/null 2>"$T/err"
check "plot: the environment differences on stderr" grep -qx \
	"mitigations differ: spectre_v2: 6.1: Mitigation: Retpolines; 6.2: Vulnerable" "$T/err"

# plot: different workload keys refused, --allow-different accepts.
mkdir "$T/keys"
python3 - "$T/r/a.json" "$T/r/b.json" "$T/keys" <<'PY'
import json, sys
for i, (src, size) in enumerate([(sys.argv[1], "1"), (sys.argv[2], "64")]):
    d = json.load(open(src))
    for j in d["jobs"]:
        j["params"]["size"] = size
    json.dump(d, open("%s/k%d.json" % (sys.argv[3], i), "w"))
PY
exits2 "plot: different workload keys refused, naming the key, values and labels" \
	"pinbench plot: .*different keys, size: 1 (6.1) vs 64 (6.2): compare like with like, or --allow-different size" \
	"$PB" plot "$T/keys" -o "$T/k.png"
[ ! -e "$T/k.png" ] && [ ! -e "$T/k.dat" ]
ok $? "plot: nothing written when refused"
if command -v gnuplot >/dev/null 2>&1; then
	check "plot --allow-different size: plotted" \
		"$PB" plot --allow-different size "$T/keys" -o "$T/k.png"
	check "plot --allow-different size: the image is there" test -s "$T/k.png"
else
	PATH=/nonexistent "$PB" plot --allow-different size "$T/keys" -o "$T/k.png" \
		>/dev/null 2>"$T/err"
	grep -q gnuplot "$T/err" && ! grep -q "different keys" "$T/err"
	ok $? "plot --allow-different size: past the refusal (to the missing gnuplot)"
	skip "plot --allow-different size: the image: gnuplot not installed"
fi

# nightly against a kernel whose keys differ: the table is set aside, said
# in report.md and on stdout, not judged; exit 0 (nothing else regressed).
cat >"$T/fake-run" <<EOT
#!/bin/sh
mkdir -p "\$1/\$2" && out="\$1/\$2/\$(date -u +%Y%m%dT%H%M%S%N)-quick.json" &&
"$G" -o "\$out" --label "\$2" --config configs/quick.ini --seed \$FAKE_SEED \
	--shift \$FAKE_SHIFT && exec python3 - "\$out" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
for j in d["jobs"]:
    if j["name"] == "pingpong":
        j["params"]["size"] = os.environ["FAKE_SIZE"]
json.dump(d, open(sys.argv[1], "w"))
PY
EOT
chmod +x "$T/fake-run"
export PINBENCH_RUN_STANDIN="$T/fake-run"
FAKE_SEED=1 FAKE_SHIFT=0 FAKE_SIZE=1 "$PB" nightly configs/quick.ini --history "$T/n" \
	--label 6.1.0-17-amd64 --no-plot >"$T/n1" 2>&1
ok $? "nightly: the first kernel"
# Three more nights of it (A/A): the variation between boots, for a verdict
# on one night of the next kernels at the boot level.
for s in 11 12 13; do
	FAKE_SEED=$s FAKE_SHIFT=0 FAKE_SIZE=1 "$PB" nightly configs/quick.ini --history "$T/n" \
		--label 6.1.0-17-amd64 --no-plot >/dev/null 2>&1 || break
done
ok $? "nightly: three A/A nights of the first kernel"
FAKE_SEED=2 FAKE_SHIFT=5 FAKE_SIZE=64 "$PB" nightly configs/quick.ini --history "$T/n" \
	--label 6.1.0-18-amd64 --no-plot >"$T/n2" 2>&1
rc=$?
md=$T/n/6.1.0-18-amd64/report.md
WHY=$T/n2
[ $rc = 0 ]
ok $? "nightly: only the set-aside tables regress (rtt +5 %): exit 0 (exit $rc)"
check "nightly: stdout says which table was not compared and why" grep -q \
	"^pinbench nightly: not compared: pingpong (same-cpu): the results were made with different keys, size: 1 (6.1.0-17-amd64) vs 64 (6.1.0-18-amd64)" \
	"$T/n2"
check "nightly: report.md says it too" grep -q \
	"^- \*\*not compared\*\*: pingpong (same-cpu): .*size: 1 (6.1.0-17-amd64) vs 64" "$md"
check "nightly: the set-aside cells say so, no verdict in them" sh -c "
	sed -n '/^### pingpong/,/^### stream/p' '$md' | grep -q 'not compared: size differs' &&
	! sed -n '/^### pingpong/,/^### stream/p' '$md' | grep -q 'regression'"
check "nightly: the other tables are judged" grep -q "improvement" "$md"
FAKE_SEED=3 FAKE_SHIFT=0 FAKE_SIZE=1 "$PB" nightly configs/quick.ini --history "$T/n" \
	--label 6.1.0-19-amd64 --no-plot >"$T/n3" 2>&1
rc=$?
WHY=$T/n3
[ $rc = 1 ] && grep -q "not compared: pingpong" "$T/n3" && grep -Eq "% \[.*\] q[=<][0-9.]+ regression" "$T/n3"
ok $? "nightly: a regression in a table still judged (stream -5 %): exit 1 (exit $rc)"
WHY=

done_testing
