#!/usr/bin/env bash
# Makes TestImages/sample.iso: a small ISO9660 + UDF 1.02 bridge image (genisoimage -udf) with a
# few files in nested folders. It is committed; `make` runs `disckit info` and `disckit ls` on it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tree/DOCS/NOTES" "$tmp/tree/DATA"
printf 'DiscKit sample image\n' > "$tmp/tree/README.TXT"
printf 'nested file\n' > "$tmp/tree/DOCS/NOTES/NOTE.TXT"
head -c 100000 /dev/zero | tr '\0' 'x' > "$tmp/tree/DATA/BLOCK.BIN"
SOURCE_DATE_EPOCH=1700000000 genisoimage -quiet -udf -J -R -V DISCKIT_SAMPLE \
  -o "$here/../sample.iso" "$tmp/tree"
