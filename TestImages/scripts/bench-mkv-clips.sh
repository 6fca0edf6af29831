#!/usr/bin/env bash
# Clips for `make bench`'s Matroska benchmark (DiscKitBench mkv), not for `make test`:
#   bench-mkv-clips.sh DIR [SECONDS]
# writes DIR/c1.ts and DIR/c2.ts, SECONDS (default 60) each, in different PTS epochs (10 s and
# 20000 s): 1280x720 H.264 at 12 Mb/s, AC-3 (eng) and 24-bit LPCM (fra), as M2TS (192-byte
# packets). 60 s makes a title of about 218 MiB, big enough that process start does not count.
set -euo pipefail
dir="${1:?usage: bench-mkv-clips.sh DIR [SECONDS]}"
seconds="${2:-60}"
mkdir -p "$dir"
for spec in c1:10 c2:20000; do
  name="${spec%%:*}"
  offset="${spec#*:}"
  ffmpeg -nostdin -v error -y \
    -f lavfi -i "testsrc2=size=1280x720:rate=24:duration=$seconds" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=$seconds" \
    -f lavfi -i "sine=frequency=660:sample_rate=48000:duration=$seconds" \
    -map 0 -map 1 -map 2 \
    -c:v libx264 -preset ultrafast -b:v 12M -g 24 -bf 2 -pix_fmt yuv420p \
    -c:a:0 ac3 -c:a:1 pcm_bluray -sample_fmt:a:1 s32 \
    -metadata:s:a:0 language=eng -metadata:s:a:1 language=fra \
    -output_ts_offset "$offset" -mpegts_m2ts_mode 1 "$dir/$name.ts"
done
