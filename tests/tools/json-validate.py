#!/usr/bin/env python3
"""json-validate.py SCHEMA FILE...: validates each JSON FILE ('-' for stdin)
against the JSON Schema SCHEMA (draft 2020-12, python3-jsonschema), after
checking the schema itself. Prints one line per error; exit 1 on any."""
import json
import sys

import jsonschema


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    bad = 0
    for name in sys.argv[2:]:
        doc = json.load(sys.stdin if name == "-" else open(name))
        for e in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
            path = "/".join(str(p) for p in e.absolute_path) or "(top)"
            print(f"{name}: {path}: {e.message}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
