#!/usr/bin/env bash
# Makes DVD-Video discs of TV-series layouts for the episode detection (issue 27), each a VIDEO_TS
# folder in $OUT (default TestImages/generated), authored with dvdauthor:
#   dvd-episodes-playall   a title per episode (titles 1-3: 310, 320 and 305 s, two chapters
#                          each) and a play-all title 4 holding its own copy of the three (its
#                          chapters are theirs in a row); the VMGM menu's buttons jump to titles
#                          4 (Play All), 1, 2 and 3.
#   dvd-episodes-copies    the same, with title 5 a copy of episode 2 (another audio language):
#                          a variant.
#   dvd-episodes-movie     one title of 620 s with six chapters and a 300 s extra: not episodic.
#   dvd-episodes-chapters  one title holding the three episodes as chapter ranges of uneven
#                          chapter counts (chapters 1-2, 3-5, 6-7); First Play shows the title
#                          set's menu, whose buttons run JumpVTS_PTT: Play All (title 1) and
#                          the episodes (title 1 chapters 1, 3 and 6).
#   dvd-episodes-gprm      a title per episode and no play-all title: the VMGM menu's Play All
#                          button sets GPRM 0 to 1 and jumps to title 1; each episode's post
#                          commands jump to the next episode while GPRM 0 is 1, else call the
#                          menu; the episode buttons set GPRM 0 to 0 and jump to their title.
#   dvd-episodes-ambiguous the three episodes as titles 1-3, First Play playing title 1 and no
#                          menu: nothing tells episodes from versions (ambiguous).
#   dvd-episodes-menuorder the three episodes as titles 1-3 and no play-all; the VMGM menu lists
#                          them as titles 2, 3, 1 (the menu's order is the playing order), its
#                          fourth button exits.
# Clips are ffmpeg lavfi test pictures (352x240, -target ntsc-dvd, low bit rate).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$(cd "$here/.." && pwd)/generated}"
mkdir -p "$OUT"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000

clip() { # name seconds frequency
  ffmpeg -nostdin -loglevel error -y \
    -f lavfi -i "testsrc=size=352x240:rate=30000/1001:duration=$2" \
    -f lavfi -i "sine=frequency=$3:sample_rate=48000:duration=$2" \
    -target ntsc-dvd -s 352x240 -b:v 100k -maxrate 400k -bufsize 224k -b:a 64k -ac 2 \
    -bitexact -shortest "$tmp/$1.mpg"
}
clip e1 310 400
clip e2 320 500
clip e3 305 600
clip menubg 1 1000

python3 - "$tmp/hl.png" <<'PY'
import struct, sys, zlib
w, h = 720, 480
boxes = [(100, 50, 300, 90), (100, 150, 300, 190), (100, 250, 300, 290), (100, 350, 300, 390)]
def px(x, y):
    for (x0, y0, x1, y1) in boxes:
        if x0 <= x < x1 and y0 <= y < y1:
            return (255, 255, 0, 255)
    return (0, 0, 0, 0)
raw = b"".join(b"\x00" + b"".join(bytes(px(x, y)) for x in range(w)) for y in range(h))
def chunk(k, d):
    return struct.pack(">I", len(d)) + k + d + struct.pack(">I", zlib.crc32(k + d) & 0xFFFFFFFF)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
PY
ffmpeg -nostdin -loglevel error -y -f lavfi -i "testsrc=size=720x480:rate=30000/1001:duration=1" \
  -f lavfi -i "sine=frequency=1000:sample_rate=48000:duration=1" -target ntsc-dvd -b:v 300k \
  -maxrate 800k -bufsize 224k -b:a 96k -ac 2 -bitexact -shortest "$tmp/menubg720.mpg"
buttons=""
y=50
for i in 1 2 3 4; do
  buttons="$buttons<button name=\"b$i\" x0=\"100\" y0=\"$y\" x1=\"300\" y1=\"$((y + 40))\"/>"
  y=$((y + 100))
done
cat > "$tmp/menu.spu.xml" <<XML
<subpictures format="NTSC"><stream><spu force="yes" start="00:00:00.00" highlight="$tmp/hl.png" select="$tmp/hl.png">$buttons</spu></stream></subpictures>
XML
spumux -m dvd "$tmp/menu.spu.xml" < "$tmp/menubg720.mpg" > "$tmp/menu.mpg" 2> "$tmp/spumux.log" \
  || { cat "$tmp/spumux.log" >&2; exit 1; }

author() { # disc-name (XML in $tmp/<disc-name>.xml)
  VIDEO_FORMAT=NTSC dvdauthor -x "$tmp/$1.xml" > /dev/null 2> "$tmp/$1.log" || { cat "$tmp/$1.log" >&2; exit 1; }
  rm -rf "${OUT:?}/$1"
  mkdir -p "$OUT/$1"
  cp -r "$tmp/$1/VIDEO_TS" "$OUT/$1/"
  mkdir -p "$OUT/$1/AUDIO_TS"
}

episodes() { # disc-name extra-pgc
  cat > "$tmp/$1.xml" <<XML
<dvdauthor dest="$tmp/$1" jumppad="0">
  <vmgm><fpc>jump menu 1;</fpc><menus><video format="ntsc" aspect="4:3"/>
    <pgc entry="title"><vob file="$tmp/menu.mpg" pause="inf"/>
      <button name="b1">jump title 4;</button><button name="b2">jump title 1;</button>
      <button name="b3">jump title 2;</button><button name="b4">jump title 3;</button></pgc>
  </menus></vmgm>
  <titleset><titles><video format="ntsc" aspect="4:3"/><audio lang="en"/>
    <pgc><vob file="$tmp/e1.mpg" chapters="0,2:00"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/e2.mpg" chapters="0,2:00"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/e3.mpg" chapters="0,2:00"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/e1.mpg" chapters="0,2:00"/><vob file="$tmp/e2.mpg" chapters="0,2:00"/>
      <vob file="$tmp/e3.mpg" chapters="0,2:00"/><post>call vmgm menu 1;</post></pgc>
    $2
  </titles></titleset>
</dvdauthor>
XML
  author "$1"
}
episodes dvd-episodes-playall ""
episodes dvd-episodes-copies "<pgc><vob file=\"$tmp/e2.mpg\" chapters=\"0,2:00\"/><post>call vmgm menu 1;</post></pgc>"

cat > "$tmp/dvd-episodes-movie.xml" <<XML
<dvdauthor dest="$tmp/dvd-episodes-movie" jumppad="0">
  <vmgm><fpc>jump title 1;</fpc></vmgm>
  <titleset><titles><video format="ntsc" aspect="4:3"/><audio lang="en"/>
    <pgc><vob file="$tmp/e1.mpg" chapters="0,1:00,2:00,3:00,4:00,5:00"/><vob file="$tmp/e2.mpg"/></pgc>
    <pgc><vob file="$tmp/e3.mpg"/></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-episodes-movie

cat > "$tmp/dvd-episodes-chapters.xml" <<XML
<dvdauthor dest="$tmp/dvd-episodes-chapters" jumppad="0">
  <vmgm><fpc>jump titleset 1 menu;</fpc></vmgm>
  <titleset>
    <menus><video format="ntsc" aspect="4:3"/>
      <pgc entry="root"><vob file="$tmp/menu.mpg" pause="inf"/>
        <button name="b1">jump title 1;</button><button name="b2">jump title 1 chapter 1;</button>
        <button name="b3">jump title 1 chapter 3;</button><button name="b4">jump title 1 chapter 6;</button></pgc>
    </menus>
    <titles><video format="ntsc" aspect="4:3"/><audio lang="en"/>
      <pgc><vob file="$tmp/e1.mpg" chapters="0,2:00"/><vob file="$tmp/e2.mpg" chapters="0,1:00,3:00"/>
        <vob file="$tmp/e3.mpg" chapters="0,2:00"/><post>call menu;</post></pgc>
    </titles>
  </titleset>
</dvdauthor>
XML
author dvd-episodes-chapters

cat > "$tmp/dvd-episodes-gprm.xml" <<XML
<dvdauthor dest="$tmp/dvd-episodes-gprm" jumppad="0">
  <vmgm><fpc>g0 = 0; jump menu 1;</fpc><menus><video format="ntsc" aspect="4:3"/>
    <pgc entry="title"><vob file="$tmp/menu.mpg" pause="inf"/>
      <button name="b1">g0 = 1; jump title 1;</button><button name="b2">g0 = 0; jump title 1;</button>
      <button name="b3">g0 = 0; jump title 2;</button><button name="b4">g0 = 0; jump title 3;</button></pgc>
  </menus></vmgm>
  <titleset><titles><video format="ntsc" aspect="4:3"/><audio lang="en"/>
    <pgc><vob file="$tmp/e1.mpg" chapters="0,2:00"/><post>if (g0 == 1) jump title 2; call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/e2.mpg" chapters="0,2:00"/><post>if (g0 == 1) jump title 3; call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/e3.mpg" chapters="0,2:00"/><post>g0 = 0; call vmgm menu 1;</post></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-episodes-gprm

cat > "$tmp/dvd-episodes-ambiguous.xml" <<XML
<dvdauthor dest="$tmp/dvd-episodes-ambiguous" jumppad="0">
  <vmgm><fpc>jump title 1;</fpc></vmgm>
  <titleset><titles><video format="ntsc" aspect="4:3"/><audio lang="en"/>
    <pgc><vob file="$tmp/e1.mpg" chapters="0,2:00"/></pgc>
    <pgc><vob file="$tmp/e2.mpg" chapters="0,2:00"/></pgc>
    <pgc><vob file="$tmp/e3.mpg" chapters="0,2:00"/></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-episodes-ambiguous

cat > "$tmp/dvd-episodes-menuorder.xml" <<XML
<dvdauthor dest="$tmp/dvd-episodes-menuorder" jumppad="0">
  <vmgm><fpc>jump menu 1;</fpc><menus><video format="ntsc" aspect="4:3"/>
    <pgc entry="title"><vob file="$tmp/menu.mpg" pause="inf"/>
      <button name="b1">jump title 2;</button><button name="b2">jump title 3;</button>
      <button name="b3">jump title 1;</button><button name="b4">exit;</button></pgc>
  </menus></vmgm>
  <titleset><titles><video format="ntsc" aspect="4:3"/><audio lang="en"/>
    <pgc><vob file="$tmp/e1.mpg" chapters="0,2:00"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/e2.mpg" chapters="0,2:00"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/e3.mpg" chapters="0,2:00"/><post>call vmgm menu 1;</post></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-episodes-menuorder
