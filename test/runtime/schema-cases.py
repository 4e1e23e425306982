#!/usr/bin/env python3
"""schema-cases.py CASES.json: the manifest schema's verdict on each case.

Each case of test/runtime/data/v3/cases.json is a manifest, whether it is
valid, and whether the schema can tell (`schema_tells`: cycles, counts and
cross references are beyond JSON Schema, and the runtime's reader checks
them). The schema (docs/manifest.schema.json) must accept every valid case
and every case it cannot tell, and reject the others; the runtime's reader
is held to every case by ManifestV3Test. One line per disagreement; exit 1
if any.
"""
import json
import os
import sys

import jsonschema

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))


def main():
    cases = json.load(open(sys.argv[1]))
    schema = json.load(open(os.path.join(ROOT, "docs", "manifest.schema.json")))
    v = jsonschema.Draft202012Validator(schema)
    bad = 0
    for c in cases:
        errors = list(v.iter_errors(c["manifest"]))
        want_valid = c["valid"] or not c["schema_tells"]
        if bool(errors) == want_valid:
            bad += 1
            print("schema-cases: %s: the schema says %s, expected %s%s" % (
                c["name"], "invalid" if errors else "valid",
                "valid" if want_valid else "invalid",
                (" (%s)" % errors[0].message[:120]) if errors else ""))
    print("schema-cases: %d cases, %d disagreements" % (len(cases), bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
