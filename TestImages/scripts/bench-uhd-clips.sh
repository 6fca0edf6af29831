#!/usr/bin/env bash
# The clip for `make bench`'s UHD Matroska benchmark (DiscKitBench mkv-uhd), not for `make test`:
#   bench-uhd-clips.sh DIR [SECONDS]
# writes DIR/uhd.ts, SECONDS (default 20) of 1920x1080 HEVC Main 10 with HDR10 metadata at
# 40 Mb/s, and TrueHD 5.1 with its AC-3 core interleaved on one PID (make-truehd-core.py), as a
# UHD Blu-ray's main title carries them. (A 3840x2160 encode takes minutes on the bench
# machine; the bytes per second, what the muxers move, are those of a UHD disc.)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:?usage: bench-uhd-clips.sh DIR [SECONDS]}"
seconds="${2:-20}"
mkdir -p "$dir"
ffmpeg -nostdin -v error -y -threads 2 \
  -f lavfi -i "testsrc2=size=1920x1080:rate=24000/1001:duration=$seconds" \
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=$seconds" \
  -map 0:v -map 1:a -map 1:a \
  -c:v libx265 -preset ultrafast -b:v 40M -pix_fmt yuv420p10le \
  -x265-params "log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:hdr10=1:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1):max-cll=1000,400" \
  -c:a:0 truehd -strict -2 -ac:a:0 6 -c:a:1 ac3 -ac:a:1 6 \
  -metadata:s:a:0 language=eng -metadata:s:a:1 language=eng -mpegts_m2ts_mode 1 \
  -fflags +bitexact "$dir/uhd-separate.m2ts"
python3 "$here/make-truehd-core.py" "$dir/uhd-separate.m2ts" 0x1100 0x1101 "$dir/uhd.ts"
rm -f "$dir/uhd-separate.m2ts"
