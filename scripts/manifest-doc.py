#!/usr/bin/env python3
"""manifest-doc.py - docs/manifest.md's reference tables, from the schema.

docs/manifest.schema.json is the single source of truth of the manifest
format. This script renders each of its object definitions as a markdown
table (key, type, required, meaning) into docs/manifest.md, between
'<!-- schema:NAME -->' and '<!-- /schema:NAME -->' (NAME: `manifest` for the
top level, else a $defs name). The prose around the tables is written by
hand.

  scripts/manifest-doc.py [--write | --check] [--docs docs/manifest.md]

--check (CI, test/Docs) fails, naming the table, when docs/manifest.md
differs from what the schema gives.
"""
import json
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "lib"))
import docblocks  # noqa: E402  (bench/lib: generated blocks of a page)
SCHEMA = os.path.join(ROOT, "docs", "manifest.schema.json")


def type_text(spec, defs):
    """A short type description of a property schema."""
    if "$ref" in spec:
        name = spec["$ref"].split("/")[-1]
        target = defs.get(name, {})
        if target.get("type") == "object" or "oneOf" in target:
            return f"[{name}](#{name.lower()})"
        return type_text(target, defs)
    if "const" in spec:
        return f"`{json.dumps(spec['const'])}`"
    if "enum" in spec:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in spec["enum"])
    t = spec.get("type")
    if t == "array":
        return "array of " + type_text(spec.get("items", {}), defs)
    if t == "object" and "additionalProperties" in spec and isinstance(
            spec["additionalProperties"], dict):
        return "object of " + type_text(spec["additionalProperties"], defs)
    if t == "string" and "pattern" in spec:
        return "string"
    if t == "integer":
        lo, hi = spec.get("minimum"), spec.get("maximum")
        if lo is not None and hi is not None and abs(hi) < 1 << 40:
            return f"integer {lo}..{hi}"
        if lo is not None and abs(lo) < 1 << 40:
            return f"integer ≥ {lo}"
        return "integer (int64)"
    return t or "any"


def table(obj, defs):
    props = obj.get("properties", {})
    required = set(obj.get("required", []))
    rows = ["| key | type | required | meaning |", "| --- | --- | --- | --- |"]
    for key, spec in props.items():
        meaning = spec.get("description", "")
        if not meaning and "$ref" in spec:
            meaning = defs.get(spec["$ref"].split("/")[-1], {}).get(
                "description", "")
        meaning = meaning.replace("|", "\\|").replace("\n", " ")
        rows.append(f"| `{key}` | {type_text(spec, defs)} | "
                    f"{'yes' if key in required else 'no'} | {meaning} |")
    for branch in obj.get("oneOf", []):
        kind = branch.get("properties", {}).get("kind", {}).get("const")
        if kind:
            rows.append(f"| `kind: \"{kind}\"` | | | requires "
                        + ", ".join(f"`{k}`" for k in branch.get("required", []))
                        + " |")
    return "\n".join(rows) + "\n"


def tables():
    schema = json.load(open(SCHEMA, encoding="utf-8"))
    defs = schema["$defs"]
    out = {"manifest": table(schema, defs)}
    for name, d in defs.items():
        if d.get("type") == "object" and d.get("properties"):
            out[name] = table(d, defs)
    return out


if __name__ == "__main__":
    docblocks.main("manifest-doc.py", "schema",
                   os.path.join(ROOT, "docs", "manifest.md"), tables,
                   "docs/manifest.schema.json", names_from_page=True)
