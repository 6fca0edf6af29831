#!/usr/bin/env bash
# Builds every generated test image into TestImages/generated/ by running each make-*.sh script.
# A script is re-run only when it is newer than its stamp, so repeated `make test` runs are cheap.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(cd "$here/.." && pwd)/generated"
mkdir -p "$out"
for script in "$here"/make-*.sh; do
  name="$(basename "$script" .sh)"
  [ "$name" = "make-all" ] && continue
  stamp="$out/.$name.stamp"
  if [ -f "$stamp" ] && [ "$stamp" -nt "$script" ]; then continue; fi
  echo "TestImages: $name" >&2
  OUT="$out" bash "$script"
  touch "$stamp"
done
