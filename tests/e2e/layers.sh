#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The layers of harness/ (harness/README.md): an include points down or
# sideways within a layer, never up; every source file opens with a
# comment naming itself and what it owns.  Arrows that still point up are
# listed below by file and target, and the list must be exact: an arrow
# that is cut must leave it, so it can only shrink.  Outside sys/, no file
# reads /proc or /sys but through the sysroot reader (sys/sysfs.h), and
# none prints to the user (stdout, stderr): only cli/ does.
. "$(dirname "$0")/lib.sh"

python3 - >"$T/layers.out" 2>&1 <<'PY'
import glob, re, sys

below = ["cli", "report", "net", "core", "checks", "sys", "stats", "lib"]
may = {
    "cli": set(below),
    "report": {"report", "core", "checks", "sys", "stats", "lib"},
    "net": {"net", "core", "checks", "sys", "stats", "lib"},
    "core": {"core", "checks", "sys", "stats", "lib"},
    "checks": {"checks", "sys", "stats", "lib"},
    "sys": {"sys", "lib"},
    "stats": {"stats", "lib"},
    "lib": {"lib"},
    "benches": {"core", "net", "stats", "lib", "common"},
}
# still pointing up, to be cut (file -> layer)
known = set()
files = sorted(glob.glob("harness/*/*.[ch]") + glob.glob("benches/*.[ch]") +
               glob.glob("benches/common/*.[ch]"))
bad, seen = [], set()
for f in files:
    p = f.split("/")
    layer = p[1] if p[0] == "harness" else "benches"
    if layer not in may:
        bad.append("%s: a folder that is not a layer" % f)
        continue
    text = open(f).read()
    for n, line in enumerate(text.splitlines(), 1):
        if re.match(r'#include "[a-z_]+\.h"', line) and layer != "benches":
            bad.append("%s:%d: a bare include: name the layer" % (f, n))
        m = re.match(r'#include "([a-z]+)/', line)
        if not m:
            continue
        to = m.group(1)
        if to in may[layer]:
            continue
        if (f, to) in known:
            seen.add((f, to))
        else:
            bad.append("%s:%d: %s includes %s, a layer above it" % (f, n, layer, to))
    name = f.split("/")[-1]
    stem = name.rsplit(".", 1)[0]
    head = "\n".join(text.splitlines()[:4])
    if not re.search(r"\b(%s|%s) - \S" % (re.escape(name), re.escape(stem)), head) and \
       name != "main.c":
        bad.append("%s: no opening comment '%s - what it owns'" % (f, name))
# every /proc and /sys read goes through sys/sysfs.c: outside sys/, a
# path literal is an argument of the reader (pb_sys_*), or /proc/self
raw_known = set()
raw_seen = set()
for f in files:
    if f.startswith("harness/sys/"):
        continue
    for n, line in enumerate(open(f).read().splitlines(), 1):
        if not re.search(r'"/(proc|sys)/', line) or "/proc/self" in line or "pb_sys_" in line:
            continue
        if f in raw_known:
            raw_seen.add(f)
        else:
            bad.append("%s:%d: reads /proc or /sys around the sysroot reader" % (f, n))
# only cli/ prints to the user: no stdout, stderr, printf, puts, perror
# below it (a report writes to the FILE * cli hands in)
for f in files:
    if f.startswith("harness/cli/"):
        continue
    for n, line in enumerate(open(f).read().splitlines(), 1):
        code = line.split("/*")[0].split("//")[0]
        if re.search(r"\b(stderr|stdout)\b|(^|[^a-z_])(printf|puts|putchar|perror)\(", code) \
           and not code.lstrip().startswith("*"):
            bad.append("%s:%d: prints to the user below cli/" % (f, n))
for f in sorted(raw_known - raw_seen):
    bad.append("%s reads through sys/sysfs.h now: take it off raw_known" % f)
for f, to in sorted(known - seen):
    bad.append("%s -> %s is cut: take it off the known list" % (f, to))
if bad:
    print("\n".join(bad))
print("%d files, %d arrows still up, %d files reading /proc or /sys directly" %
      (len(files), len(seen), len(raw_seen)))
sys.exit(1 if bad else 0)
PY
ok $? "the layers hold: includes point down, /proc and /sys only through the reader, only cli prints" "$T/layers.out"
comment "$T/layers.out" 3
done_testing
