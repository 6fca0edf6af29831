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
#   dvd-episodes-pgcs      one title of three PGCs, one per episode (two chapters each; its
#                          chapters 1-6 run over the three): the VMGM menu's Play All button
#                          sets GPRM 0 to 1 and GPRM 1 to 1, the episode buttons GPRM 0 to 0 and
#                          GPRM 1 to the episode, all jump to title 1, whose first PGC's pre
#                          commands LinkPGCN to PGC 2 or 3 by GPRM 1; PGCs 1 and 2 end with
#                          LinkNextPGC (their headers' next PGC: 2, 3) while GPRM 0 is 1, else
#                          call the menu.
#   dvd-episodes-pgcs-nomenu the same PGCs, First Play jumping to title 1 and no menu: its PGCs
#                          play in a row by their headers' next PGC (their post commands a NOP).
#   dvd-episodes-linkptt   the chapters layout (one PGC, chapters 1-2, 3-5, 6-7) reached by
#                          LinkPTTN: the VMGM menu's buttons set GPRM 1 (Play All and the
#                          episodes) and jump to title 1, whose pre commands LinkPTTN 3 or 6 by
#                          GPRM 1.
#   dvd-episodes-wide      three titles, one per episode, and a 16:9 VMGM menu (dvdauthor writes
#                          three button groups: wide, letterbox, pan & scan): buttons 1 and 2 jump
#                          to titles 1 and 2, button 3 exits, except in the wide group, whose
#                          button 3 is patched in every navigation pack to JumpTT 3 (a player on a
#                          16:9 TV, and libdvdnav, which reads the first group, play title 3).
#   (dvdauthor writes neither LinkPGCN, LinkPTTN, LinkNextPGC nor multi-PGC titles: placeholder
#   commands "g12 = 42nn" are patched in the IFOs and BUPs to them, and the three one-PGC titles
#   of dvd-episodes-pgcs are merged into one title: its PTT table lists the three PGCs' programs,
#   PGCs 2 and 3 belong to title 1 without being entries, the headers link them, and the video
#   manager lists one title of six chapters, multi-PGC.)
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

# Replaces placeholder commands "g12 = N" (71 00 00 0c NN NN 00 00) in a disc's IFOs and BUPs
# by 8-byte commands given in hex: patch_commands disc-name N=hex ...
patch_commands() {
  local disc="$1" f
  shift
  for f in "$OUT/$disc/VIDEO_TS/"*.IFO "$OUT/$disc/VIDEO_TS/"*.BUP; do
    python3 - "$f" "$@" <<'PY'
import sys
path, pairs = sys.argv[1], sys.argv[2:]
data = open(path, "rb").read()
for pair in pairs:
    value, command = pair.split("=")
    old = bytes([0x71, 0, 0, 0x0C, int(value) >> 8, int(value) & 0xFF, 0, 0])
    new = bytes.fromhex(command)
    assert len(new) == 8 and data.count(old) <= 1, (path, value, data.count(old))
    data = data.replace(old, new)
open(path, "wb").write(data)
PY
  done
  python3 - "$OUT/$disc/VIDEO_TS" "$@" <<'PY'
import glob, sys
found = b"".join(open(f, "rb").read() for f in glob.glob(sys.argv[1] + "/*.IFO"))
for pair in sys.argv[2:]:
    v = int(pair.split("=")[0])
    assert bytes([0x71, 0, 0, 0x0C, v >> 8, v & 0xFF, 0, 0]) not in found, ("left", v)
    assert found.count(bytes.fromhex(pair.split("=")[1])) >= 1, ("missing", v)
PY
}

# Merges the titles of VTS 1 (each one PGC) into title 1 of that many PGCs, chained by their
# headers (next/previous PGC), in VTS_01_0 and VIDEO_TS (IFO and BUP).
merge_titles() { # disc-name
  local f
  for f in "$OUT/$1/VIDEO_TS/VTS_01_0.IFO" "$OUT/$1/VIDEO_TS/VTS_01_0.BUP"; do
    python3 - "$f" <<'PY'
import struct, sys
path = sys.argv[1]
d = bytearray(open(path, "rb").read())
u16 = lambda o: struct.unpack_from(">H", d, o)[0]
u32 = lambda o: struct.unpack_from(">I", d, o)[0]
# VTS_PTT_SRPT: every title's parts, in order, become title 1's.
ptt = u32(0xC8) * 2048
n, last = u16(ptt), u32(ptt + 4)
offsets = [u32(ptt + 8 + 4 * i) for i in range(n)]
parts = d[ptt + offsets[0]: ptt + last + 1]
assert offsets == sorted(offsets) and len(parts) % 4 == 0
d[ptt: ptt + last + 1] = bytes(last + 1)
struct.pack_into(">HHII", d, ptt, 1, 0, 12 + len(parts) - 1, 12)
d[ptt + 12: ptt + 12 + len(parts)] = parts
# VTS_PGCIT: PGCs 2.. belong to title 1 and are not entries; each header links the next.
pgcit = u32(0xCC) * 2048
count = u16(pgcit)
assert count == n, (count, n)
for k in range(count):
    srp = pgcit + 8 + 8 * k
    d[srp] = 0x81 if k == 0 else 0x01
    pgc = pgcit + u32(srp + 4)
    struct.pack_into(">HH", d, pgc + 0x9C, k + 2 if k + 1 < count else 0, k)
open(path, "wb").write(d)
PY
  done
  for f in "$OUT/$1/VIDEO_TS/VIDEO_TS.IFO" "$OUT/$1/VIDEO_TS/VIDEO_TS.BUP"; do
    python3 - "$f" <<'PY'
import struct, sys
path = sys.argv[1]
d = bytearray(open(path, "rb").read())
tt = struct.unpack_from(">I", d, 0xC4)[0] * 2048
n, last = struct.unpack_from(">HHI", d, tt)[0], struct.unpack_from(">I", d, tt + 4)[0]
entries = [d[tt + 8 + 12 * i: tt + 20 + 12 * i] for i in range(n)]
assert all(e[6] == 1 for e in entries), "one title set"
parts = sum(struct.unpack_from(">H", e, 2)[0] for e in entries)
first = bytearray(entries[0])
first[0] |= 0x40  # multi-PGC title
struct.pack_into(">H", first, 2, parts)
d[tt: tt + last + 1] = bytes(last + 1)
struct.pack_into(">HHI", d, tt, 1, 0, 8 + 12 - 1)
d[tt + 8: tt + 20] = first
open(path, "wb").write(d)
PY
  done
}

# Commands (libdvdnav's vmcmd encoding, compare "if (gR == v)": byte 1 = 0x80 | 2 << 4 | op):
#   if (g1 == v) LinkPGCN p     20 a4 00 01 00 vv 00 pp
#   if (g1 == v) LinkPTTN p     20 a5 00 01 00 vv 00 pp
#   if (g0 == 1) LinkNextPGC    20 a1 00 00 00 01 00 0a
cat > "$tmp/dvd-episodes-pgcs.xml" <<XML
<dvdauthor dest="$tmp/dvd-episodes-pgcs" jumppad="0">
  <vmgm><fpc>g0 = 0; jump menu 1;</fpc><menus><video format="ntsc" aspect="4:3"/>
    <pgc entry="title"><vob file="$tmp/menu.mpg" pause="inf"/>
      <button name="b1">g0 = 1; g1 = 1; jump title 1;</button>
      <button name="b2">g0 = 0; g1 = 1; jump title 1;</button>
      <button name="b3">g0 = 0; g1 = 2; jump title 1;</button>
      <button name="b4">g0 = 0; g1 = 3; jump title 1;</button></pgc>
  </menus></vmgm>
  <titleset><titles><video format="ntsc" aspect="4:3"/><audio lang="en"/>
    <pgc><pre>g12 = 4202; g12 = 4203;</pre><vob file="$tmp/e1.mpg" chapters="0,2:00"/>
      <post>g12 = 4301; call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/e2.mpg" chapters="0,2:00"/><post>g12 = 4302; call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/e3.mpg" chapters="0,2:00"/><post>g0 = 0; call vmgm menu 1;</post></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-episodes-pgcs
merge_titles dvd-episodes-pgcs
patch_commands dvd-episodes-pgcs 4202=20a4000100020002 4203=20a4000100030003 \
  4301=20a100000001000a 4302=20a100000001000a

cat > "$tmp/dvd-episodes-pgcs-nomenu.xml" <<XML
<dvdauthor dest="$tmp/dvd-episodes-pgcs-nomenu" jumppad="0">
  <vmgm><fpc>jump title 1;</fpc></vmgm>
  <titleset><titles><video format="ntsc" aspect="4:3"/><audio lang="en"/>
    <pgc><vob file="$tmp/e1.mpg" chapters="0,2:00"/></pgc>
    <pgc><vob file="$tmp/e2.mpg" chapters="0,2:00"/></pgc>
    <pgc><vob file="$tmp/e3.mpg" chapters="0,2:00"/></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-episodes-pgcs-nomenu
merge_titles dvd-episodes-pgcs-nomenu
# dvdauthor ends every title PGC with Exit: PGCs 1 and 2 get a NOP in its place, so that their
# headers' next PGC plays on.
for f in "$OUT/dvd-episodes-pgcs-nomenu/VIDEO_TS/VTS_01_0.IFO" \
  "$OUT/dvd-episodes-pgcs-nomenu/VIDEO_TS/VTS_01_0.BUP"; do
  python3 - "$f" <<'PY'
import struct, sys
path = sys.argv[1]
d = bytearray(open(path, "rb").read())
pgcit = struct.unpack_from(">I", d, 0xCC)[0] * 2048
count = struct.unpack_from(">H", d, pgcit)[0]
for k in range(count - 1):
    pgc = pgcit + struct.unpack_from(">I", d, pgcit + 8 + 8 * k + 4)[0]
    table = pgc + struct.unpack_from(">H", d, pgc + 0xE4)[0]
    pre, post = struct.unpack_from(">HH", d, table)
    assert post == 1, (k, post)
    at = table + 8 + 8 * pre
    assert d[at: at + 8] == bytes.fromhex("3001000000000000"), d[at: at + 8].hex()
    d[at: at + 8] = bytes(8)
open(path, "wb").write(d)
PY
done

cat > "$tmp/dvd-episodes-linkptt.xml" <<XML
<dvdauthor dest="$tmp/dvd-episodes-linkptt" jumppad="0">
  <vmgm><fpc>jump menu 1;</fpc><menus><video format="ntsc" aspect="4:3"/>
    <pgc entry="title"><vob file="$tmp/menu.mpg" pause="inf"/>
      <button name="b1">g1 = 0; jump title 1;</button><button name="b2">g1 = 1; jump title 1;</button>
      <button name="b3">g1 = 2; jump title 1;</button><button name="b4">g1 = 3; jump title 1;</button></pgc>
  </menus></vmgm>
  <titleset><titles><video format="ntsc" aspect="4:3"/><audio lang="en"/>
    <pgc><pre>g12 = 4402; g12 = 4403;</pre><vob file="$tmp/e1.mpg" chapters="0,2:00"/>
      <vob file="$tmp/e2.mpg" chapters="0,1:00,3:00"/><vob file="$tmp/e3.mpg" chapters="0,2:00"/>
      <post>call vmgm menu 1;</post></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-episodes-linkptt
patch_commands dvd-episodes-linkptt 4402=20a5000100020003 4403=20a5000100030006

ffmpeg -nostdin -loglevel error -y -f lavfi -i "testsrc=size=720x480:rate=30000/1001:duration=1" \
  -f lavfi -i "sine=frequency=1000:sample_rate=48000:duration=1" -target ntsc-dvd -b:v 300k \
  -maxrate 800k -bufsize 224k -b:a 96k -ac 2 -aspect 16:9 -bitexact -shortest "$tmp/menubgwide.mpg"
spumux -m dvd "$tmp/menu.spu.xml" < "$tmp/menubgwide.mpg" > "$tmp/menuwide.mpg" 2> "$tmp/spumux.log" \
  || { cat "$tmp/spumux.log" >&2; exit 1; }
cat > "$tmp/dvd-episodes-wide.xml" <<XML
<dvdauthor dest="$tmp/dvd-episodes-wide" jumppad="0">
  <vmgm><fpc>jump menu 1;</fpc><menus><video format="ntsc" aspect="16:9"/>
    <pgc entry="title"><vob file="$tmp/menuwide.mpg" pause="inf"/>
      <button name="b1">jump title 1;</button><button name="b2">jump title 2;</button>
      <button name="b3">exit;</button><button name="b4">exit;</button></pgc>
  </menus></vmgm>
  <titleset><titles><video format="ntsc" aspect="4:3"/><audio lang="en"/>
    <pgc><vob file="$tmp/e1.mpg" chapters="0,2:00"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/e2.mpg" chapters="0,2:00"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/e3.mpg" chapters="0,2:00"/><post>call vmgm menu 1;</post></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-episodes-wide
# The wide group's button 3 (PCI at 0x2D, its highlight at 0x60, button slots at 46 in it, 18
# bytes each, the command at 10): JumpTT 3 where it exits.
python3 - "$OUT/dvd-episodes-wide/VIDEO_TS/VIDEO_TS.VOB" <<'PY'
import sys
path = sys.argv[1]
d = bytearray(open(path, "rb").read())
patched = 0
for at in range(0, len(d) - 2047, 2048):
    if d[at + 0x26: at + 0x2A] != b"\x00\x00\x01\xbf" or d[at + 0x2C] != 0:
        continue
    hli = at + 0x2D + 0x60
    groups, buttons = (d[hli + 14] >> 4) & 3, d[hli + 17]
    if groups != 3 or buttons < 3 or d[hli + 1] & 3 == 0:
        continue
    assert d[hli + 14] & 7 == 1, "group 1 is the wide one"
    command = hli + 46 + 18 * 2 + 10
    assert d[command: command + 8] == bytes.fromhex("3001000000000000"), d[command: command + 8].hex()
    d[command: command + 8] = bytes.fromhex("3002000000030000")
    patched += 1
assert patched > 0
open(path, "wb").write(d)
PY
