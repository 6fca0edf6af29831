#!/usr/bin/env bash
# Makes DVD-Video discs whose episodes are PGCs of one title that its chapters do not all reach
# (issue 27), each a VIDEO_TS folder in $OUT (default TestImages/generated), authored with
# dvdauthor and patched (dvd-authoring.sh) where dvdauthor cannot write the layout:
#   dvd-episodes-unnamed   title 1 of three PGCs (310, 320 and 305 s, two chapters each) whose
#                          PTT table names PGC 1's chapters only: PGCs 2 and 3 belong to the title
#                          and no chapter names them. The VMGM menu's Play All button sets GPRM 0
#                          to 1 and GPRM 1 to 1, the episode buttons GPRM 0 to 0 and GPRM 1 to the
#                          episode, all jump to title 1, whose PGC 1's pre commands LinkPGCN to
#                          PGC 2 or 3 by GPRM 1; PGCs 1 and 2's post commands LinkPGCN to the next
#                          PGC while GPRM 0 is 1 (no header links them), else call the menu.
#   dvd-episodes-unnamed-nomenu the same title (PTT naming PGC 1 only) and no menu: First Play
#                          jumps to title 1, whose PGCs 1 and 2's post commands LinkPGCN to the
#                          next PGC (PGC 3 ends with dvdauthor's Exit).
#   dvd-episodes-random    title 1 of four PGCs: PGC 1, the only one its PTT names, a 2 s intro
#                          whose cell command draws GPRM 1 = rnd 1..3 and whose post commands
#                          LinkPGCN to PGC 2, 3 or 4 (the episodes) by it; the VMGM menu's one
#                          button jumps to title 1 (a random episode), the other exits.
#   dvd-episodes-pgcs-unlinked one title of the three PGCs, its PTT naming all their chapters
#                          (1-2, 3-4, 5-6), no header linking them, their post commands dvdauthor's
#                          Exit, no menu: First Play jumps to title 1, which stops after PGC 1;
#                          a player's chapter search starts PGCs 2 and 3.
# Clips are ffmpeg lavfi test pictures (352x240, -target ntsc-dvd, low bit rate), as in
# make-dvd-episodes.sh.
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
small_clip intro 2 800

highlight_png "$tmp/hl.png" 50 4
menu_background
menu() { # name button-count
  local buttons="" y=50 i
  for i in $(seq 1 "$2"); do
    buttons="$buttons<button name=\"b$i\" x0=\"100\" y0=\"$y\" x1=\"300\" y1=\"$((y + 40))\"/>"
    y=$((y + 100))
  done
  cat > "$tmp/$1.spu.xml" <<XML
<subpictures format="NTSC"><stream><spu force="yes" start="00:00:00.00" highlight="$tmp/hl.png" select="$tmp/hl.png">$buttons</spu></stream></subpictures>
XML
  spumux -m dvd "$tmp/$1.spu.xml" < "$tmp/menubg720.mpg" > "$tmp/$1.mpg" 2> "$tmp/$1.spumux.log" \
    || { cat "$tmp/$1.spumux.log" >&2; exit 1; }
}
menu menu4 4
menu menu2 2

# Commands (libdvdnav's vmcmd encoding; "if (gR == v)": byte 1 = 0x80 | 2 << 4 | op):
#   if (g1 == v) LinkPGCN p     20 a4 00 01 00 vv 00 pp
#   if (g0 == 1) LinkPGCN p     20 a4 00 00 00 01 00 pp
#   LinkPGCN p                  20 04 00 00 00 00 00 pp
three_episode_xml dvd-episodes-unnamed menu4
author dvd-episodes-unnamed
merge_titles dvd-episodes-unnamed nolinks first
patch_commands dvd-episodes-unnamed 4202=20a4000100020002 4203=20a4000100030003 \
  4301=20a4000000010002 4302=20a4000000010003

cat > "$tmp/dvd-episodes-random.xml" <<XML
<dvdauthor dest="$tmp/dvd-episodes-random" jumppad="0">
  <vmgm><fpc>jump menu 1;</fpc><menus><video format="ntsc" aspect="4:3"/>
    <pgc entry="title"><vob file="$tmp/menu2.mpg" pause="inf"/>
      <button name="b1">jump title 1;</button><button name="b2">exit;</button></pgc>
  </menus></vmgm>
  <titleset><titles><video format="ntsc" aspect="4:3"/><audio lang="en"/>
    <pgc><vob file="$tmp/intro.mpg"><cell start="0" chapter="1">g1 = random(3);</cell></vob>
      <post>g12 = 4501; g12 = 4502; g12 = 4503;</post></pgc>
    <pgc><vob file="$tmp/e1.mpg" chapters="0,2:00"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/e2.mpg" chapters="0,2:00"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/e3.mpg" chapters="0,2:00"/><post>call vmgm menu 1;</post></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-episodes-random
merge_titles dvd-episodes-random nolinks first
patch_commands dvd-episodes-random 4501=20a4000100010002 4502=20a4000100020003 \
  4503=2004000000000004

cat > "$tmp/dvd-episodes-pgcs-unlinked.xml" <<XML
<dvdauthor dest="$tmp/dvd-episodes-pgcs-unlinked" jumppad="0">
  <vmgm><fpc>jump title 1;</fpc></vmgm>
  <titleset><titles><video format="ntsc" aspect="4:3"/><audio lang="en"/>
    <pgc><vob file="$tmp/e1.mpg" chapters="0,2:00"/></pgc>
    <pgc><vob file="$tmp/e2.mpg" chapters="0,2:00"/></pgc>
    <pgc><vob file="$tmp/e3.mpg" chapters="0,2:00"/></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-episodes-pgcs-unlinked
merge_titles dvd-episodes-pgcs-unlinked nolinks

cat > "$tmp/dvd-episodes-unnamed-nomenu.xml" <<XML
<dvdauthor dest="$tmp/dvd-episodes-unnamed-nomenu" jumppad="0">
  <vmgm><fpc>jump title 1;</fpc></vmgm>
  <titleset><titles><video format="ntsc" aspect="4:3"/><audio lang="en"/>
    <pgc><vob file="$tmp/e1.mpg" chapters="0,2:00"/><post>g12 = 4601;</post></pgc>
    <pgc><vob file="$tmp/e2.mpg" chapters="0,2:00"/><post>g12 = 4602;</post></pgc>
    <pgc><vob file="$tmp/e3.mpg" chapters="0,2:00"/></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-episodes-unnamed-nomenu
merge_titles dvd-episodes-unnamed-nomenu nolinks first
patch_commands dvd-episodes-unnamed-nomenu 4601=2004000000000002 4602=2004000000000003
