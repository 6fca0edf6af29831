#!/usr/bin/env bash
# Shared by make-bluray.sh and sample-bluray.sh: `clip NAME SECONDS SOURCE TONE [SIZE] [EXTRA...]`
# writes an H.264 + AC-3 (English) transport stream made with ffmpeg from lavfi sources, bit-exact
# (single-threaded x264, bitexact muxing) so that the same command makes the same bytes.
clip() {
  local name="$1" seconds="$2" source="$3" tone="$4" size="${5:-320x180}"
  shift 5 || shift $#
  ffmpeg -hide_banner -loglevel error -y -threads 1 \
    -f lavfi -i "$source=size=$size:rate=25:duration=$seconds" \
    -f lavfi -i "sine=frequency=$tone:sample_rate=48000:duration=$seconds" \
    -c:v libx264 -preset ultrafast -threads 1 -g 25 -keyint_min 25 -sc_threshold 0 -bf 2 \
    -pix_fmt yuv420p -c:a ac3 -b:a 96k -ac 2 -metadata:s:a:0 language=eng \
    -pes_payload_size 0 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact \
    "$@" "$name"
}

# The disckit binary: $DISCKIT, else a release or debug build in the package.
disckit_bin() {
  local root="$1"
  if [ -n "${DISCKIT:-}" ]; then echo "$DISCKIT"; return; fi
  for b in "$root/.build/release/disckit" "$root/.build/debug/disckit"; do
    [ -x "$b" ] && { echo "$b"; return; }
  done
  (cd "$root" && swift build -c release --product disckit >&2) && echo "$root/.build/release/disckit"
}
