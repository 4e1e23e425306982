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
import argparse
import json
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", default=os.path.join(ROOT, "docs", "manifest.md"))
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--write", action="store_true")
    g.add_argument("--check", action="store_true")
    a = ap.parse_args()
    text = open(a.docs, encoding="utf-8").read()
    new, bad = text, []
    found = set()
    for m in re.finditer(r"<!-- schema:([A-Za-z]+) -->", text):
        found.add(m.group(1))
    generated = tables()
    for name in sorted(found):
        if name not in generated:
            bad.append(f"{name}: the schema has no object '{name}'")
            continue
        pat = re.compile(r"(<!-- schema:%s -->\n)(.*?)(<!-- /schema:%s -->)"
                         % (name, name), re.S)
        m = pat.search(new)
        if not m:
            bad.append(f"{name}: no closing '<!-- /schema:{name} -->'")
            continue
        if m.group(2) != generated[name]:
            bad.append(f"{name}: the table differs from docs/manifest.schema.json")
        new = new[:m.start(2)] + generated[name] + new[m.end(2):]
    if a.write:
        open(a.docs, "w", encoding="utf-8").write(new)
    elif a.check:
        for b in bad:
            print(f"manifest-doc.py: {b}", file=sys.stderr)
        sys.exit(1 if bad else 0)
    else:
        for name, t in generated.items():
            print(f"<!-- schema:{name} -->\n{t}")


if __name__ == "__main__":
    main()
