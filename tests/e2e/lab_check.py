# SPDX-License-Identifier: GPL-2.0-only
"""lab_check.py - read pinbench export's output as the lab tools do.

  lab_check.py ktap FILE      tests/e2e/ktap_check.py, the KTAP v1 grammar
                              (Documentation/dev-tools/ktap.rst): one JSON object
                              per test, or exit 1 naming the first line that
                              breaks it
  lab_check.py junit FILE     Debian's python3-junitparser: one JSON object per
                              testcase (suite, classname, name, result, message,
                              properties); exit 3 when junitparser is missing
  lab_check.py lava FILE      LAVA_SIGNAL_TESTCASE lines as lava-dispatcher reads
                              them (its own regex and parameter rules): one JSON
                              object per case, with "log", the lines between its
                              STARTTC and ENDTC signals (LAVA keeps them as the
                              case's log)

Run it with /usr/bin/python3 (Debian's packages import from there).
"""
import json
import re
import sys


def ktap(path):
    import os
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import ktap_check
    sys.exit(ktap_check.main(path))


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
    # lava_dispatcher/actions/test/shell.py: the "signal" pattern and handle_testcase();
    # STARTTC and ENDTC are markers, the lines between them the case's log in LAVA
    signal = re.compile(r"<LAVA_SIGNAL_(\S+) ([^>]+)>")
    logs, open_tc = {}, None
    for line in open(path, encoding="utf-8"):
        m = signal.search(line)
        if m and m.group(1) in ("STARTTC", "ENDTC"):
            open_tc = m.group(2).split()[0] if m.group(1) == "STARTTC" else None
            if open_tc:
                logs[open_tc] = []
            continue
        if open_tc is not None:
            logs[open_tc].append(line.rstrip("\n"))
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
        if data.get("test_case_id") in logs:
            data["log"] = logs[data["test_case_id"]]
        print(json.dumps(data))


if __name__ == "__main__":
    {"ktap": ktap, "junit": junit, "lava": lava}[sys.argv[1]](sys.argv[2])
