#!/usr/bin/env bash
# Discs whose clips live in different PTS epochs, for the continuous timeline (issue 9), into
# $OUT/epochs/ (each disc as an image NAME.iso and a folder NAME/; names are stable, other tests
# use them).
#
# Blu-ray clips (ffmpeg, 320x180 25 fps H.264 + two AC-3 tracks: eng 440+ Hz, deu 880+ Hz; PMT
# languages carry into the STN tables), first PTS = 1.4 s + the -output_ts_offset:
#   e1.ts   4 s  offset 0          (PTS from 1.4 s)
#   e2.ts   3 s  offset 3600 s     (one hour later)
#   e3.ts   3 s  offset 36000 s    (ten hours later)
#   wrap.ts 4 s  offset 95441 s    (PTS cross the 33-bit wrap 2^33/90000 = 95443.7176 s about
#                                   1.3 s into the clip: the play item's out-time < in-time)
#   s0.ts, s1.ts  one 6 s stream at offset 7200 s cut in two at 3 s (s1 continues s0: seamless)
# Blu-ray discs:
#   bd-epochs   title 1 (00000.mpls) = e2, e1, e3    shuffled epochs, non-seamless (cc 1)
#               title 2 (00001.mpls) = s0, s1, e2    seamless (cc 5) then non-seamless (cc 1)
#               chapters every 2 s
#   bd-wrap     title 1 (00000.mpls) = wrap          one clip across the wrap
#               title 2 (00001.mpls) = e3, wrap, e1  the wrapped clip between two epochs
#               chapters every 1 s
#   bd-stc      title 1 = stc3 (e1, e2, e3 concatenated: one clip, three STC sequences)
#               title 2 = e1, stc3                   (see below)
# DVD (dvdauthor, PAL 720x576 25 fps MPEG-2 + two AC-3 tracks en, de; each cell its own VOB file
# made separately, so every cell restarts its SCR/PTS near 0, except d2 made at +1000 s):
#   dvd-epochs  title 1 = d1 (4 s), d2 (3 s, offset 1000 s), d3 (3 s); a chapter per cell
#               title 2 = d3 (3 s), d1 (4 s)
# The clips are kept in $OUT/epochs/clips/.
set -euo pipefail
: "${OUT:?OUT must be set}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
source "$here/bluray-clips.sh"
dir="$OUT/epochs"
clips="$dir/clips"
rm -rf "$dir"
mkdir -p "$clips"
disckit="$(disckit_bin "$root")"
export SOURCE_DATE_EPOCH=1700000000

# bdclip NAME SECONDS SOURCE TONE OFFSET: H.264 + AC-3 eng + AC-3 deu, bit-exact.
bdclip() {
  local name="$1" seconds="$2" source="$3" tone="$4" offset="$5"
  ffmpeg -hide_banner -loglevel error -y -threads 1 \
    -f lavfi -i "$source=size=320x180:rate=25:duration=$seconds" \
    -f lavfi -i "sine=frequency=$tone:sample_rate=48000:duration=$seconds" \
    -f lavfi -i "sine=frequency=$((tone * 2)):sample_rate=48000:duration=$seconds" \
    -map 0:v -map 1:a -map 2:a \
    -c:v libx264 -preset ultrafast -threads 1 -g 25 -keyint_min 25 -sc_threshold 0 -bf 2 \
    -pix_fmt yuv420p -c:a ac3 -b:a 96k -ac 2 \
    -metadata:s:a:0 language=eng -metadata:s:a:1 language=deu \
    -pes_payload_size 0 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact \
    -output_ts_offset "$offset" "$name"
}

bdclip "$clips/e1.ts" 4 testsrc 440 0
bdclip "$clips/e2.ts" 3 testsrc2 550 3600
bdclip "$clips/e3.ts" 3 smptebars 660 36000
bdclip "$clips/wrap.ts" 4 testsrc 770 95441
bdclip "$clips/whole.ts" 6 testsrc2 330 7200
ffmpeg -hide_banner -loglevel error -y -copyts -i "$clips/whole.ts" -map 0 -c copy -f segment \
  -segment_frames 75 -segment_format mpegts "$clips/s%d.ts"
rm -f "$clips/whole.ts"

build() { # name, then author arguments
  local name="$1"; shift
  "$disckit" author "$@" -o "$dir/$name.iso" --force --recording-time 1700000000 >/dev/null
  "$disckit" author "$@" --folder "$dir/$name" >/dev/null
}
c() { echo "$clips/$1.ts"; }
build bd-epochs --clips "$(c e1)" "$(c e2)" "$(c e3)" "$(c s0)" "$(c s1)" \
  --title e2.ts,e1.ts,e3.ts s0.ts,s1.ts,e2.ts --chapters-every 2
build bd-wrap --clips "$(c wrap)" "$(c e1)" "$(c e3)" \
  --title wrap.ts e3.ts,wrap.ts,e1.ts --chapters-every 1
# One clip with three STC sequences: e1, e2 and e3 byte-concatenated (the PCR and PTS jump
# twice: from 0 s to 3600 s, then to 36000 s); its CLPI lists the three sequences and their first
# source packets, and a title plays it as three play items (ref_to_STC_id 0, 1, 2). The times go
# up at each restart: libbluray's EP-map search (clpi_lookup_spn, which DiscKit reproduces for
# bd_read equality) starts at the STC sequence's first packet but does not stop at the next
# one's, so in a clip whose PTS go back at a restart it finds in/out packets in a later sequence.
#   bd-stc      title 1 (00000.mpls) = stc3                  3 items, STC 0, 1, 2
#               title 2 (00001.mpls) = e1, stc3              4 items
#               chapters every 1 s
cat "$(c e1)" "$(c e2)" "$(c e3)" > "$clips/stc3.ts"
build bd-stc --clips "$(c stc3)" "$(c e1)" --title stc3.ts e1.ts,stc3.ts --chapters-every 1

# DVD: each cell's VOB made on its own (timestamps restart at every cell).
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
dvdclip() { # name seconds source tone offset
  ffmpeg -nostdin -hide_banner -loglevel error -y \
    -f lavfi -i "$3=size=720x576:rate=25:duration=$2" \
    -f lavfi -i "sine=frequency=$4:sample_rate=48000:duration=$2" \
    -f lavfi -i "sine=frequency=$(($4 * 2)):sample_rate=48000:duration=$2" \
    -map 0:v -map 1:a -map 2:a -target pal-dvd -b:v 400k -maxrate 800k -bufsize 224k \
    -b:a 96k -ac 2 -aspect 4:3 -bitexact -output_ts_offset "$5" "$clips/$1.mpg"
}
dvdclip d1 4 testsrc 440 0
dvdclip d2 3 testsrc2 550 1000
dvdclip d3 3 smptebars 660 0
cat > "$tmp/dvd.xml" <<XML
<dvdauthor dest="$tmp/dvd-epochs" jumppad="0">
  <vmgm/>
  <titleset>
    <titles>
      <video format="pal" aspect="4:3"/>
      <audio lang="en"/>
      <audio lang="de"/>
      <pgc><vob file="$clips/d1.mpg"/><vob file="$clips/d2.mpg"/><vob file="$clips/d3.mpg"/></pgc>
      <pgc><vob file="$clips/d3.mpg"/><vob file="$clips/d1.mpg"/></pgc>
    </titles>
  </titleset>
</dvdauthor>
XML
VIDEO_FORMAT=PAL dvdauthor -x "$tmp/dvd.xml" >/dev/null 2>"$tmp/dvd.log" || { cat "$tmp/dvd.log" >&2; exit 1; }
mkdir -p "$dir/dvd-epochs"
cp -r "$tmp/dvd-epochs/VIDEO_TS" "$dir/dvd-epochs/"
mkdir -p "$dir/dvd-epochs/AUDIO_TS"
genisoimage -quiet -dvd-video -V "DISCKIT_DVD_EPOCHS" -o "$dir/dvd-epochs.iso" "$dir/dvd-epochs"
