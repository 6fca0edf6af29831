#!/usr/bin/env bash
# Blu-ray discs authored by DiscKit (`disckit author --clips`) from ffmpeg clips, into
# $OUT/bluray/ (each as an image NAME.iso and a folder NAME/):
#   simple        title 1 = a + b (chapters every 2 s), title 2 = hd (1920x1080, 2 s), 1 decoy
#   decoys        title 1 = a + b, 300 decoy playlists (shuffled, looping, other chapters)
#   seamless      title 1 = one 6 s stream cut in two at a keyframe (connection condition 5)
#   angles        title 1 = two clips as angles 1 and 2 of one play item
# The clips are kept in $OUT/bluray/clips/.
set -euo pipefail
: "${OUT:?OUT must be set}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
source "$here/bluray-clips.sh"
dir="$OUT/bluray"
clips="$dir/clips"
rm -rf "$dir"
mkdir -p "$clips"
disckit="$(disckit_bin "$root")"

clip "$clips/a.ts" 4 testsrc 440
clip "$clips/b.ts" 3 testsrc2 550
clip "$clips/hd.ts" 2 testsrc 660 1920x1080
clip "$clips/angle1.ts" 3 testsrc 440
clip "$clips/angle2.ts" 3 smptebars 880
clip "$clips/whole.ts" 6 testsrc2 330
ffmpeg -hide_banner -loglevel error -y -i "$clips/whole.ts" -map 0 -c copy -f segment \
  -segment_time 3 -segment_format mpegts "$clips/half%d.ts"

build() { # name, then author arguments
  local name="$1"; shift
  "$disckit" author "$@" -o "$dir/$name.iso" --force --recording-time 1700000000 >/dev/null
  "$disckit" author "$@" --folder "$dir/$name" >/dev/null
}
build simple --clips "$clips/a.ts" "$clips/b.ts" "$clips/hd.ts" --title a.ts,b.ts hd.ts \
  --chapters-every 2 --decoys 1
build decoys --clips "$clips/a.ts" "$clips/b.ts" --title a.ts,b.ts --decoys 300
build seamless --clips "$clips/half0.ts" "$clips/half1.ts" --title half0.ts,half1.ts
build angles --clips "$clips/angle1.ts" "$clips/angle2.ts" --title angle1.ts+angle2.ts
