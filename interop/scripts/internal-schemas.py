#!/usr/bin/env python3
"""Writes schemas-internal/FAMILY/*.json from one Apache Kafka release's
schema families (as interop/scripts/kafka-release.sh extracts them into
.cache/kafka/VERSION/schemas/FAMILY): every comment and every `about` text
removed, and each record given a one-sentence description of our own as a
leading comment (the `records` of each family in kafka-facts.json; a schema without one there is an error). Key order and every other
value are kept, so that interop/tests/internal_schemas.rs can compare each file
with the release's, about texts and comments aside.

Usage: python3 interop/scripts/internal-schemas.py [VERSION]   (default: the release of kafka-facts.json)
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The families, their directories and one sentence per schema, in our own
# words: `internal_records` of kafka-facts.json.
with open(os.path.join(ROOT, "kafka-facts.json"), encoding="utf-8") as _f:
    FACTS = json.load(_f)
FAMILIES = [family["dir"] for family in FACTS["internal_records"]["families"]]
ABOUTS = {name: about for family in FACTS["internal_records"]["families"] for name, about in family["records"].items()}


def blank_comments(text):
    """Removes // and /* */ comments outside strings."""
    out, i, n, in_str = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if c == '"':
                in_str = False
            i += 1
        elif c == '"':
            in_str = True
            out.append(c)
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_about(value):
    if isinstance(value, dict):
        return {k: strip_about(v) for k, v in value.items() if k != "about"}
    if isinstance(value, list):
        return [strip_about(v) for v in value]
    return value


def render(value, indent=0):
    """JSON in the release files' layout: one field object a line, nested
    field lists indented."""
    pad = "  " * indent
    if isinstance(value, dict):
        if "fields" not in value and indent > 0:
            return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
        items = []
        for k, v in value.items():
            items.append(pad + "  " + json.dumps(k) + ": " + render(v, indent + 1))
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and value and any(isinstance(v, dict) for v in value):
        items = [pad + "  " + render(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def main():
    version = sys.argv[1] if len(sys.argv) > 1 else FACTS["release"]
    root = ROOT
    cache = os.environ.get("KWIRE_RELEASES") or os.path.join(root, ".cache/kafka")
    cache = os.path.join(root, cache)
    missing = []
    for family in FAMILIES:
        src = os.path.join(cache, version, "schemas", family)
        dst = os.path.join(root, "schemas-internal", family)
        os.makedirs(dst, exist_ok=True)
        for old in os.listdir(dst):
            if old.endswith(".json"):
                os.remove(os.path.join(dst, old))
        for name in sorted(os.listdir(src)):
            if not name.endswith(".json"):
                continue
            with open(os.path.join(src, name), encoding="utf-8") as f:
                spec = strip_about(json.loads(blank_comments(f.read())))
            about = ABOUTS.get(spec.get("name"))
            if about is None:
                missing.append(f"{family}/{name}")
                continue
            # Kafka's schema language has no `about` for a whole schema: ours
            # is a comment line, which the compiler skips.
            with open(os.path.join(dst, name), "w", encoding="utf-8") as f:
                f.write("// " + about + "\n" + render(spec) + "\n")
    if missing:
        sys.exit("no description in kafka-facts.json (internal_records.families[].records) for: " + ", ".join(missing))


if __name__ == "__main__":
    main()
