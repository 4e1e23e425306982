"""Manifest mutations: JSON-tree edits of a manifest document (values, keys,
versions, paths, names, integer fields, blow-ups, version 3's knob space) and
raw-text damage to its JSON; plus the JSON path helpers the minimizer shares."""

import json
import re

from .pools import HOSTILE_NAMES
from .random_draws import weighted


def json_paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from json_paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from json_paths(v, path + (i,))


def json_get(node, path):
    for p in path:
        node = node[p]
    return node


def json_set(doc, path, value):
    if not path:
        return value
    json_get(doc, path[:-1])[path[-1]] = value
    return doc


HUGE_INTS = [(1 << 63) - 1, 1 << 63, (1 << 64) - 1, 1 << 64, -(1 << 63), -(1 << 63) - 1,
             4294967297, 4294967296, 2147483648, -2147483649, 10 ** 30, -1, 0, 1, 65536]
PATH_VALUES = ["../outside.ptx", "../../etc/passwd", "@ROOT@/a/b/c/outside.ptx",
               "sub/../../outside.ptx", "/dev/zero", "./m.ptx", "", ".", "..",
               "fifo.ptx", "dir.ptx", "zero.ptx", "sparse.ptx", "missing.ptx",
               "a" * 5000 + ".ptx", "m.ptx\u0000x"]


def random_json_value(rng):
    kind = rng.choice(["int", "int", "float", "str", "path", "bool", "null", "list",
                       "dict", "hostile"])
    if kind == "int":
        return rng.choice(HUGE_INTS)
    if kind == "float":
        return rng.choice([1.5, 1e308, -0.0, 2.0, 0.5, 1e-320])
    if kind == "str":
        return rng.choice(["", "x", "i32", "f32", "memref", "scalar", "global", "param",
                           "hw", "descriptor", "bare", "readwrite", "ptr", "vector<4xf32>",
                           "vector<0xf32>", "f128", "i1"])
    if kind == "path":
        return rng.choice(PATH_VALUES)
    if kind == "bool":
        return rng.choice([True, False])
    if kind == "null":
        return None
    if kind == "list":
        return rng.choice([[], [1], ["x"], [None], [[]]])
    if kind == "dict":
        return rng.choice([{}, {"name": "x"}, {"kind": "memref"}])
    return rng.choice(HOSTILE_NAMES)


def mutate_space(rng, doc, notes):
    """Version 3's typed knob space: domains, payloads, constraints,
    governs and the configuration, broken the ways a hand edit or a buggy
    producer would."""
    knobs = [k for k in doc.get("knobs", []) if isinstance(k, dict)] \
        if isinstance(doc.get("knobs"), list) else []
    if not knobs:
        doc["configuration"] = {"fz_nope": "f16"}
        notes.append("configuration names a knob that does not exist")
        return
    kn = rng.choice(knobs)
    d = kn.get("domain") if isinstance(kn.get("domain"), dict) else None
    vals = d.get("values") if d and isinstance(d.get("values"), list) else []
    what = rng.choice(["kind", "drop-value", "dup-id", "bad-id", "payload-type",
                       "payload-field", "payload-extra", "constraint-knob",
                       "constraint-cycle", "governs", "config-value",
                       "config-not-build", "no-domain", "build-kind",
                       "object-also"])
    name = kn.get("name", "?")
    if what == "kind" and d is not None:
        d["kind"] = rng.choice(["fuzzy", "", 3, None, "ORDINAL"])
    elif what == "drop-value" and vals:
        vals.pop()
    elif what == "dup-id" and len(vals) > 1 and isinstance(vals[0], dict):
        vals[-1] = json.loads(json.dumps(vals[0]))
    elif what == "bad-id" and vals and isinstance(vals[0], dict):
        vals[0]["id"] = rng.choice(["rows 1", "", "a" * 300, "\x1b", 7, None])
    elif what in ("payload-type", "payload-field", "payload-extra") and vals \
            and isinstance(vals[0], dict) and isinstance(vals[0].get("payload"), dict):
        pl = vals[0]["payload"]
        if what == "payload-type":
            pl["type"] = rng.choice(["recipe", "", None, "block_shape", "storage"])
        elif what == "payload-field":
            keys = [k for k in pl if k != "type"] or ["type"]
            pl[rng.choice(keys)] = random_json_value(rng)
        else:
            pl["fz_extra"] = 1
    elif what == "constraint-knob":
        kn["constraints"] = [{"when": [vals[0]["id"] if vals and isinstance(vals[0], dict)
                                       and isinstance(vals[0].get("id"), str) else "0"],
                              "require": {"knob": rng.choice(["fz_nope", name]),
                                          "values": ["fz_value"]}}]
    elif what == "constraint-cycle" and len(knobs) > 1:
        a, b = knobs[0], knobs[1]
        def first(k):
            vs = k.get("domain", {}).get("values") if isinstance(k.get("domain"), dict) else None
            return vs[0]["id"] if vs and isinstance(vs[0], dict) and isinstance(vs[0].get("id"), str) \
                else str(k.get("min", 0))
        a["constraints"] = [{"when": [first(a)], "require": {"knob": b.get("name"), "values": [first(b)]}}]
        b["constraints"] = [{"when": [first(b)], "require": {"knob": a.get("name"), "values": [first(a)]}}]
    elif what == "governs":
        kn["governs"] = {"kernels": [rng.choice(["fz_other", "", "a\x1bb"])],
                         "sites": [rng.choice([10 ** 6, -1, 0])]}
    elif what == "config-value":
        doc["configuration"] = {name: rng.choice(["f8", "", "fz", 3])}
    elif what == "config-not-build":
        doc["configuration"] = {name: vals[0].get("id") if vals and isinstance(vals[0], dict) else "0"}
        if kn.get("kind") == "build":
            kn["kind"] = "global"
    elif what == "no-domain":
        kn.pop("domain", None)
    elif what == "build-kind":
        kn["kind"] = "build"
    elif what == "object-also":
        # A storage knob's memory object passed to more arguments: unknown
        # kernels, missing or repeated arguments, another element type.
        obj = d.get("object") if d and isinstance(d.get("object"), dict) else None
        kernels = [k.get("name") for k in doc.get("kernels", []) if isinstance(k, dict)] \
            if isinstance(doc.get("kernels"), list) else []
        use = rng.choice([{"kernel": rng.choice(kernels or ["fz"]), "arg": rng.choice([0, 1, 5, -1, 10 ** 7])},
                          {"kernel": "fz_nope", "arg": 0}, {"kernel": obj.get("kernel") if obj else "k",
                                                            "arg": obj.get("arg") if obj else 0},
                          {"kernel": 3}, {}, "x"])
        if obj is not None:
            obj["also"] = rng.choice([[use], [use, use], use, [], None])
        elif d is not None:
            d["object"] = {"kernel": rng.choice(kernels or ["fz"]), "arg": 0, "also": [use]}
    notes.append(f"space: {what} on knob {str(name)[:40]!r}")


def mutate_manifest(rng, doc, notes):
    kind = weighted(rng, [("set", 8), ("delete", 3), ("dup-elem", 2), ("extra-key", 1),
                          ("version", 3), ("path", 4), ("name", 4), ("knob-range", 3),
                          ("blowup", 1), ("int-field", 4), ("space", 5)])
    paths = [p for p in json_paths(doc) if p]
    if kind == "space":
        mutate_space(rng, doc, notes)
    elif kind == "version":
        v = rng.choice([0, 1, 2, 3, -1, 4294967297, 4294967298, 18446744073709551617,
                        "2", 2.0, 1.0, True, None, 1 << 63])
        doc["version"] = v
        notes.append(f"version -> {v!r}")
    elif kind == "path":
        key = rng.choice(["ptx", "ptx", "cubin"])
        v = rng.choice(PATH_VALUES)
        doc[key] = v
        notes.append(f"{key} -> {v[:60]!r}")
    elif kind == "name":
        where = rng.choice(["knobs", "kernels", "module", "kernel-knob-ref", "site-knob"])
        v = rng.choice(HOSTILE_NAMES)
        if where == "module":
            doc["module"] = v
        elif isinstance(doc.get(where), list) and doc[where] and isinstance(doc[where][0], dict):
            doc[where][0]["name"] = v
            if where == "knobs" and rng.random() < 0.5:
                for k in doc.get("kernels", []):
                    if isinstance(k, dict) and isinstance(k.get("knobs"), list) and k["knobs"]:
                        k["knobs"][0] = v
        elif where == "kernel-knob-ref" and doc.get("kernels"):
            k = doc["kernels"][0]
            if isinstance(k, dict):
                k["knobs"] = [v]
        elif where == "site-knob" and doc.get("sites"):
            if isinstance(doc["sites"][0], dict):
                doc["sites"][0]["knob"] = v
        notes.append(f"{where} name -> {v[:40]!r}" + (f" (len {len(v)})" if len(v) > 40 else ""))
    elif kind == "knob-range" and isinstance(doc.get("knobs"), list) and doc["knobs"]:
        kn = doc["knobs"][0]
        if isinstance(kn, dict):
            key = rng.choice(["min", "max", "default", "type"])
            v = rng.choice(HUGE_INTS + ["i8", "i16", "u32", 1.5]) if key != "type" else \
                rng.choice(["i8", "i16", "i64", "u32", "f32", ""])
            kn[key] = v
            notes.append(f"knobs[0].{key} -> {v!r}")
    elif kind == "int-field":
        ints = [p for p in paths if type(json_get(doc, p)) is int]
        if ints:
            p = rng.choice(ints)
            v = rng.choice(HUGE_INTS + [1.5, 2.0, "3", True, None])
            json_set(doc, p, v)
            notes.append(f"{'/'.join(map(str, p))} -> {v!r}")
    elif kind == "blowup" and isinstance(doc.get("kernels"), list) and doc["kernels"] \
            and not any("grown to" in n for n in notes):  # one per case: copies share members
        # Grow to n entries (not by n: a second blow-up must not multiply).
        what = rng.choice(["kernels", "params", "shape", "knobs"])
        n = rng.choice([1000, 5000] if what == "kernels" else [1000, 20000])

        def grow(lst):
            return (lst * (n // len(lst) + 1))[:n]
        if what == "kernels":
            doc["kernels"] = grow(doc["kernels"])
        elif what == "knobs" and doc.get("knobs"):
            doc["knobs"] = grow(doc["knobs"])
        elif isinstance(doc["kernels"][0], dict):
            k = doc["kernels"][0]
            if what == "params" and k.get("params"):
                k["params"] = grow(k["params"])
            elif what == "shape" and k.get("args") and isinstance(k["args"][0], dict):
                k["args"][0]["shape"] = [-1] * n
                k["args"][0]["rank"] = n
        notes.append(f"{what} grown to {n}")
    elif kind == "delete" and paths:
        p = rng.choice(paths)
        parent = json_get(doc, p[:-1])
        del parent[p[-1]]
        notes.append(f"delete {'/'.join(map(str, p))}")
    elif kind == "dup-elem":
        lists = [p for p in paths if isinstance(json_get(doc, p), list) and json_get(doc, p)]
        if lists:
            p = rng.choice(lists)
            lst = json_get(doc, p)
            lst.append(json.loads(json.dumps(lst[0])))
            notes.append(f"duplicate first element of {'/'.join(map(str, p))}")
    elif kind == "extra-key":
        dicts = [p for p in [()] + paths if isinstance(json_get(doc, p), dict)]
        p = rng.choice(dicts)
        json_get(doc, p)["fz_unknown"] = random_json_value(rng)
        notes.append(f"extra key in /{'/'.join(map(str, p))}")
    elif paths:
        p = rng.choice(paths)
        v = random_json_value(rng)
        json_set(doc, p, v)
        notes.append(f"{'/'.join(map(str, p))} -> {str(v)[:40]!r}")
    return doc


def raw_json_mutation(rng, text, notes):
    kind = rng.choice(["truncate", "garbage", "bom", "nan", "dup-key", "trailing", "deep",
                       "comment", "bad-utf8", "leading-zero", "huge-number", "ws"])
    notes.append(f"raw: {kind}")
    if kind == "truncate":
        return text[:rng.randrange(max(1, len(text)))].encode()
    if kind == "garbage":
        p = rng.randrange(len(text) + 1)
        return (text[:p] + rng.choice(["\x00", "}", "]", ",", ":", "\x1b", "@"]) + text[p:]).encode()
    if kind == "bom":
        return b"\xef\xbb\xbf" + text.encode()
    if kind == "nan":
        return re.sub(r'"version": \d+', '"version": Infinity', text.replace('"max": 64', '"max": NaN', 1), count=1).encode()
    if kind == "dup-key":
        return text.replace("{", '{"version": 4294967297, ', 1).encode()
    if kind == "trailing":
        return (text + "\n{}garbage").encode()
    if kind == "deep":
        d = rng.choice([1000, 100000, 1000000])
        return text.replace("{", '{"fz_deep": ' + "[" * d + "]" * d + ", ", 1).encode()
    if kind == "comment":
        return ("// comment\n" + text).encode()
    if kind == "bad-utf8":
        return text.replace('"module": "', '"module": "\xff\xfe', 1).encode("latin-1", "replace")
    if kind == "leading-zero":
        return re.sub(r'"version": (\d+)', r'"version": 0\1', text, count=1).encode()
    if kind == "huge-number":
        return re.sub(r'"version": (\d+)', lambda m: '"version": ' + m.group(1) + "0" * 400, text, count=1).encode()
    return (" " * 10_000_000 + text).encode()
