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
#   manager lists one title of six chapters, multi-PGC: dvd-authoring.sh's patch_commands and
#   merge_titles.)
# Clips are ffmpeg lavfi test pictures (352x240, -target ntsc-dvd, low bit rate).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$(cd "$here/.." && pwd)/generated}"
mkdir -p "$OUT"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000
. "$here/dvd-authoring.sh"

small_clip e1 310 400
small_clip e2 320 500
small_clip e3 305 600
small_clip menubg 1 1000

highlight_png "$tmp/hl.png" 50 4
menu_background
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

# Commands (libdvdnav's vmcmd encoding, compare "if (gR == v)": byte 1 = 0x80 | 2 << 4 | op):
#   if (g1 == v) LinkPGCN p     20 a4 00 01 00 vv 00 pp
#   if (g1 == v) LinkPTTN p     20 a5 00 01 00 vv 00 pp
#   if (g0 == 1) LinkNextPGC    20 a1 00 00 00 01 00 0a
three_episode_xml dvd-episodes-pgcs menu
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
nop_exits dvd-episodes-pgcs-nomenu 1 2

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
