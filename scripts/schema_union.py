#!/usr/bin/env python3
"""Merges Kafka releases' message schemas into kwire's `schemas/`.

Usage: python3 scripts/schema_union.py SCHEMAS RELEASE_DIR [RELEASE_DIR ...]

Each RELEASE_DIR is a release's `messages/` folder as extracted by
interop/scripts/kafka-release.sh, oldest release first. For every message the union
covers every version any release has: version v takes its wire shape from the
newest release that has v (an unstable version of an older release thus takes
the shape it was finally given), and versions that no release has any more
(removed by KIP-896 in 4.0, or dropped with the ZooKeeper-mode api keys) keep
the shape `SCHEMAS` already gives them.

What the script keeps from `SCHEMAS`: the `about` texts and comments of every
field it already has, the listeners, and the fields that are kwire's own
(the KIP-590 header fields and the Envelope's typed embedded messages). A
field or message that is new gets `"about": ""`: tests/schema_docs.rs fails
until someone writes one in their own words. Files whose wire content does not
change are left as they are.

It prints what it changed. Check the result with `cargo test --test
schema_equivalence` and `kwire-codegen diff`.
"""

import json
import os
import re
import sys

INF = 1 << 15


def strip_comments(text):
    out, i, n, in_str = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
            out.append(c)
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def load(path):
    with open(path, encoding="utf-8-sig") as f:
        text = f.read()
    return json.loads(strip_comments(text)), text


def vset(s, default=None):
    """A version string as a set of versions (open ranges end at INF)."""
    if s is None:
        s = default
    if s is None:
        return set()
    s = str(s).strip()
    if s in ("", "none"):
        return set()
    if s.endswith("+"):
        return set(range(int(s[:-1]), INF))
    if "-" in s:
        a, b = s.split("-")
        return set(range(int(a), int(b) + 1))
    return {int(s)}


def vstr(vs, top):
    """The shortest version string for the versions `vs` (within 0..top)."""
    vs = sorted(v for v in vs if v <= top)
    if not vs:
        return "none"
    lo, hi = vs[0], vs[-1]
    if vs != list(range(lo, hi + 1)):
        raise ValueError(f"versions {vs} are not contiguous")
    if hi == top:
        return f"{lo}+"
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def cover(inside, outside, top):
    """A contiguous range holding every version of `inside` and none of `outside`."""
    inside = sorted(v for v in inside if v <= top)
    if not inside:
        return None
    lo, hi = inside[0], inside[-1]
    if any(lo <= v <= hi for v in outside):
        raise ValueError(f"versions {inside} cannot be one range without {sorted(outside)}")
    # Widen to an open range where nothing outside stops it.
    if not any(v > hi for v in outside if v <= top):
        return f"{lo}+"
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def field_versions(f):
    return vset(f.get("versions"), f.get("taggedVersions"))


WIRE_KEYS = ("type", "tag", "default", "flexibleVersions")


def norm_default(f):
    d = f.get("default")
    if d is None:
        return None
    return str(d).lower() if isinstance(d, bool) else str(d)


def merge_fields(per_version, ours_fields, top, where, log):
    """Merges field lists.

    per_version: {version: list of field dicts (the source's fields here)}
    ours_fields: our field list at this place (for about texts, comments and our own fields)
    """
    ours_by_name = {f["name"]: f for f in (ours_fields or [])}
    # Field order: newest source first, others inserted after their predecessor.
    order = []
    for v in sorted(per_version, reverse=True):
        prev = None
        for f in per_version[v]:
            if v not in field_versions(f):
                continue
            name = f["name"]
            if name not in order:
                if prev is None:
                    order.insert(0, name)
                else:
                    order.insert(order.index(prev) + 1, name)
            prev = name
    # Our own fields (no release has them) keep their place after their predecessor.
    prev = None
    for f in ours_fields or []:
        name = f["name"]
        if name not in order and f.get("_ours"):
            order.insert(0 if prev is None else order.index(prev) + 1, name)
        if name in order:
            prev = name
    merged = []
    for name in order:
        if name in ours_by_name and ours_by_name[name].get("_ours"):
            merged.append(ours_by_name[name])
            continue
        present, nullable, tagged = set(), set(), set()
        attrs = {}
        newest = None
        sub = {}
        for v in sorted(per_version):
            f = next((x for x in per_version[v] if x["name"] == name), None)
            if f is None or v not in field_versions(f):
                continue
            present.add(v)
            if v in vset(f.get("nullableVersions")):
                nullable.add(v)
            if v in vset(f.get("taggedVersions")):
                tagged.add(v)
            for k in WIRE_KEYS:
                val = norm_default(f) if k == "default" else f.get(k)
                if k in attrs and attrs[k][0] != val:
                    log.append(f"{where}.{name}: {k} {attrs[k][0]!r} at v{attrs[k][1]} but {val!r} at v{v}")
                attrs.setdefault(k, (val, v))
            newest = f
            if "fields" in f:
                sub[v] = f["fields"]
        out = {k: val for k, val in newest.items() if k not in ("fields", "about")}
        out["versions"] = vstr(present, top)
        absent = set(range(0, top + 1)) - present
        if nullable:
            out["nullableVersions"] = cover(nullable, (present - nullable) | set(), top)
        else:
            out.pop("nullableVersions", None)
        if tagged:
            out["taggedVersions"] = cover(tagged, present - tagged, top)
        else:
            out.pop("taggedVersions", None)
        ours = ours_by_name.get(name)
        out["about"] = ours.get("about", "") if ours else ""
        if ours and "_comments" in ours:
            out["_comments"] = ours["_comments"]
        if sub:
            out["fields"] = merge_fields(sub, ours.get("fields") if ours else None, top, f"{where}.{name}", log)
        merged.append(out)
    return merged


def comments_by_field(text):
    """Comment lines standing right before a field, by the field's name."""
    out, pending = {}, []
    for line in text.split("\n"):
        s = line.strip()
        if s.startswith("//"):
            pending.append(s)
            continue
        m = re.match(r'\{\s*"name":\s*"([^"]+)"', s)
        if m and pending:
            out.setdefault(m.group(1), pending)
        if s:
            pending = []
    return out


def mark(fields, comments, own):
    for f in fields or []:
        if f["name"] in comments:
            f["_comments"] = comments[f["name"]]
        if f["name"] in own:
            f["_ours"] = True
        mark(f.get("fields"), comments, own)


def header_comments(text):
    """(lines before the opening brace, comment lines before validVersions)."""
    before = text[: text.index("{")].rstrip("\n").split("\n") if text.index("{") else []
    inner = []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if '"validVersions"' in line:
            j = i - 1
            while j >= 0 and lines[j].strip().startswith("//"):
                j -= 1
            inner = [l.strip() for l in lines[j + 1 : i]]
            break
    return [l for l in before if l.strip()], inner


def dumps(v):
    return json.dumps(v, ensure_ascii=False)


FIELD_KEY_ORDER = ["name", "type", "versions", "nullableVersions", "taggedVersions", "tag", "default",
                   "ignorable", "mapKey", "entityType", "flexibleVersions", "zeroCopy"]


def write_fields(fields, indent, out):
    for i, f in enumerate(fields):
        for c in f.get("_comments", []):
            out.append(" " * indent + c)
        keys = [k for k in FIELD_KEY_ORDER if k in f] + [
            k for k in f if k not in FIELD_KEY_ORDER and k not in ("about", "fields") and not k.startswith("_")]
        head = ", ".join(f"{dumps(k)}: {dumps(f[k])}" for k in keys)
        last = i == len(fields) - 1
        if "fields" in f:
            out.append(" " * indent + "{ " + head + ",")
            out.append(" " * (indent + 2) + f'"about": {dumps(f.get("about", ""))}, "fields": [')
            write_fields(f["fields"], indent + 2, out)
            out.append(" " * indent + "]}" + ("" if last else ","))
        else:
            out.append(" " * indent + "{ " + head + ",")
            out.append(" " * (indent + 2) + f'"about": {dumps(f.get("about", ""))} }}' + ("" if last else ","))


def render(spec, before, inner):
    out = list(before)
    out.append("{")
    for k in ("apiKey", "type", "listeners", "name"):
        if k in spec:
            out.append(f"  {dumps(k)}: {dumps(spec[k])},")
    out.extend("  " + c for c in inner)
    for k in ("validVersions", "deprecatedVersions", "flexibleVersions", "latestVersionUnstable"):
        if k in spec:
            out.append(f"  {dumps(k)}: {dumps(spec[k])},")
    has_common = bool(spec.get("commonStructs"))
    out.append('  "fields": [')
    write_fields(spec["fields"], 4, out)
    out.append("  ]" + ("," if has_common else ""))
    if has_common:
        out.append('  "commonStructs": [')
        for i, cs in enumerate(spec["commonStructs"]):
            out.append(f'    {{ "name": {dumps(cs["name"])}, "versions": {dumps(cs["versions"])}, "fields": [')
            write_fields(cs["fields"], 6, out)
            out.append("    ]}" + ("," if i < len(spec["commonStructs"]) - 1 else ""))
        out.append("  ]")
    out.append("}")
    return "\n".join(out) + "\n"


# kwire's own fields: kept as they are in SCHEMAS.
OWN_FIELDS = {
    "RequestHeader": {"InitialPrincipalName", "InitialClientId"},
    "EnvelopeRequest": {"RequestData"},
    "EnvelopeResponse": {"ResponseData"},
}


def project(fields, v, commons, flexible):
    """The wire shape of a field list at version v, as comparable data."""
    out = []
    for f in fields or []:
        if v not in field_versions(f):
            continue
        ty = f["type"]
        inner = ty[2:] if ty.startswith("[]") else ty
        sub = f.get("fields")
        if sub is None and inner in commons:
            sub = commons[inner]
        fv = f.get("flexibleVersions")
        out.append((
            f["name"], ty if sub is None else ("[]" if ty.startswith("[]") else "") + "struct",
            v in vset(f.get("nullableVersions")),
            v in vset(f.get("taggedVersions")),
            int(f["tag"]) if f.get("tag") is not None and v in vset(f.get("taggedVersions")) else None,
            norm_default(f),
            (v in vset(fv)) if fv is not None else flexible,
            tuple(project(sub, v, commons, flexible)) if sub is not None else None,
        ))
    return out


def wire_view(spec):
    """The wire shape of every version of a schema (not about texts, comments, listeners)."""
    commons = {c["name"]: c["fields"] for c in spec.get("commonStructs", [])}
    versions = vset(spec.get("validVersions"))
    flex = vset(spec.get("flexibleVersions"))
    return {v: project(spec.get("fields"), v, commons, v in flex) for v in versions}, \
        bool(spec.get("latestVersionUnstable"))


def main():
    ours_dir, releases = sys.argv[1], sys.argv[2:]
    rel = []  # (name, {message name: spec})
    for d in releases:
        specs = {}
        for fn in sorted(os.listdir(d)):
            if fn.endswith(".json"):
                spec, _ = load(os.path.join(d, fn))
                specs[spec["name"]] = spec
        rel.append((d, specs))
    ours = {}
    for fn in sorted(os.listdir(ours_dir)):
        if fn.endswith(".json"):
            spec, text = load(os.path.join(ours_dir, fn))
            ours[spec["name"]] = (fn, spec, text)
    # Requests and responses by api key: a renamed message (ListClientMetricsResources,
    # api key 74, is ListConfigResources from 4.0 on) is one message under its newest name.
    def key(spec):
        if spec.get("type") in ("request", "response"):
            return (spec["type"], spec["apiKey"])
        return ("name", spec["name"])
    groups = {}
    for _, specs in rel:
        for name, spec in specs.items():
            groups.setdefault(key(spec), []).append(name)
    log = []
    for k, names in sorted(groups.items(), key=lambda kv: str(kv[0])):
        newest_name = names[-1]
        # Versions per source: newest release with v.
        src = {}
        for ri, (_, specs) in enumerate(rel):
            spec = next((specs[n] for n in specs if key(specs[n]) == k), None)
            if spec is None:
                continue
            for v in vset(spec.get("validVersions")):
                if v < INF - 1:
                    src[v] = (ri, spec)
        mine = next(((fn, s, t) for fn, s, t in ours.values() if key(s) == k), None)
        if mine:
            fn, ospec, otext = mine
            for v in vset(ospec.get("validVersions")):
                src.setdefault(v, (-1, ospec))
        else:
            fn, ospec, otext = newest_name + ".json", None, None
        if not src:
            continue
        top = max(src)
        newest = src[top][1]
        flex = {min(vset(s.get("flexibleVersions")), default=None) for _, s in src.values()}
        flex.discard(None)
        if len(flex) > 1:
            log.append(f"{newest_name}: flexibleVersions differ across releases: {flex}")
        if ospec is not None:
            comments = comments_by_field(otext)
            mark(ospec.get("fields"), comments, OWN_FIELDS.get(ospec["name"], set()))
            for cs in ospec.get("commonStructs", []):
                mark(cs.get("fields"), comments, set())
        per_version = {v: s.get("fields", []) for v, (_, s) in src.items()}
        fields = merge_fields(per_version, ospec.get("fields") if ospec else None, top, newest_name, log)
        commons = []
        names_cs = []
        for v in sorted(src, reverse=True):
            for cs in src[v][1].get("commonStructs", []):
                if cs["name"] not in names_cs:
                    names_cs.append(cs["name"])
        for csn in names_cs:
            pv = {}
            cvers = set()
            for v, (_, s) in src.items():
                cs = next((c for c in s.get("commonStructs", []) if c["name"] == csn), None)
                if cs is not None:
                    pv[v] = cs["fields"]
                    cvers |= {x for x in vset(cs.get("versions")) if x == v}
            ocs = next((c for c in (ospec or {}).get("commonStructs", []) if c["name"] == csn), None)
            newest_cs = next(c for c in src[max(pv)][1]["commonStructs"] if c["name"] == csn)
            merged = merge_fields(pv, ocs["fields"] if ocs else None, top, f"{newest_name}.{csn}", log)
            cv = newest_cs.get("versions", "0+")
            if ocs is not None and vset(ocs.get("versions")) != vset(cv):
                lo = min(min(vset(ocs.get("versions")) or {0}), min(vset(cv) or {0}))
                cv = f"{lo}+"
            commons.append({"name": csn, "versions": cv, "fields": merged})
        spec = {}
        for kk in ("apiKey", "type", "name"):
            if kk in newest:
                spec[kk] = newest[kk]
        spec["name"] = newest_name
        listeners = list(newest.get("listeners", []))
        if ospec is not None:
            listeners = ospec.get("listeners", listeners) + [l for l in listeners if l not in ospec.get("listeners", [])]
        if listeners or "listeners" in newest:
            spec["listeners"] = listeners
        spec = {k2: spec[k2] for k2 in ("apiKey", "type", "listeners", "name") if k2 in spec}
        spec["validVersions"] = vstr(set(src), top).replace(f"{min(src)}+", f"{min(src)}-{top}") if top > min(src) else str(top)
        if ospec is not None and ospec.get("deprecatedVersions"):
            spec["deprecatedVersions"] = ospec["deprecatedVersions"]
        fv = newest.get("flexibleVersions")
        spec["flexibleVersions"] = fv if fv is not None else (ospec or {}).get("flexibleVersions", "none")
        if newest.get("latestVersionUnstable"):
            spec["latestVersionUnstable"] = True
        spec["fields"] = fields
        if commons:
            spec["commonStructs"] = commons
        if ospec is not None and wire_view(spec) == wire_view(ospec) and ospec["name"] == newest_name:
            continue
        before, inner = header_comments(otext) if otext else ([], [])
        if not before:
            before = ["// kwire schema: " + newest_name + "."]
        text = render(spec, before, inner)
        if mine and fn != newest_name + ".json":
            os.remove(os.path.join(ours_dir, fn))
            print(f"renamed {fn} -> {newest_name}.json")
        path = os.path.join(ours_dir, newest_name + ".json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        old = ospec.get("validVersions") if ospec else None
        print(f"{'updated' if ospec else 'added'} {newest_name}.json: versions {old} -> {spec['validVersions']}")
    for line in log:
        print("conflict:", line, file=sys.stderr)


if __name__ == "__main__":
    main()
