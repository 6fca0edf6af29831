#!/usr/bin/env bash
# Builds the DocC catalog (Sources/DiscKit/DiscKit.docc) with the DiscKit module's symbol graph, as
# `docc convert` does for a package, and fails when a link does not resolve (a symbol that was
# renamed, made `package`, or removed; an article that does not exist). Output: .build/docs.
#   DOCS_STRICT=0  report unresolved links without failing
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# The public symbol graphs of the debug build (built first when needed), DiscKit's taken alone.
dump="$(swift package dump-symbol-graph --include-spi-symbols 2>&1)" || { echo "$dump" >&2; exit 1; }
graphs="$(echo "$dump" | sed -n 's/^Files written to //p' | tail -1)"
[ -s "$graphs/DiscKit.symbols.json" ] || { echo "$dump" >&2; echo "docs: no DiscKit symbol graph" >&2; exit 1; }
symbols=".build/docs-symbols"
rm -rf "$symbols" && mkdir -p "$symbols"
cp "$graphs"/DiscKit.symbols.json "$graphs"/DiscKit@*.symbols.json "$symbols"/ 2>/dev/null
log="$(docc convert Sources/DiscKit/DiscKit.docc --additional-symbol-graph-dir "$symbols" \
  --fallback-display-name DiscKit --fallback-bundle-identifier org.disckit.DiscKit \
  --output-path .build/docs 2>&1)"
status=$?
[ $status -eq 0 ] || { echo "$log" >&2; echo "docs: docc convert failed ($status)" >&2; exit 1; }
broken="$(echo "$log" | grep -E "warning: .*(doesn't exist|is ambiguous|No article or symbol)" | sort -u)"
if [ -n "$broken" ]; then
  echo "$broken" >&2
  echo "docs: $(echo "$broken" | wc -l) unresolved DocC link(s)" >&2
  [ "${DOCS_STRICT:-1}" = "0" ] || exit 1
fi
echo "docs: .build/docs ($(echo "$log" | grep -c 'warning:') warnings, no unresolved link)" >&2
