#!/usr/bin/env bash
# Blu-ray discs for the Matroska output tests, authored by DiscKit from ffmpeg clips, into
# $OUT/mkv/ (each as an image NAME.iso and a folder NAME/):
#   languages  title 1 = l1 + l2 (different PTS epochs, chapters every 2 s); each clip has
#              H.264, AC-3 (eng) and 24-bit LPCM (fra) audio, 48 kHz
#   lpcm16     title 1 = one clip with H.264 and 16-bit stereo LPCM (ger) only
#   wrap       title 1 = a + w, where w's PTS cross the 33-bit wrap 1.5 s into the clip
#   pgs        title 1 = one clip with H.264, AC-3 (eng) and a PGS subtitle stream (ger, PID
#              0x1200, stream type 0x90) muxed by ffmpeg from clips/pg.sup (make-pgs-sup.py:
#              display sets at 1, 2, 3 and 4 s of the clip's timeline)
#   dvd-lpcm   (folder only) a PAL DVD made with dvdauthor, one title with 16-bit LPCM audio (it)
#   dvd-vobsub (folder only) a PAL DVD, one title with AC-3 (en) and a spumux subpicture stream (de)
# and clips/bindata.ts, a transport stream whose LPCM stream libavformat cannot identify.
# Clips are made bit-exact (single-threaded x264, bitexact muxing) and kept in $OUT/mkv/clips/.
set -euo pipefail
: "${OUT:?OUT must be set}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
source "$here/bluray-clips.sh"
dir="$OUT/mkv"
clips="$dir/clips"
rm -rf "$dir"
mkdir -p "$clips"
disckit="$(disckit_bin "$root")"

# two-audio NAME SECONDS SOURCE OFFSET: H.264 + AC-3 (eng) + 24-bit LPCM (fra).
two_audio() {
  ffmpeg -hide_banner -loglevel error -y -threads 1 \
    -f lavfi -i "$3=size=320x180:rate=25:duration=$2" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=$2" \
    -f lavfi -i "sine=frequency=660:sample_rate=48000:duration=$2" \
    -map 0 -map 1 -map 2 \
    -c:v libx264 -preset ultrafast -threads 1 -g 25 -keyint_min 25 -sc_threshold 0 -bf 2 \
    -pix_fmt yuv420p -c:a:0 ac3 -b:a:0 96k -ac:a:0 2 -c:a:1 pcm_bluray -sample_fmt:a:1 s32 \
    -ac:a:1 2 -metadata:s:a:0 language=eng -metadata:s:a:1 language=fra \
    -output_ts_offset "$4" -pes_payload_size 0 -mpegts_m2ts_mode 1 \
    -fflags +bitexact -flags:v +bitexact -flags:a +bitexact "$1"
}
two_audio "$clips/l1.ts" 4 testsrc 10
two_audio "$clips/l2.ts" 3 testsrc2 5000
ffmpeg -hide_banner -loglevel error -y -threads 1 \
  -f lavfi -i "smptebars=size=320x180:rate=25:duration=3" \
  -f lavfi -i "sine=frequency=550:sample_rate=48000:duration=3" \
  -c:v libx264 -preset ultrafast -threads 1 -g 25 -keyint_min 25 -sc_threshold 0 -bf 2 \
  -pix_fmt yuv420p -c:a pcm_bluray -sample_fmt s16 -ac 2 -metadata:s:a:0 language=ger -mpegts_m2ts_mode 1 \
  -pes_payload_size 0 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact "$clips/p16.ts"
# LPCM in a plain transport stream: ffmpeg marks it as private data (stream type 0x06), which
# libavformat cannot identify (the unsupported-codec test demuxes this clip directly).
ffmpeg -hide_banner -loglevel error -y -threads 1 \
  -f lavfi -i "testsrc=size=320x180:rate=25:duration=1" \
  -f lavfi -i "sine=frequency=550:sample_rate=48000:duration=1" \
  -c:v libx264 -preset ultrafast -threads 1 -pix_fmt yuv420p -c:a pcm_bluray -ac 2 \
  -fflags +bitexact -flags:v +bitexact "$clips/bindata.ts"
# 2^33 / 90000 s = 95443.717678 s: w's PTS start 1.5 s before the wrap.
clip "$clips/a.ts" 3 testsrc 440
clip "$clips/w.ts" 3 testsrc2 550 320x180 -output_ts_offset 95442.2

# The .sup's times are kept (-copyts): its display sets play 1, 2, 3 and 4 s after the video's
# first picture.
python3 "$here/make-pgs-sup.py" "$clips/pg.sup" 320 180
ffmpeg -hide_banner -loglevel error -y -threads 1 -copyts \
  -f lavfi -i "testsrc=size=320x180:rate=25:duration=5" \
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=5" -i "$clips/pg.sup" \
  -map 0 -map 1 -map 2 \
  -c:v libx264 -preset ultrafast -threads 1 -g 25 -keyint_min 25 -sc_threshold 0 -bf 2 \
  -pix_fmt yuv420p -c:a ac3 -b:a 96k -ac 2 -c:s copy \
  -metadata:s:a:0 language=eng -metadata:s:s:0 language=ger \
  -pes_payload_size 0 -mpegts_m2ts_mode 1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact \
  "$clips/pg.ts"

build() { # name, then author arguments
  local name="$1"; shift
  "$disckit" author "$@" -o "$dir/$name.iso" --force --recording-time 1700000000 >/dev/null
  "$disckit" author "$@" --folder "$dir/$name" >/dev/null
}
build languages --clips "$clips/l1.ts" "$clips/l2.ts" --title l1.ts,l2.ts --chapters-every 2
build lpcm16 --clips "$clips/p16.ts" --title p16.ts --chapters-every 2
# ffmpeg writes no language descriptor for PGS: the STN language comes from --language.
build pgs --clips "$clips/pg.ts" --title pg.ts --chapters-every 2 --language ger
build wrap --clips "$clips/a.ts" "$clips/w.ts" --title a.ts,w.ts --chapters-every 2

# dvd-lpcm (folder): a PAL DVD (dvdauthor) whose one title has 16-bit LPCM audio (it), chapters
# at 0 and 1.5 s.
ffmpeg -nostdin -loglevel error -y \
  -f lavfi -i "testsrc=size=720x576:rate=25:duration=3" \
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=3" \
  -target pal-dvd -b:v 400k -maxrate 800k -bufsize 224k -c:a pcm_s16be -ac 2 -bitexact -shortest \
  "$clips/lpcm.mpg" 2>/dev/null
cat > "$clips/dvd-lpcm.xml" <<XML
<dvdauthor dest="$dir/dvd-lpcm" jumppad="0">
  <vmgm/>
  <titleset>
    <titles>
      <video format="pal" aspect="4:3"/>
      <audio lang="it"/>
      <pgc><vob file="$clips/lpcm.mpg" chapters="0,1.5"/></pgc>
    </titles>
  </titleset>
</dvdauthor>
XML
VIDEO_FORMAT=PAL dvdauthor -x "$clips/dvd-lpcm.xml" >/dev/null 2>&1

# dvd-vobsub (folder): a PAL DVD (dvdauthor) whose one title has AC-3 audio (en) and one
# subpicture stream (de) muxed by spumux from make-subpicture-png.py's image, shown 1.0-2.0 s
# and 2.5-3.5 s; chapters at 0 and 2 s. spumux hands its palette to dvdauthor, which writes it
# into the PGC's colour table.
python3 "$here/make-subpicture-png.py" "$clips/sub.png"
ffmpeg -nostdin -loglevel error -y \
  -f lavfi -i "testsrc=size=720x576:rate=25:duration=4" \
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=4" \
  -target pal-dvd -b:v 400k -maxrate 800k -bufsize 224k -ac 2 -bitexact -shortest \
  "$clips/vobsub-video.mpg" 2>/dev/null
cat > "$clips/spumux.xml" <<XML
<subpictures format="PAL">
  <stream>
    <spu start="00:00:01.00" end="00:00:02.00" image="$clips/sub.png" xoffset="100" yoffset="400"/>
    <spu start="00:00:02.50" end="00:00:03.50" image="$clips/sub.png" xoffset="300" yoffset="100"/>
  </stream>
</subpictures>
XML
spumux -s 0 "$clips/spumux.xml" < "$clips/vobsub-video.mpg" > "$clips/vobsub.mpg" 2>/dev/null
cat > "$clips/dvd-vobsub.xml" <<XML
<dvdauthor dest="$dir/dvd-vobsub" jumppad="0">
  <vmgm/>
  <titleset>
    <titles>
      <video format="pal" aspect="4:3"/>
      <audio lang="en"/>
      <subpicture lang="de"/>
      <pgc><vob file="$clips/vobsub.mpg" chapters="0,2"/></pgc>
    </titles>
  </titleset>
</dvdauthor>
XML
VIDEO_FORMAT=PAL dvdauthor -x "$clips/dvd-vobsub.xml" >/dev/null 2>&1
