# SPDX-License-Identifier: GPL-2.0-only
"""ktap_check.py - a KTAP version 1 checker written to the grammar of the
kernel's Documentation/dev-tools/ktap.rst (no code of the kernel's
kunit_parser.py is in it):

  ktap          := version [plan] line* [plan-at-end: refused, see below]
  version       := INDENT "KTAP version 1"
  plan          := INDENT "1.." N            right after its version line
  line          := result | diagnostic | subtest
  result        := INDENT ("ok" | "not ok") " " NUMBER [" " description]
                   [" # " [directive] [diagnostic data]]
  description   := any characters but '#' and a line break
  directive     := "SKIP" | "TODO" | "XFAIL" | "TIMEOUT" | "ERROR"
                   (TIMEOUT and ERROR on "not ok" only)
  diagnostic    := INDENT "#" text
  subtest       := a whole ktap indented 4 more spaces, then its result line
                   at the parent's indentation, with the parent's next number

Numbers count 1, 2, ... at each level; a plan's N is the number of results
at its level.  The spec lets a parser ignore lines of no known form (a
kernel's console has others); a producer has no reason to write them, so
this checker refuses them, and a description is required (the spec
recommends one).

  ktap_check.py FILE   one JSON object per top-level result (number, ok,
                       name, directive, diagnostic, subtests), exit 0; or
                       exit 1 naming the first line that breaks the grammar
"""
import json
import re
import sys

VERSION = "KTAP version 1"
PLAN = re.compile(r"^1\.\.([0-9]+)$")
RESULT = re.compile(r"^(ok|not ok) ([0-9]+)(?: ([^#]*?))?(?: # (.*))?$")
DIRECTIVES = ("SKIP", "TODO", "XFAIL", "TIMEOUT", "ERROR")


class Bad(Exception):
    pass


def indent_of(line):
    return len(line) - len(line.lstrip(" "))


def result_of(no, body):
    m = RESULT.match(body)
    if not m:
        return None
    desc = m.group(3) or ""
    if not desc.strip():
        raise Bad("line %d: a result without a description" % no)
    if "#" in body and m.group(4) is None:
        raise Bad("line %d: '#' not as ' # ' before a directive or diagnostic" % no)
    diag = m.group(4) or ""
    word = diag.split(" ", 1)[0]
    directive = word if word in DIRECTIVES else None
    if directive:
        diag = diag[len(word):].lstrip(" ")
    if directive in ("TIMEOUT", "ERROR") and m.group(1) == "ok":
        raise Bad("line %d: %s wants 'not ok'" % (no, directive))
    return {"number": int(m.group(2)), "ok": m.group(1) == "ok", "name": desc,
            "directive": directive, "diagnostic": diag}


def parse(lines, i, ind):
    """The ktap starting at lines[i] (a version line at indentation ind):
    (its results, the index of the line after it)."""
    no, line = lines[i]
    if line != " " * ind + VERSION:
        raise Bad("line %d: want %r, got %r" % (no, " " * ind + VERSION, line))
    i += 1
    plan = None
    if i < len(lines) and PLAN.match(lines[i][1][ind:]) and indent_of(lines[i][1]) == ind:
        plan = int(PLAN.match(lines[i][1][ind:]).group(1))
        i += 1
    tests, sub = [], None
    while i < len(lines):
        no, line = lines[i]
        if indent_of(line) == ind + 4 and line[ind + 4:] == VERSION:
            if sub is not None:
                raise Bad("line %d: a subtest with no result line for the one before" % no)
            sub, i = parse(lines, i, ind + 4)
            continue
        if indent_of(line) < ind or (indent_of(line) == ind and line[ind:] == VERSION):
            break                       # the parent's line, or a second document
        if indent_of(line) != ind:
            raise Bad("line %d: indented %d spaces, want %d (or %d for a subtest's "
                      "version line)" % (no, indent_of(line), ind, ind + 4))
        body = line[ind:]
        if body.startswith("#"):
            i += 1
            continue
        if PLAN.match(body):
            raise Bad("line %d: a plan not right after the version line" % no)
        r = result_of(no, body)
        if r is None:
            raise Bad("line %d: neither a result, a plan nor a diagnostic: %r" % (no, line))
        if r["number"] != len(tests) + 1:
            raise Bad("line %d: test number %d, want %d" % (no, r["number"], len(tests) + 1))
        r["subtests"] = sub or []
        sub = None
        tests.append(r)
        i += 1
    if sub is not None:
        raise Bad("line %d: a subtest with no result line" % lines[i - 1][0])
    if plan is not None and plan != len(tests):
        raise Bad("plan 1..%d at indentation %d, %d results" % (plan, ind, len(tests)))
    return tests, i


def check(text):
    if "\r" in text:
        raise Bad("a carriage return: lines end with a line feed only")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise Bad("empty: want %r" % VERSION)
    numbered = list(enumerate(lines, 1))
    tests, i = parse(numbered, 0, 0)
    if i < len(numbered):
        raise Bad("line %d: after the top-level results: %r" % numbered[i])
    return tests


def main(path):
    try:
        tests = check(open(path, encoding="utf-8").read())
    except (Bad, UnicodeDecodeError) as exc:
        print("ktap: %s" % exc)
        return 1
    for t in tests:
        print(json.dumps(t))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
