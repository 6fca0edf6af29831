#!/usr/bin/env bash
# Builds every generated test image into TestImages/generated/ by running each make-*.sh script.
# A script is re-run only when it (or dvd-authoring.sh, which the DVD scripts source) is newer than
# its stamp, so repeated `make test` runs are cheap.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(cd "$here/.." && pwd)/generated"
mkdir -p "$out"
for script in "$here"/make-*.sh; do
  name="$(basename "$script" .sh)"
  [ "$name" = "make-all" ] && continue
  stamp="$out/.$name.stamp"
  if [ -f "$stamp" ] && [ "$stamp" -nt "$script" ] \
    && { ! grep -q dvd-authoring.sh "$script" || [ "$stamp" -nt "$here/dvd-authoring.sh" ]; }; then
    continue
  fi
  echo "TestImages: $name" >&2
  OUT="$out" bash "$script"
  touch "$stamp"
done
