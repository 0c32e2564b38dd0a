#!/usr/bin/env python3
"""check_schema.py - validates a JSON file against a JSON Schema (cudachef's reports).

Usage: check_schema.py SCHEMA FILE [DEF]

SCHEMA is a JSON Schema file (docs/run-report.schema.json); FILE the JSON to check. With DEF the
file is checked against the schema's "$defs" entry of that name instead of the whole schema (the
run report's schema also describes `info`, `list` and the trace file there: info, list, trace).
Prints nothing and exits 0 when the file is valid; otherwise prints the first error, with the
path of the offending value ($.steps.cook.ms), to stderr and exits 1. Needs the jsonschema module
(Debian: python3-jsonschema).
"""
import json
import sys

try:
    import jsonschema
except ImportError:  # pragma: no cover - depends on the machine
    sys.stderr.write("check_schema: the jsonschema module is missing (apt-get install python3-jsonschema)\n")
    sys.exit(1)


def json_path(parts):
    """Writes a path inside a document as $.a.b[3]."""
    out = "$"
    for p in parts:
        out += "[%d]" % p if isinstance(p, int) else ".%s" % p
    return out


def load(path, what):
    """Reads a JSON file, or exits 1 saying why it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write("check_schema: cannot read %s %s: %s\n" % (what, path, e))
        sys.exit(1)


def main(argv):
    """Validates argv[2] against argv[1] (or its $defs entry argv[3]); returns the exit code."""
    if len(argv) not in (3, 4):
        sys.stderr.write("usage: check_schema.py SCHEMA FILE [DEF]\n")
        return 1
    schema = load(argv[1], "schema")
    doc = load(argv[2], "file")
    cls = jsonschema.validators.validator_for(schema)
    try:
        cls.check_schema(schema)
    except jsonschema.exceptions.SchemaError as e:
        sys.stderr.write("check_schema: %s is not a valid schema: %s at %s\n"
                         % (argv[1], e.message, json_path(e.absolute_path)))
        return 1
    if len(argv) == 4:
        defs = schema.get("$defs", {})
        if argv[3] not in defs:
            sys.stderr.write("check_schema: %s has no $defs entry '%s' (it has: %s)\n"
                             % (argv[1], argv[3], ", ".join(sorted(defs))))
            return 1
        # keep $defs and $schema so that references inside the entry still resolve
        target = {"$schema": schema.get("$schema"), "$defs": defs, "$ref": "#/$defs/" + argv[3]}
    else:
        target = schema
    validator = cls(target)
    # the first error in document order; among errors at one place, the most specific one
    errors = sorted(validator.iter_errors(doc), key=lambda e: ([str(p) for p in e.absolute_path], -len(e.absolute_schema_path)))
    if not errors:
        return 0
    first = jsonschema.exceptions.best_match([errors[0]])
    sys.stderr.write("%s: invalid at %s: %s\n" % (argv[2], json_path(first.absolute_path), first.message))
    if len(errors) > 1:
        sys.stderr.write("  (%d errors in all)\n" % len(errors))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
