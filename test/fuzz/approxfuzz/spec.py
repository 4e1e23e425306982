"""The spec oracle's rules: what docs/manifest.md (and, for version 3,
docs/manifest.schema.json) says a manifest reader must refuse, as a checker
independent of the runtime's own reader; and strict RFC 8259 JSON parsing."""

import json
import re


def strict_json(data):
    """Parses bytes as RFC 8259 JSON (no NaN/Infinity); raises ValueError."""
    def bad_constant(c):
        raise ValueError(f"non-standard constant {c}")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    text = data.decode("utf-8")  # UnicodeDecodeError is a ValueError
    return json.loads(text, parse_constant=bad_constant)


PTX_IDENT = re.compile(r"^(?:[A-Za-z][A-Za-z0-9_$]*|[_$%][A-Za-z0-9_$]+)$")
INT64 = (-(1 << 63), (1 << 63) - 1)
KNOB_TYPES = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}


def is_int(v):
    return type(v) is int and INT64[0] <= v <= INT64[1]


VALUE_ID = re.compile(r"^[A-Za-z0-9_.:+-]{1,256}$")


def space_violations(doc, knobs):
    """Version 3's knob space (docs/manifest.schema.json): every knob has a
    domain of a known kind, one value per index with unique ids, and the
    configuration gives every build knob one of its values."""
    out = []
    ids = {}
    for i, kn in enumerate(knobs):
        if not isinstance(kn, dict):
            continue
        d = kn.get("domain")
        if not isinstance(d, dict):
            out.append(("knob-domain-missing", f"knobs[{i}]"))
            continue
        kind = d.get("kind")
        if kind not in ("ordinal", "categorical", "storage"):
            out.append(("knob-domain-kind-unknown", repr(kind)[:40]))
            continue
        if kind == "ordinal":
            continue
        vals = d.get("values")
        lo, hi = kn.get("min"), kn.get("max")
        if not isinstance(vals, list):
            out.append(("knob-domain-values-not-array", f"knobs[{i}]"))
            continue
        if is_int(lo) and is_int(hi) and lo <= hi and len(vals) != hi - lo + 1:
            out.append(("knob-domain-values-count", f"knobs[{i}]: {len(vals)} for [{lo},{hi}]"))
        seen = [v.get("id") for v in vals if isinstance(v, dict)]
        if len(seen) != len(vals) or any(not isinstance(x, str) or not VALUE_ID.match(x) for x in seen):
            out.append(("knob-value-id-invalid", f"knobs[{i}]"))
        elif len(set(seen)) != len(seen):
            out.append(("knob-value-id-twice", f"knobs[{i}]"))
        if isinstance(kn.get("name"), str):
            ids[kn["name"]] = (kn.get("kind"), set(x for x in seen if isinstance(x, str)))
    config = doc.get("configuration", {})
    if not isinstance(config, dict):
        out.append(("configuration-not-object", repr(config)[:40]))
        config = {}
    for name, v in config.items():
        kind, values = ids.get(name, (None, set()))
        if kind != "build" or v not in values:
            out.append(("configuration-outside-space", f"{name}={v!r}"[:80]))
    for name, (kind, _) in ids.items():
        if kind == "build" and name not in config:
            out.append(("configuration-missing-build-knob", name))
    return out


def spec_violations(doc, argv, versions):
    """Rules of docs/manifest.md a reader must enforce; [(rule, detail)].

    Only rules that are plain in the spec and shared by the versions the
    runtime may read (`versions`); a manifest breaking any of them must be
    refused by `approx-tune --list` / `--dry-run`.
    """
    out = []
    if not isinstance(doc, dict):
        return [("top-level-not-object", type(doc).__name__)]
    if doc.get("format") != "approx-manifest":
        out.append(("format-not-approx-manifest", repr(doc.get("format"))[:60]))
    v = doc.get("version", None)
    if "version" not in doc:
        out.append(("version-missing", ""))
    elif not is_int(v):
        out.append(("version-not-int64", repr(v)[:60]))
    elif v not in versions:
        out.append(("version-unsupported", repr(v)))
    if not isinstance(doc.get("module"), str):
        out.append(("module-missing-or-not-string", repr(doc.get("module"))[:60]))
    if not isinstance(doc.get("kernels"), list):
        out.append(("kernels-missing-or-not-array", ""))
    paths = [k for k in ("ptx", "cubin") if k in doc]
    if not any(isinstance(doc.get(k), str) for k in paths):
        out.append(("no-ptx-or-cubin-string", ""))
    allow = "--allow-outside-paths" in argv
    for k in paths:
        p = doc[k]
        if not isinstance(p, str):
            out.append((f"{k}-not-string", repr(p)[:60]))
        elif not allow and (p.startswith("/") or ".." in p.split("/")):
            out.append((f"{k}-path-outside-manifest-dir", p[:80]))

    def ints(where, obj, keys):
        for key in keys:
            if isinstance(obj, dict) and key in obj and not is_int(obj[key]):
                out.append(("integer-field-invalid", f"{where}.{key}={obj[key]!r}"[:90]))

    knobs = doc.get("knobs", [])
    if isinstance(knobs, list):
        for i, kn in enumerate(knobs):
            if not isinstance(kn, dict):
                continue
            name = kn.get("name")
            if isinstance(name, str) and (not PTX_IDENT.match(name) or len(name) > 1024):
                out.append(("knob-name-not-ptx-identifier", repr(name)[:60]))
            ints(f"knobs[{i}]", kn, ("min", "max", "default"))
            lo, hi, de = kn.get("min"), kn.get("max"), kn.get("default")
            if all(is_int(x) for x in (lo, hi, de)):
                if lo > hi:
                    out.append(("knob-min-above-max", f"{lo}>{hi}"))
                elif not lo <= de <= hi:
                    out.append(("knob-default-outside-range", f"{de} not in [{lo},{hi}]"))
                bits = KNOB_TYPES.get(kn.get("type"))
                if bits and any(not -(1 << (bits - 1)) <= x < (1 << (bits - 1))
                                for x in (lo, hi, de)):
                    out.append(("knob-value-does-not-fit-type",
                                f"{kn.get('type')} [{lo},{hi}] default {de}"))
    if doc.get("version") == 3 and isinstance(knobs, list):
        out += space_violations(doc, knobs)
    kernels = doc.get("kernels", [])
    nsites = len(doc["sites"]) if isinstance(doc.get("sites"), list) else None
    if isinstance(kernels, list):
        for i, k in enumerate(kernels):
            if not isinstance(k, dict):
                continue
            name = k.get("name")
            if isinstance(name, str) and (not PTX_IDENT.match(name) or len(name) > 1024):
                out.append(("kernel-name-not-ptx-identifier", repr(name)[:60]))
            for j, a in enumerate(k.get("args", []) if isinstance(k.get("args"), list) else []):
                ints(f"kernels[{i}].args[{j}]", a,
                     ("first_param", "num_params", "rank", "address_space"))
                if isinstance(a, dict) and isinstance(a.get("shape"), list):
                    for d in a["shape"]:
                        if not is_int(d) or d < -1:
                            out.append(("shape-entry-invalid", repr(d)[:40]))
            for j, p in enumerate(k.get("params", []) if isinstance(k.get("params"), list) else []):
                ints(f"kernels[{i}].params[{j}]", p, ("arg", "size"))
            sites = k.get("sites")
            if isinstance(sites, list) and nsites is not None:
                for s in sites:
                    if not is_int(s) or not 0 <= s < nsites:
                        out.append(("kernel-site-index-invalid", repr(s)[:40]))
    return out
