#!/usr/bin/env bash
# Transport streams for the MPEG-TS layer and the PES pre-scanner (issue 3), made with ffmpeg from
# synthetic sources (lavfi testsrc + sine) into $OUT/ts/. Small (a few seconds each) except
# bench-h264.m2ts (~40 MB) used by the benchmark.
#   <video>-<audio>.ts      188-byte packets (-f mpegts)
#   <video>-<audio>.m2ts    192-byte BDAV packets (-mpegts_m2ts_mode 1)
#   wrap-*.ts               PTS start about 1.3 s before 2^33 and wrap during the clip
# Cut variants are made by the tests themselves (dd at a packet boundary and mid-packet).
set -euo pipefail
: "${OUT:?OUT must be set}"
dir="$OUT/ts"
mkdir -p "$dir"
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
src=(-f lavfi -i "testsrc=size=320x240:rate=25:duration=6" -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=6")
h264=(-c:v libx264 -preset ultrafast -g 25 -keyint_min 25 -sc_threshold 0 -bf 2 -pix_fmt yuv420p)
hevc=(-c:v libx265 -preset ultrafast -g 25 -keyint_min 25 -x265-params "log-level=none:scenecut=0:bframes=2")
mpeg2=(-c:v mpeg2video -g 12 -bf 2 -b:v 800k)
make() { # name ext video-args audio-args [extra]
  local name="$1" ext="$2"; shift 2
  local fmt=(-f mpegts)
  [ "$ext" = m2ts ] && fmt=(-f mpegts -mpegts_m2ts_mode 1)
  ff "${src[@]}" "$@" "${fmt[@]}" "$dir/$name.$ext"
}
make h264-ac3 ts "${h264[@]}" -c:a ac3 -b:a 192k
make h264-ac3 m2ts "${h264[@]}" -c:a ac3 -b:a 192k
make h264-eac3 ts "${h264[@]}" -c:a eac3 -b:a 192k
make h264-aac ts "${h264[@]}" -c:a aac -b:a 128k
make h264-mp2 ts "${h264[@]}" -c:a mp2 -b:a 192k
make h264-dts m2ts "${h264[@]}" -c:a dca -strict -2 -ar 48000
make h264-lpcm m2ts "${h264[@]}" -c:a pcm_bluray
make hevc-ac3 ts "${hevc[@]}" -c:a ac3
make hevc-aac m2ts "${hevc[@]}" -c:a aac
make mpeg2-mp2 ts "${mpeg2[@]}" -c:a mp2
make mpeg2-ac3 m2ts "${mpeg2[@]}" -c:a ac3
# PTS near 2^33 (95443.7 s): start ~1.3 s before the wrap.
make wrap-h264-ac3 ts "${h264[@]}" -c:a ac3 -output_ts_offset 95441
make wrap-h264-aac m2ts "${h264[@]}" -c:a aac -output_ts_offset 95441
# Benchmark stream: ~40 MB of H.264 + AC-3 in 192-byte packets.
ff -f lavfi -i "testsrc2=size=1280x720:rate=25:duration=40" -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=40" \
  -c:v libx264 -preset ultrafast -g 25 -b:v 8M -c:a ac3 -f mpegts -mpegts_m2ts_mode 1 "$dir/bench-h264.m2ts"
