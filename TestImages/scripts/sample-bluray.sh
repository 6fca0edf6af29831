#!/usr/bin/env bash
# Makes TestImages/sample-bluray.iso (committed, ~1 MB): a Blu-ray image authored by DiscKit itself
# from three short ffmpeg clips (320x180 H.264 + AC-3): title 1 = clips a + b (7 s, a chapter every
# 2 s), title 2 = clip c (5 s), and one decoy playlist of title 1 (same clips, other chapters).
# Deterministic: bit-exact clips and a fixed UDF recording time.
#   `make` runs: disckit titles TestImages/sample-bluray.iso --all
#                disckit scan TestImages/sample-bluray.iso
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
source "$here/bluray-clips.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
clip "$tmp/a.ts" 4 testsrc 440
clip "$tmp/b.ts" 3 testsrc2 550
clip "$tmp/c.ts" 5 smptebars 660
"$(disckit_bin "$root")" author --clips "$tmp/a.ts" "$tmp/b.ts" "$tmp/c.ts" \
  --title a.ts,b.ts c.ts --chapters-every 2 --decoys 1 --label DISCKIT_BLURAY \
  --recording-time 1700000000 -o "$root/TestImages/sample-bluray.iso" --force
