#!/usr/bin/env python3
"""Check a payload against a service's documented shape
(tests/fixtures/notify/shapes/*.json, each citing its source): every object
is looked up by its "type" (or, for objects the service leaves untyped, by
the key that holds it), must have the documented required keys, no key the
documentation does not name, each of the documented JSON type; then the
fixture's enums and limits (count, length, bytes, equals) hold.

usage: shape.py SHAPE.json ROOT_KIND PAYLOAD.json   (exit 1 naming each fault)
"""
import json
import sys

JSON_TYPES = {"string": str, "object": dict, "array": list, "boolean": bool,
              "null": type(None)}


def kind_of(shape, key, value):
    if key in shape.get("untyped", {}):
        return shape["untyped"][key]
    return value.get("type")


def visit(shape, kind, obj, where, errors):
    spec = shape["objects"].get(kind)
    if spec is None:
        errors.append(f"{where}: an object of type {kind!r}, which the documented shape does not have")
        return
    allowed = {k.lstrip("!"): t for k, t in spec.items()}
    for k in spec:
        if k.startswith("!") and k[1:] not in obj:
            errors.append(f"{where}: {kind} lacks the required {k[1:]!r}")
    for k, v in obj.items():
        if k not in allowed:
            errors.append(f"{where}.{k}: not a documented field of {kind}")
            continue
        want = JSON_TYPES[allowed[k]]
        if want is dict and isinstance(v, dict) or want is not dict and isinstance(v, want):
            pass
        else:
            errors.append(f"{where}.{k}: {type(v).__name__}, documented as {allowed[k]}")
        enum = shape.get("enums", {}).get(f"{kind}.{k}")
        if enum and v not in enum:
            errors.append(f"{where}.{k}: {v!r} is none of {enum}")
        items = v if isinstance(v, list) else [v]
        for i, item in enumerate(items):
            if isinstance(item, dict):
                sub = f"{where}.{k}" + (f"[{i}]" if isinstance(v, list) else "")
                visit(shape, kind_of(shape, k, item), item, sub, errors)


def select(value, path):
    """The values a limit path names: key, key[N], key[type=X], dotted."""
    values = [value]
    for seg in [s for s in path.split(".") if s] if path else []:
        key, _, sel = seg.partition("[")
        nxt = []
        for v in values:
            if not isinstance(v, dict) or key not in v:
                continue
            x = v[key]
            if not sel:
                nxt.append(x)
            elif "=" in sel:
                f, _, want = sel.rstrip("]").partition("=")
                nxt.extend(i for i in x if isinstance(i, dict) and i.get(f) == want)
            else:
                idx = int(sel.rstrip("]"))
                if idx < len(x):
                    nxt.append(x[idx])
        values = nxt
    return values


def check(shape, root, payload):
    errors = []
    visit(shape, root, payload, "$", errors)
    for path, op, arg in shape.get("limits", []):
        for v in select(payload, path):
            if op == "count" and len(v) > arg:
                errors.append(f"{path}: {len(v)} items, the limit is {arg}")
            elif op == "length" and len(v) > arg:
                errors.append(f"{path}: {len(v)} characters, the limit is {arg}")
            elif op == "bytes" and len(json.dumps(v).encode()) > arg:
                errors.append(f"{path or '$'}: over {arg} bytes")
            elif op == "equals" and v != arg:
                errors.append(f"{path}: {v!r}, expected {arg!r}")
    return errors


if __name__ == "__main__":
    shape = json.load(open(sys.argv[1]))
    payload = json.load(open(sys.argv[3]))
    errs = check(shape, sys.argv[2], payload)
    for e in errs:
        print(e, file=sys.stderr)
    sys.exit(1 if errs else 0)
