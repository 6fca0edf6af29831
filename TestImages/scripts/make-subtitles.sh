#!/usr/bin/env bash
# Subtitle streams with known text for the recognition tests (issue 30), into $OUT/subtitles/:
#   sup/LANG.sup, sup/LANG.json   a PGS stream (1920x1080) of 12 captions per language (eng, fra,
#                                 deu, spa, jpn) and the text, fonts and times drawn
#                                 (make-subtitle-text.py)
#   bluray/ (folder) and bluray.iso   title 1 = a.ts + b.ts (b in another PTS epoch, 600 s later);
#                                 each clip has H.264, AC-3 and an English PGS stream (ffmpeg),
#                                 captions 0-3 in a, 4-7 in b; clips/a.json, clips/b.json
#   dvd/ (folder)                 a PAL DVD (dvdauthor) whose title plays two VOBs, each with an
#                                 English spumux subpicture stream (captions 0-3, then 4-7);
#                                 clips/dvd-a.json, clips/dvd-b.json
#   dvd-nolang/ (folder)          the same title with a subpicture stream in Breton ("br"), for
#                                 the missing-language report
set -euo pipefail
: "${OUT:?OUT must be set}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
source "$here/bluray-clips.sh"
dir="$OUT/subtitles"
clips="$dir/clips"
rm -rf "$dir"
mkdir -p "$clips" "$dir/sup"
disckit="$(disckit_bin "$root")"
# Debian's python3 (python3-pil).
py=/usr/bin/python3
text="$here/make-subtitle-text.py"

for lang in eng fra deu spa jpn; do
  "$py" "$text" sup "$dir/sup/$lang.sup" "$dir/sup/$lang.json" "$lang"
done

# Blu-ray: two clips, each with an English PGS stream; the .sup's times are kept (-copyts).
pgs_clip() { # name first-caption offset
  "$py" "$text" sup "$clips/$1.sup" "$clips/$1.json" eng --count 4 --first "$2"
  ffmpeg -hide_banner -loglevel error -y -threads 1 -copyts \
    -f lavfi -i "testsrc=size=320x180:rate=25:duration=10" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=10" -i "$clips/$1.sup" \
    -map 0 -map 1 -map 2 \
    -c:v libx264 -preset ultrafast -threads 1 -g 25 -keyint_min 25 -sc_threshold 0 -bf 2 \
    -pix_fmt yuv420p -c:a ac3 -b:a 96k -ac 2 -c:s copy \
    -metadata:s:a:0 language=eng -metadata:s:s:0 language=eng -output_ts_offset "$3" \
    -pes_payload_size 0 -mpegts_m2ts_mode 1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact \
    "$clips/$1.ts"
}
pgs_clip a 0 0
pgs_clip b 4 600
"$disckit" author --clips "$clips/a.ts" "$clips/b.ts" --title a.ts,b.ts --language eng \
  -o "$dir/bluray.iso" --force --recording-time 1700000000 >/dev/null
"$disckit" author --clips "$clips/a.ts" "$clips/b.ts" --title a.ts,b.ts --language eng \
  --folder "$dir/bluray" >/dev/null

# DVD: two VOBs, each with a spumux subpicture stream of 4 captions.
spu_vob() { # name first-caption
  mkdir -p "$clips/$1"
  "$py" "$text" spu "$clips/$1" "$clips/$1.json" eng --count 4 --first "$2"
  ffmpeg -nostdin -loglevel error -y \
    -f lavfi -i "testsrc=size=720x576:rate=25:duration=10" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=10" \
    -target pal-dvd -b:v 400k -maxrate 800k -bufsize 224k -ac 2 -bitexact -shortest \
    "$clips/$1-video.mpg" 2>/dev/null
  spumux -s 0 "$clips/$1/spumux-eng.xml" < "$clips/$1-video.mpg" > "$clips/$1.mpg" 2>/dev/null
}
spu_vob dvd-a 0
spu_vob dvd-b 4
dvd() { # name language
  cat > "$clips/$1.xml" <<XML
<dvdauthor dest="$dir/$1" jumppad="0">
  <vmgm/>
  <titleset>
    <titles>
      <video format="pal" aspect="4:3"/>
      <audio lang="en"/>
      <subpicture lang="$2"/>
      <pgc><vob file="$clips/dvd-a.mpg" chapters="0"/><vob file="$clips/dvd-b.mpg" chapters="0"/></pgc>
    </titles>
  </titleset>
</dvdauthor>
XML
  VIDEO_FORMAT=PAL dvdauthor -x "$clips/$1.xml" >/dev/null 2>&1
}
dvd dvd en
dvd dvd-nolang br
