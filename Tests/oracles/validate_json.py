#!/usr/bin/python3
"""Validates JSON documents against DiscKit's JSON Schemas with python3-jsonschema (an independent
implementation of JSON Schema 2020-12).

usage: validate_json.py SCHEMA_NAME [--lines] < document
  SCHEMA_NAME  e.g. titles (Sources/DiscKit/Documents/Schemas/titles.schema.json)
  --lines      the input is NDJSON: every non-empty line is one document
Exit 0 when every document is valid; 1 with one line per problem on stderr otherwise.
"""
import json
import os
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.path.join(HERE, "..", "..", "Sources", "DiscKit", "Documents", "Schemas")


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    name = sys.argv[1]
    store = {}
    for file in os.listdir(SCHEMAS):
        if file.endswith(".schema.json"):
            with open(os.path.join(SCHEMAS, file)) as f:
                schema = json.load(f)
            store[schema["$id"]] = schema
            store[file] = schema
    schema = store[name + ".schema.json"]
    jsonschema.Draft202012Validator.check_schema(schema)
    resolver = jsonschema.RefResolver(base_uri=schema["$id"], referrer=schema, store=store)
    validator = jsonschema.Draft202012Validator(schema, resolver=resolver)
    text = sys.stdin.read()
    documents = [l for l in text.splitlines() if l.strip()] if "--lines" in sys.argv else [text]
    if not documents:
        print("no document on stdin", file=sys.stderr)
        return 1
    problems = 0
    for number, doc in enumerate(documents, 1):
        try:
            value = json.loads(doc)
        except json.JSONDecodeError as e:
            print(f"document {number}: not JSON: {e}", file=sys.stderr)
            problems += 1
            continue
        for error in validator.iter_errors(value):
            path = "/".join(str(p) for p in error.absolute_path)
            print(f"document {number} at /{path}: {error.message}", file=sys.stderr)
            problems += 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
