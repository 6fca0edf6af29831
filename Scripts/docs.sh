#!/usr/bin/env bash
# Builds the DocC catalog (Sources/DiscKit/DiscKit.docc) with the DiscKit module's symbol graph, as
# `docc convert` does for a package, and fails when a link does not resolve (a symbol that was
# renamed, made `package`, or removed; an article that does not exist). Output: .build/docs.
#   DOCS_STRICT=0  report unresolved links without failing
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
symbols=".build/docs-symbols"
mkdir -p "$symbols"
# A build path of its own: the symbol-graph flags would otherwise invalidate the debug build. The
# compiler writes the graph when it compiles the module, so an up-to-date build keeps the last one.
swift build --target DiscKit --build-path .build/docs-build \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$symbols" >&2 || exit 1
rm -f "$symbols"/SystemPackage*  # the dependency's own graphs are not documented here
[ -s "$symbols/DiscKit.symbols.json" ] || {
  rm -rf .build/docs-build  # no graph from an earlier build: compile again to get one
  swift build --target DiscKit --build-path .build/docs-build \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$symbols" >&2 || exit 1
  rm -f "$symbols"/SystemPackage*
}
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
