#!/usr/bin/env bash
# Blu-ray folders authored by DiscKit from 1-second ffmpeg clips, one per audio/video coding a
# ripper meets (HEVC Main10 HDR10 + E-AC-3 5.1, DTS 5.1, TrueHD 5.1, LPCM 5.1 24-bit, AC-3
# stereo), into TestImages/generated/codecs/<name>; the stream-attribute tests compare what
# `disckit titles --json` reports about them with mkvmerge -J and ffprobe.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
. "$here/bluray-clips.sh"
disckit="$(disckit_bin "$root")"
out="$root/TestImages/generated/codecs"
rm -rf "$out" && mkdir -p "$out"
cd "$out"

common=(-hide_banner -loglevel error -y -threads 1
  -f lavfi -i "testsrc2=size=160x90:rate=24000/1001:duration=1"
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=1")
h264=(-c:v libx264 -preset ultrafast -threads 1 -pix_fmt yuv420p)
ts=(-metadata:s:a:0 language=eng -mpegts_m2ts_mode 1 -fflags +bitexact)

ffmpeg "${common[@]}" -c:v libx265 -preset ultrafast -pix_fmt yuv420p10le \
  -x265-params "log-level=error:pools=1:frame-threads=1:hdr10=1:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1):max-cll=1000,400" \
  -c:a eac3 -ac 6 "${ts[@]}" hdr10-eac3.m2ts
ffmpeg "${common[@]}" "${h264[@]}" -c:a dca -strict -2 -ac 6 "${ts[@]}" dts.m2ts
ffmpeg "${common[@]}" "${h264[@]}" -c:a truehd -strict -2 -ac 6 "${ts[@]}" truehd.m2ts
ffmpeg "${common[@]}" "${h264[@]}" -c:a pcm_bluray -sample_fmt s32 -ac 6 "${ts[@]}" lpcm.m2ts
ffmpeg "${common[@]}" "${h264[@]}" -c:a ac3 -ac 2 "${ts[@]}" ac3.m2ts

for clip in hdr10-eac3 dts truehd lpcm ac3; do
  "$disckit" author --clips "$clip.m2ts" --folder "$out/$clip" >/dev/null
done
