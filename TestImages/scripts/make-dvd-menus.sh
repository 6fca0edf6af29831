#!/usr/bin/env bash
# Makes small DVD-Video discs with dvdauthor menus for the DVD VM and main-feature search (issue 19),
# each a VIDEO_TS folder in $OUT (default TestImages/generated), modeled on real protections:
#   dvd-menu-clean     control disc: the VMGM root menu's one button plays title 1 (6 s); title 2 is 3 s.
#   dvd-menu-decoy     "99 titles": six permuted titles; decoy title 2 (10 s) is the longest but no menu
#                      reaches it; the menu's "Play" button plays title 5 (6 s), "Extras" title 1 (2 s),
#                      whose post command calls the VMGM menu back.
#   dvd-menu-lying     lying duration: title 1 is 10 s long (2 s + 8 s cells) but the cell command of its
#                      first cell jumps to title 2 (6 s) after 2 s; the menu's button plays title 1.
#   dvd-menu-register  register-selected target: First Play sets GPRM3 = 7, the menu's button 1 jumps by
#                      GPRM3 (7 -> title 3, 6 s; otherwise title 1, 10 s); button 2 goes to the title set's
#                      root menu, whose button plays title 2 (3 s).
#   dvd-menu-99        "99 titles" at full count, after Disney's The Black Cauldron: 99 titles, the feature
#                      is title 39 (6 s + 3 s, 3 chapters, 4 cells), decoy title 10 is a second longer with the same
#                      chapter and cell counts; the menu's "Play" button jumps to title 39.
#   dvd-menu-timer     navigation timer at a still: the menu's button plays title 1 (2 s, then an infinite
#                      still) whose pre command sets the timer to 3 s and SPRM 10 = PGC 4; stepping over
#                      the still, its post command plays title 2 (6 s); only the timer reaches title 4
#                      (10 s); title 3 (12 s) is reached by nothing.
#   dvd-menu-timer-cut navigation timer in playback: title 1 is 10 s long but sets the timer to 2 s with
#                      SPRM 10 = PGC 2, title 2 (6 s); the menu's button plays title 1.
#                      (dvdauthor cannot write SetNVTMR: a placeholder "g12 = 4242" in the pre commands
#                      is patched in the IFO and BUP to SetNVTMR, 52 00 00 ss 00 pp 00 00, by
#                      dvd-authoring.sh's patch_commands.)
#   dvd-menu-random    random trailers: the menu's button 1 draws g1 = random(4) and jumps to title g1
#                      (2, 3, 6 or 10 s); button 2 draws g2 = random(20) (over the search's bound of 16:
#                      sampled) and plays title 1; title 5 (12 s) is reached by nothing.
#   dvd-menu-intitle   the menu authored as a title: First Play jumps to title 1, a 1 s clip held with an
#                      infinite still whose two buttons play title 3 (6 s, "Play") and title 2 (2 s); both
#                      jump back to title 1; decoy title 4 (10 s) is the longest and reached by nothing.
#   dvd-menu-damaged   the decoy disc with VTS_01_0.IFO damaged (its .BUP intact) and a ghost title set:
#                      VTS 2 (holding a 10 s decoy title) is listed in VIDEO_TS.IFO but its files are gone.
# Menus are 1 s motion clips held with pause="inf", buttons made with spumux; titles are ffmpeg lavfi
# test clips (-target ntsc-dvd, low bit rate).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$(cd "$here/.." && pwd)/generated}"
mkdir -p "$OUT"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000
. "$here/dvd-authoring.sh"

clip() { # name seconds frequency
  ffmpeg -nostdin -loglevel error -y \
    -f lavfi -i "testsrc=size=720x480:rate=30000/1001:duration=$2" \
    -f lavfi -i "sine=frequency=$3:sample_rate=48000:duration=$2" \
    -target ntsc-dvd -b:v 300k -maxrate 800k -bufsize 224k -b:a 96k -ac 2 -aspect 16:9 \
    -bitexact -shortest "$tmp/$1.mpg"
}
for s in 2 3 6 8 10; do clip "t$s" "$s" $((300 + s * 50)); done
clip menubg 1 1000

# A full-frame highlight image: opaque boxes where the buttons are, transparent elsewhere.
highlight_png "$tmp/hl.png" 100 3

menu() { # name button-count
  local buttons=""
  local y=100
  for i in $(seq 1 "$2"); do
    buttons="$buttons<button name=\"b$i\" x0=\"100\" y0=\"$y\" x1=\"300\" y1=\"$((y + 40))\"/>"
    y=$((y + 100))
  done
  cat > "$tmp/$1.spu.xml" <<XML
<subpictures format="NTSC"><stream><spu force="yes" start="00:00:00.00" highlight="$tmp/hl.png" select="$tmp/hl.png">$buttons</spu></stream></subpictures>
XML
  spumux -m dvd "$tmp/$1.spu.xml" < "$tmp/menubg.mpg" > "$tmp/$1.mpg" 2> "$tmp/$1.spumux.log" \
    || { cat "$tmp/$1.spumux.log" >&2; exit 1; }
}
menu menu1 1
menu menu2 2

cat > "$tmp/dvd-menu-clean.xml" <<XML
<dvdauthor dest="$tmp/dvd-menu-clean" jumppad="0">
  <vmgm><fpc>jump menu 1;</fpc><menus><video format="ntsc" aspect="16:9"/>
    <pgc entry="title"><vob file="$tmp/menu1.mpg" pause="inf"/><button name="b1">jump title 1;</button></pgc>
  </menus></vmgm>
  <titleset><titles><video format="ntsc" aspect="16:9"/><audio lang="en"/>
    <pgc><vob file="$tmp/t6.mpg" chapters="0,3"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/t3.mpg"/></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-menu-clean

decoy_xml() { # disc-name
  cat > "$tmp/$1.xml" <<XML
<dvdauthor dest="$tmp/$1" jumppad="0">
  <vmgm><fpc>jump menu 1;</fpc><menus><video format="ntsc" aspect="16:9"/>
    <pgc entry="title"><vob file="$tmp/menu2.mpg" pause="inf"/>
      <button name="b1">jump title 5;</button><button name="b2">jump title 1;</button></pgc>
  </menus></vmgm>
  <titleset><titles><video format="ntsc" aspect="16:9"/><audio lang="en"/>
    <pgc><vob file="$tmp/t2.mpg"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/t2.mpg"/><vob file="$tmp/t8.mpg"/></pgc>
    <pgc><vob file="$tmp/t3.mpg"/></pgc>
    <pgc><vob file="$tmp/t2.mpg"/></pgc>
    <pgc><vob file="$tmp/t6.mpg" chapters="0,2,4"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/t3.mpg"/><vob file="$tmp/t2.mpg"/></pgc>
  </titles></titleset>
  $2
</dvdauthor>
XML
}
decoy_xml dvd-menu-decoy ""
author dvd-menu-decoy

{
  echo "<dvdauthor dest=\"$tmp/dvd-menu-99\" jumppad=\"0\">"
  echo "  <vmgm><fpc>jump menu 1;</fpc><menus><video format=\"ntsc\" aspect=\"16:9\"/>"
  echo "    <pgc entry=\"title\"><vob file=\"$tmp/menu2.mpg\" pause=\"inf\"/>"
  echo "      <button name=\"b1\">jump title 39;</button><button name=\"b2\">jump title 1;</button></pgc>"
  echo "  </menus></vmgm>"
  echo "  <titleset><titles><video format=\"ntsc\" aspect=\"16:9\"/><audio lang=\"en\"/>"
  for t in $(seq 1 99); do
    case $t in
      10) echo "    <pgc><vob file=\"$tmp/t8.mpg\" chapters=\"0,2,4\"/><vob file=\"$tmp/t2.mpg\"/></pgc>" ;;
      39) echo "    <pgc><vob file=\"$tmp/t6.mpg\" chapters=\"0,2,4\"/><vob file=\"$tmp/t3.mpg\"/><post>call vmgm menu 1;</post></pgc>" ;;
      *) echo "    <pgc><vob file=\"$tmp/t2.mpg\"/><post>call vmgm menu 1;</post></pgc>" ;;
    esac
  done
  echo "  </titles></titleset>"
  echo "</dvdauthor>"
} > "$tmp/dvd-menu-99.xml"
author dvd-menu-99

cat > "$tmp/dvd-menu-lying.xml" <<XML
<dvdauthor dest="$tmp/dvd-menu-lying" jumppad="0">
  <vmgm><fpc>jump menu 1;</fpc><menus><video format="ntsc" aspect="16:9"/>
    <pgc entry="title"><vob file="$tmp/menu1.mpg" pause="inf"/><button name="b1">jump title 1;</button></pgc>
  </menus></vmgm>
  <titleset><titles><video format="ntsc" aspect="16:9"/><audio lang="en"/>
    <pgc>
      <vob file="$tmp/t2.mpg"><cell start="0" chapter="1">jump title 2;</cell></vob>
      <vob file="$tmp/t8.mpg"/>
    </pgc>
    <pgc><vob file="$tmp/t6.mpg" chapters="0,3"/><post>call vmgm menu 1;</post></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-menu-lying

cat > "$tmp/dvd-menu-register.xml" <<XML
<dvdauthor dest="$tmp/dvd-menu-register" jumppad="0">
  <vmgm><fpc>g3 = 7; jump menu 1;</fpc><menus><video format="ntsc" aspect="16:9"/>
    <pgc entry="title"><vob file="$tmp/menu2.mpg" pause="inf"/>
      <button name="b1">if (g3 == 7) jump title 3; jump title 1;</button>
      <button name="b2">jump titleset 1 menu;</button></pgc>
  </menus></vmgm>
  <titleset>
    <menus><video format="ntsc" aspect="16:9"/>
      <pgc entry="root"><vob file="$tmp/menu1.mpg" pause="inf"/><button name="b1">jump title 2;</button></pgc>
    </menus>
    <titles><video format="ntsc" aspect="16:9"/><audio lang="en"/>
      <pgc><vob file="$tmp/t10.mpg"/></pgc>
      <pgc><vob file="$tmp/t3.mpg"/><post>call vmgm menu 1;</post></pgc>
      <pgc><vob file="$tmp/t6.mpg" chapters="0,2"/><post>call vmgm menu 1;</post></pgc>
    </titles>
  </titleset>
</dvdauthor>
XML
author dvd-menu-register

# SetNVTMR (52 00 ss ss pp pp 00 00) for the placeholder "g12 = 4242" (dvd-authoring.sh).
cat > "$tmp/dvd-menu-timer.xml" <<XML
<dvdauthor dest="$tmp/dvd-menu-timer" jumppad="0">
  <vmgm><fpc>jump menu 1;</fpc><menus><video format="ntsc" aspect="16:9"/>
    <pgc entry="title"><vob file="$tmp/menu1.mpg" pause="inf"/><button name="b1">jump title 1;</button></pgc>
  </menus></vmgm>
  <titleset><titles><video format="ntsc" aspect="16:9"/><audio lang="en"/>
    <pgc><pre>g12 = 4242;</pre><vob file="$tmp/t2.mpg" pause="inf"/><post>jump title 2;</post></pgc>
    <pgc><vob file="$tmp/t6.mpg"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/t10.mpg"/><vob file="$tmp/t2.mpg"/></pgc>
    <pgc><vob file="$tmp/t10.mpg"/><post>call vmgm menu 1;</post></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-menu-timer
patch_commands dvd-menu-timer 4242=5200000300040000

cat > "$tmp/dvd-menu-timer-cut.xml" <<XML
<dvdauthor dest="$tmp/dvd-menu-timer-cut" jumppad="0">
  <vmgm><fpc>jump menu 1;</fpc><menus><video format="ntsc" aspect="16:9"/>
    <pgc entry="title"><vob file="$tmp/menu1.mpg" pause="inf"/><button name="b1">jump title 1;</button></pgc>
  </menus></vmgm>
  <titleset><titles><video format="ntsc" aspect="16:9"/><audio lang="en"/>
    <pgc><pre>g12 = 4242;</pre><vob file="$tmp/t10.mpg"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/t6.mpg"/><post>call vmgm menu 1;</post></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-menu-timer-cut
patch_commands dvd-menu-timer-cut 4242=5200000200020000

cat > "$tmp/dvd-menu-random.xml" <<XML
<dvdauthor dest="$tmp/dvd-menu-random" jumppad="0">
  <vmgm><fpc>jump menu 1;</fpc><menus><video format="ntsc" aspect="16:9"/>
    <pgc entry="title"><vob file="$tmp/menu2.mpg" pause="inf"/>
      <button name="b1">g1 = random(4); if (g1 == 1) jump title 1; if (g1 == 2) jump title 2;
        if (g1 == 3) jump title 3; jump title 4;</button>
      <button name="b2">g2 = random(20); jump title 1;</button></pgc>
  </menus></vmgm>
  <titleset><titles><video format="ntsc" aspect="16:9"/><audio lang="en"/>
    <pgc><vob file="$tmp/t2.mpg"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/t3.mpg"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/t6.mpg"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/t10.mpg"/><post>call vmgm menu 1;</post></pgc>
    <pgc><vob file="$tmp/t10.mpg"/><vob file="$tmp/t2.mpg"/></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-menu-random

cat > "$tmp/dvd-menu-intitle.xml" <<XML
<dvdauthor dest="$tmp/dvd-menu-intitle" jumppad="0">
  <vmgm><fpc>jump title 1;</fpc></vmgm>
  <titleset><titles><video format="ntsc" aspect="16:9"/><audio lang="en"/>
    <pgc><vob file="$tmp/menu2.mpg" pause="inf"/>
      <button name="b1">jump title 3;</button><button name="b2">jump title 2;</button></pgc>
    <pgc><vob file="$tmp/t2.mpg"/><post>jump title 1;</post></pgc>
    <pgc><vob file="$tmp/t6.mpg" chapters="0,2,4"/><post>jump title 1;</post></pgc>
    <pgc><vob file="$tmp/t2.mpg"/><vob file="$tmp/t8.mpg"/></pgc>
  </titles></titleset>
</dvdauthor>
XML
author dvd-menu-intitle

decoy_xml dvd-menu-damaged '<titleset><titles><video format="ntsc" aspect="16:9"/><audio lang="en"/>
    <pgc><vob file="'"$tmp"'/t10.mpg"/></pgc></titles></titleset>'
author dvd-menu-damaged
# Damage VTS_01_0.IFO (its VTS_PTT_SRPT and VTS_PGCIT pointers) and keep the .BUP; remove VTS 2.
printf '\xff\xff\xff\xff\xff\xff\xff\xff' | dd of="$OUT/dvd-menu-damaged/VIDEO_TS/VTS_01_0.IFO" bs=1 seek=200 conv=notrunc status=none
rm -f "$OUT/dvd-menu-damaged/VIDEO_TS/VTS_02_"*
