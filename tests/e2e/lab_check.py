# SPDX-License-Identifier: GPL-2.0-only
"""lab_check.py - read pinbench export's output as the lab tools do.

  lab_check.py ktap FILE      a KTAP v1 parser (Documentation/dev-tools/ktap.rst):
                              prints one JSON object per test, or exits 1 naming
                              the first line that breaks the spec
  lab_check.py junit FILE     Debian's python3-junitparser: one JSON object per
                              testcase (suite, classname, name, result, message,
                              properties); exit 3 when junitparser is missing
  lab_check.py lava FILE      LAVA_SIGNAL_TESTCASE lines as lava-dispatcher reads
                              them (its own regex and parameter rules): one JSON
                              object per case

Run it with /usr/bin/python3 (Debian's packages import from there).
"""
import json
import re
import sys

RESULT = re.compile(r"^(ok|not ok) ([0-9]+)(?: ([^#]*?))?(?: # ?(.*))?$")
DIRECTIVES = ("SKIP", "TODO", "XFAIL", "TIMEOUT", "ERROR")


def fail(msg):
    print("ktap: " + msg)
    sys.exit(1)


def ktap(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0] != "KTAP version 1":
        fail("line 1: want 'KTAP version 1', got %r" % (lines[0] if lines else ""))
    plan = None
    tests = []
    for no, line in enumerate(lines[1:], 2):
        if line.startswith("#"):
            continue                        # a diagnostic line
        if line.startswith(" "):
            fail("line %d: an indented line, but no subtests are expected" % no)
        if re.match(r"^1\.\.[0-9]+$", line):
            if plan is not None or tests:
                fail("line %d: a plan after the plan or after a test" % no)
            plan = int(line[3:])
            continue
        m = RESULT.match(line)
        if not m:
            fail("line %d: neither a plan, a result nor a diagnostic: %r" % (no, line))
        if plan is None:
            fail("line %d: a result before the plan" % no)
        num = int(m.group(2))
        if num != len(tests) + 1:
            fail("line %d: test number %d, want %d" % (no, num, len(tests) + 1))
        desc = (m.group(3) or "").strip()
        if not desc:
            fail("line %d: no description" % no)
        diag = m.group(4) or ""
        word = diag.split(" ", 1)[0] if diag else ""
        directive = word if word in DIRECTIVES else None
        if directive:
            diag = diag[len(word):].strip()
        if directive in ("TIMEOUT", "ERROR") and m.group(1) == "ok":
            fail("line %d: %s wants 'not ok'" % (no, directive))
        tests.append({"number": num, "ok": m.group(1) == "ok", "name": desc,
                      "directive": directive, "diagnostic": diag})
    if plan is None:
        fail("no plan line")
    if plan != len(tests):
        fail("plan 1..%d, %d results" % (plan, len(tests)))
    for t in tests:
        print(json.dumps(t))


def junit(path):
    try:
        from junitparser import JUnitXml, Failure, Error, Skipped, Properties
    except ImportError as exc:
        print("junitparser: %s" % exc)
        sys.exit(3)
    xml = JUnitXml.fromfile(path)
    for suite in xml:
        sprops = {p.name: p.value for p in suite.properties()}
        for case in suite:
            result, message, kind = "pass", None, None
            for r in case.result:
                if isinstance(r, (Failure, Error, Skipped)):
                    result = {Failure: "failure", Error: "error", Skipped: "skipped"}[type(r)]
                    message, kind = r.message, r.type
            props = {}
            p = case.child(Properties)
            if p is not None:
                props = {x.name: x.value for x in p}
            print(json.dumps({"suite": suite.name, "suite_tests": suite.tests,
                              "suite_failures": suite.failures,
                              "suite_errors": suite.errors,
                              "suite_skipped": suite.skipped,
                              "suite_properties": sprops,
                              "classname": case.classname, "name": case.name,
                              "result": result, "type": kind, "message": message,
                              "properties": props}))


def lava(path):
    # lava_dispatcher/actions/test/shell.py: the "signal" pattern and handle_testcase()
    signal = re.compile(r"<LAVA_SIGNAL_(\S+) ([^>]+)>")
    for line in open(path, encoding="utf-8"):
        m = signal.search(line)
        if not m or m.group(1) != "TESTCASE":
            continue
        data = {}
        for param in m.group(2).split():
            parts = param.split("=")
            if len(parts) != 2:
                print("lava: malformed parameter %r in %r" % (param, line))
                sys.exit(1)
            data[parts[0].lower()] = parts[1]
        if data.get("result") not in ("pass", "fail", "skip", "unknown"):
            print("lava: bad result in %r" % line)
            sys.exit(1)
        if "measurement" in data:
            data["measurement"] = float(data["measurement"])
        print(json.dumps(data))


if __name__ == "__main__":
    {"ktap": ktap, "junit": junit, "lava": lava}[sys.argv[1]](sys.argv[2])
