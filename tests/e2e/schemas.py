# SPDX-License-Identifier: GPL-2.0-only
"""schemas.py - validate pinbench's JSON outputs against schemas/ (tests/e2e/schemas.sh).

schemas.py --check-schemas: every schemas/*.schema.json is itself a valid
JSON Schema (draft 2020-12), its $id and title agree with its file name,
and lib/schema.h names exactly these schemas.
schemas.py FILE...: each FILE is validated against the schema its "schema"
field names ("pinbench-result/1" -> schemas/pinbench-result-1.schema.json);
a FILE that names none, or one that has no file here, fails.  Every error
is printed as FILE: /json/pointer: message.  Exit 0 when all are valid,
1 otherwise, 2 when the validator (python3-jsonschema) cannot be used.

Run it with Debian's /usr/bin/python3 (the python3-jsonschema package).
"""
import glob
import json
import os
import re
import sys

try:
    import jsonschema
except ImportError as e:
    print("schemas.py: no jsonschema module (%s): apt-get install python3-jsonschema" % e)
    sys.exit(2)

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DIR = os.path.join(TOP, "schemas")
V = jsonschema.Draft202012Validator
# an identifier only (.invalid never resolves): the $refs between files are relative to it
ID_BASE = "https://pinbench.invalid/schemas/"


def file_of(name):
    """pinbench-result/1 -> schemas/pinbench-result-1.schema.json"""
    return os.path.join(DIR, name.replace("/", "-") + ".schema.json")


def pointer(parts):
    """The JSON pointer (RFC 6901) of an error: /jobs/0/counters/writer~10"""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts) or "/"


def load_all():
    out = {}
    for path in sorted(glob.glob(os.path.join(DIR, "*.schema.json"))):
        with open(path) as f:
            out[path] = json.load(f)
    return out


def validator(schema, all_schemas):
    """A validator that resolves the $refs between schemas/ files by $id."""
    try:
        from referencing import Registry, Resource
        reg = Registry().with_resources(
            (s["$id"], Resource.from_contents(s)) for s in all_schemas.values())
        return V(schema, registry=reg)
    except ImportError:
        store = {s["$id"]: s for s in all_schemas.values()}
        return V(schema, resolver=jsonschema.RefResolver.from_schema(schema, store=store))


def check_schemas(all_schemas):
    bad = 0
    with open(os.path.join(TOP, "harness", "lib", "schema.h")) as f:
        named = set(re.findall(r'^#define\s+PB_SCHEMA\w*\s+"([^"]+)"', f.read(), re.M))
    files = set()
    for path, s in all_schemas.items():
        base = os.path.basename(path)
        try:
            V.check_schema(s)
        except jsonschema.SchemaError as e:
            print("%s: not a valid JSON Schema: %s" % (base, e.message))
            bad += 1
            continue
        title = s.get("title", "")
        files.add(title)
        if file_of(title) != path:
            print("%s: title %r does not match the file name" % (base, title))
            bad += 1
        if s.get("$id") != ID_BASE + base:
            print("%s: $id %r does not match the file name" % (base, s.get("$id")))
            bad += 1
        if s.get("properties", {}).get("schema") != {"const": title}:
            print("%s: its \"schema\" field is not the constant %r" % (base, title))
            bad += 1
    for name in sorted(named - files):
        print("lib/schema.h names %s, schemas/ has no %s" % (name, os.path.basename(file_of(name))))
        bad += 1
    for name in sorted(files - named):
        print("schemas/ has %s, lib/schema.h does not name it" % name)
        bad += 1
    if not bad:
        print("%d schemas valid, the same names as lib/schema.h" % len(all_schemas))
    return bad


def check_file(path, all_schemas):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print("%s: not JSON: %s" % (path, e))
        return 1
    name = doc.get("schema") if isinstance(doc, dict) else None
    if not isinstance(name, str):
        print("%s: names no schema" % path)
        return 1
    spath = file_of(name)
    if spath not in all_schemas:
        print("%s: schema %r: no %s" % (path, name, os.path.relpath(spath, TOP)))
        return 1
    errs = sorted(validator(all_schemas[spath], all_schemas).iter_errors(doc),
                  key=lambda e: list(map(str, e.absolute_path)))
    for e in errs[:20]:
        print("%s: %s: %s" % (path, pointer(e.absolute_path), e.message[:300]))
    if len(errs) > 20:
        print("%s: ... %d errors in all" % (path, len(errs)))
    if not errs:
        print("%s: valid %s" % (path, name))
    return 1 if errs else 0


def main(argv):
    all_schemas = load_all()
    if not all_schemas:
        print("schemas.py: no schemas in %s" % DIR)
        return 1
    if argv == ["--check-schemas"]:
        return 1 if check_schemas(all_schemas) else 0
    if not argv:
        print(__doc__.strip())
        return 2
    return 1 if sum(check_file(p, all_schemas) for p in argv) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
