#!/usr/bin/env bash
# Blu-ray discs authored by DiscKit (`disckit author --clips`) from ffmpeg clips, into
# $OUT/bluray/ (each as an image NAME.iso and a folder NAME/):
#   simple        title 1 = a + b (chapters every 2 s), title 2 = hd (1920x1080, 2 s), 1 decoy
#   decoys        title 1 = a + b, 300 decoy playlists (shuffled, looping, other chapters)
#   seamless      title 1 = one 6 s stream cut in two at a keyframe (connection condition 5)
#   angles        title 1 = two clips as angles 1 and 2 of one play item
#   branching     title 1 = 25 seamless clips of one stream, title 2 = the same clips reordered
#   feature       seamless branching with angles: two cuts sharing segments, CC 5/6, 2-angle items
#   commentary    title 1 = whole.ts with Spanish AC-3 commentary (comm.ts, audio only) as
#                 out-of-mux secondary audio: a type 5 sub-path and a secondary STN entry
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

# branching: 25 clips of 12 frames cut from one 12 s stream (PTS continuous, continuity counters
# restarting at 0 in each, as ffmpeg's segment muxer writes them).
#   title 1 (00000.mpls) = s00..s24 in order (connection condition 5 at every join)
#   title 2 (00001.mpls) = s00..s09, s15..s24, s10..s14 (shared segments; non-seamless jumps)
ffmpeg -hide_banner -loglevel error -y -threads 1 \
  -f lavfi -i "testsrc2=size=320x180:rate=25:duration=12" \
  -f lavfi -i "sine=frequency=500:sample_rate=48000:duration=12" \
  -c:v libx264 -preset ultrafast -threads 1 -g 12 -keyint_min 12 -sc_threshold 0 -bf 2 \
  -pix_fmt yuv420p -c:a ac3 -b:a 96k -ac 2 -metadata:s:a:0 language=eng \
  -pes_payload_size 0 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact "$clips/long.ts"
ffmpeg -hide_banner -loglevel error -y -copyts -i "$clips/long.ts" -map 0 -c copy -f segment \
  -segment_frames "$(seq -s, 12 12 288)" -segment_format mpegts "$clips/s%02d.ts"
rm -f "$clips/long.ts"
branch_clips=()
for i in $(seq -w 0 24); do branch_clips+=("$clips/s$i.ts"); done
join() { local IFS=,; echo "$*"; }
all=(); for i in $(seq 0 24); do all+=("$(printf 's%02d.ts' "$i")"); done
second=(); for i in $(seq 0 9) $(seq 15 24) $(seq 10 14); do second+=("$(printf 's%02d.ts' "$i")"); done
build branching --clips "${branch_clips[@]}" --title "$(join "${all[@]}")" "$(join "${second[@]}")" \
  --chapters-every 2

# feature: seamless branching with angles, as feature discs author it. A second 12 s stream with
# the same timing and audio (another picture: angle 2) is cut like the first into t00..t24.
#   title 1 (00000.mpls, "extended") = s00..s24, connection condition 6 at every join
#   title 2 (00001.mpls, "theatrical") = s00..s11, s14..s24: the shared segments, joined with
#     condition 6 except s11 -> s14 (condition 5, a clean break: the PTS jump 0.96 s)
#   in both, the items of s05..s07 and s17..s18 have two angles (s and t clips).
ffmpeg -hide_banner -loglevel error -y -threads 1 \
  -f lavfi -i "smptebars=size=320x180:rate=25:duration=12" \
  -f lavfi -i "sine=frequency=500:sample_rate=48000:duration=12" \
  -c:v libx264 -preset ultrafast -threads 1 -g 12 -keyint_min 12 -sc_threshold 0 -bf 2 \
  -pix_fmt yuv420p -c:a ac3 -b:a 96k -ac 2 -metadata:s:a:0 language=eng \
  -pes_payload_size 0 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact "$clips/long2.ts"
ffmpeg -hide_banner -loglevel error -y -copyts -i "$clips/long2.ts" -map 0 -c copy -f segment \
  -segment_frames "$(seq -s, 12 12 288)" -segment_format mpegts "$clips/t%02d.ts"
rm -f "$clips/long2.ts"
angle_clips=()
for i in 05 06 07 17 18; do angle_clips+=("$clips/t$i.ts"); done
item() { # index, connection condition
  local name; name="$(printf 's%02d.ts' "$1")"
  case "$1" in 5|6|7|17|18) name="$name+$(printf 't%02d.ts' "$1")" ;; esac
  if [ "$1" -eq 0 ]; then echo "$name"; else echo "$name@$2"; fi
}
extended=(); for i in $(seq 0 24); do extended+=("$(item "$i" 6)"); done
theatrical=()
for i in $(seq 0 11) $(seq 14 24); do
  if [ "$i" -eq 14 ]; then theatrical+=("$(item "$i" 5)"); else theatrical+=("$(item "$i" 6)"); fi
done
build feature --clips "${branch_clips[@]}" "${angle_clips[@]}" \
  --title "$(join "${extended[@]}")" "$(join "${theatrical[@]}")" --chapters-every 2

# commentary: an audio-only clip (AC-3, Spanish, 6 s, PCR on the audio PID) played beside the 6 s
# title as out-of-mux secondary audio.
ffmpeg -hide_banner -loglevel error -y -threads 1 \
  -f lavfi -i "sine=frequency=300:sample_rate=48000:duration=6" \
  -c:a ac3 -b:a 96k -ac 2 -metadata:s:a:0 language=spa \
  -pes_payload_size 0 -fflags +bitexact -flags:a +bitexact "$clips/comm.ts"
build commentary --clips "$clips/whole.ts" "$clips/comm.ts" --title whole.ts \
  --secondary-audio 1=comm.ts --chapters-every 2
