#!/usr/bin/env bash
# Makes small DVD-Video test discs in $OUT (default TestImages/generated):
#   dvd-ntsc/VIDEO_TS (folder) and dvd-ntsc.iso: two title sets, NTSC 16:9.
#     VTS 1 has three titles (6 s with chapters at 0,2,4 s; 3 s + 3 s as two cells/programs;
#     6 s with chapters at 0,3 s), so it has the biggest VOB set; VTS 2 has one 9 s title
#     (chapters at 0,3,6 s), the longest title. Audio: en (VTS 1), fr (VTS 2).
#   dvd-pal/VIDEO_TS and dvd-pal.iso: one title set, PAL 4:3, two titles (4 s and 5 s, de audio).
# Clips come from ffmpeg's lavfi test sources with -target ntsc-dvd / pal-dvd (low bit rate, so
# each disc is a few MB); the discs are authored with dvdauthor and mastered with
# `genisoimage -dvd-video` (UDF 1.02 + ISO9660 bridge).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$(cd "$here/.." && pwd)/generated}"
mkdir -p "$OUT"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000

clip() { # name target size rate seconds frequency
  ffmpeg -nostdin -loglevel error -y \
    -f lavfi -i "testsrc=size=$3:rate=$4:duration=$5" \
    -f lavfi -i "sine=frequency=$6:sample_rate=48000:duration=$5" \
    -target "$2" -b:v 400k -maxrate 800k -bufsize 224k -b:a 96k -ac 2 -aspect "$7" \
    -bitexact -shortest "$tmp/$1.mpg"
}

clip n6a ntsc-dvd 720x480 30000/1001 6 440 16:9
clip n3a ntsc-dvd 720x480 30000/1001 3 550 16:9
clip n3b ntsc-dvd 720x480 30000/1001 3 660 16:9
clip n6b ntsc-dvd 720x480 30000/1001 6 770 16:9
clip n9 ntsc-dvd 720x480 30000/1001 9 880 16:9
clip p4 pal-dvd 720x576 25 4 440 4:3
clip p5 pal-dvd 720x576 25 5 550 4:3

cat > "$tmp/ntsc.xml" <<XML
<dvdauthor dest="$tmp/dvd-ntsc" jumppad="0">
  <vmgm/>
  <titleset>
    <titles>
      <video format="ntsc" aspect="16:9"/>
      <audio lang="en"/>
      <pgc><vob file="$tmp/n6a.mpg" chapters="0,2,4"/></pgc>
      <pgc><vob file="$tmp/n3a.mpg"/><vob file="$tmp/n3b.mpg"/></pgc>
      <pgc><vob file="$tmp/n6b.mpg" chapters="0,3"/></pgc>
    </titles>
  </titleset>
  <titleset>
    <titles>
      <video format="ntsc" aspect="16:9"/>
      <audio lang="fr"/>
      <pgc><vob file="$tmp/n9.mpg" chapters="0,3,6"/></pgc>
    </titles>
  </titleset>
</dvdauthor>
XML

cat > "$tmp/pal.xml" <<XML
<dvdauthor dest="$tmp/dvd-pal" jumppad="0">
  <vmgm/>
  <titleset>
    <titles>
      <video format="pal" aspect="4:3"/>
      <audio lang="de"/>
      <pgc><vob file="$tmp/p4.mpg" chapters="0,2"/></pgc>
      <pgc><vob file="$tmp/p5.mpg"/></pgc>
    </titles>
  </titleset>
</dvdauthor>
XML

for disc in ntsc pal; do
  VIDEO_FORMAT=NTSC dvdauthor -x "$tmp/$disc.xml" >/dev/null 2>"$tmp/$disc.log" || { cat "$tmp/$disc.log" >&2; exit 1; }
  rm -rf "$OUT/dvd-$disc"
  mkdir -p "$OUT/dvd-$disc"
  cp -r "$tmp/dvd-$disc/VIDEO_TS" "$OUT/dvd-$disc/"
  mkdir -p "$OUT/dvd-$disc/AUDIO_TS"
  genisoimage -quiet -dvd-video -V "DISCKIT_DVD_${disc^^}" -o "$OUT/dvd-$disc.iso" "$OUT/dvd-$disc"
done
