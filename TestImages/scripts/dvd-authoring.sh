# Shared steps of the dvdauthor scripts (make-dvd-menus.sh, make-dvd-episodes*.sh), sourced by
# them (not run by make-all.sh on its own). They expect $tmp (a scratch directory) and $OUT.
#   small_clip NAME SECONDS HZ     $tmp/NAME.mpg: SECONDS of ffmpeg's testsrc at 352x240 NTSC, low
#                                  bit rate, with a HZ sine tone (the episode discs' clips)
#   menu_background                $tmp/menubg720.mpg: one second of testsrc at 720x480 NTSC with a
#                                  1 kHz tone, the video spumux puts menu buttons on
#   three_episode_xml DISC MENU    $tmp/DISC.xml: a 4-button menu (MENU.mpg: Play All sets g0 = 1,
#                                  buttons 2-4 set g1 = 1..3 and jump to title 1) and one title of
#                                  three PGCs (e1-e3), placeholders g12 = 4202/4203/4301/4302 for
#                                  patch_commands (make-dvd-episodes.sh, make-dvd-episodes-pgcs.sh)
#   highlight_png FILE Y0 COUNT    a 720x480 highlight image: COUNT opaque boxes (x 100-300, 40
#                                  high) from Y0 every 100 lines, transparent elsewhere
#   author DISC                    dvdauthor -x $tmp/DISC.xml, the VIDEO_TS copied to $OUT/DISC
#   patch_commands DISC N=HEX ...  placeholder commands "g12 = N" (71 00 00 0c NN NN 00 00) in the
#                                  disc's IFOs and BUPs replaced by 8-byte commands (hex): dvdauthor
#                                  writes neither LinkPGCN, LinkPTTN, LinkNextPGC nor SetNVTMR
#   merge_titles DISC [nolinks] [first]
#                                  the titles of VTS 1 (one PGC each) merged into title 1 of that
#                                  many PGCs (PTT table, PGC table, video manager's title table),
#                                  the PGC headers chaining them (next/previous PGC) unless
#                                  "nolinks"; with "first" the PTT table keeps the first PGC's
#                                  chapters only (the others belong to title 1, no chapter names
#                                  them)
#   nop_exits DISC N...            the Exit dvdauthor ends title PGC N's post commands with
#                                  replaced by a NOP (the PGC plays on by its header's next PGC)
# These edit bytes dvdauthor wrote; IFOs carry no checksum, so no CRC is recomputed.

small_clip() { # name seconds frequency
  ffmpeg -nostdin -loglevel error -y \
    -f lavfi -i "testsrc=size=352x240:rate=30000/1001:duration=$2" \
    -f lavfi -i "sine=frequency=$3:sample_rate=48000:duration=$2" \
    -target ntsc-dvd -s 352x240 -b:v 100k -maxrate 400k -bufsize 224k -b:a 64k -ac 2 \
    -bitexact -shortest "$tmp/$1.mpg"
}

menu_background() {
  ffmpeg -nostdin -loglevel error -y -f lavfi -i "testsrc=size=720x480:rate=30000/1001:duration=1" \
    -f lavfi -i "sine=frequency=1000:sample_rate=48000:duration=1" -target ntsc-dvd -b:v 300k \
    -maxrate 800k -bufsize 224k -b:a 96k -ac 2 -bitexact -shortest "$tmp/menubg720.mpg"
}

three_episode_xml() { # disc-name menu-name
  cat > "$tmp/$1.xml" <<XML
<dvdauthor dest="$tmp/$1" jumppad="0">
  <vmgm><fpc>g0 = 0; jump menu 1;</fpc><menus><video format="ntsc" aspect="4:3"/>
    <pgc entry="title"><vob file="$tmp/$2.mpg" pause="inf"/>
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
}

highlight_png() { # file y0 count
  python3 - "$1" "$2" "$3" <<'PY'
import struct, sys, zlib
w, h = 720, 480
y0, count = int(sys.argv[2]), int(sys.argv[3])
boxes = [(100, y0 + 100 * i, 300, y0 + 100 * i + 40) for i in range(count)]
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
}

author() { # disc-name (XML in $tmp/<disc-name>.xml)
  VIDEO_FORMAT=NTSC dvdauthor -x "$tmp/$1.xml" > /dev/null 2> "$tmp/$1.log" || { cat "$tmp/$1.log" >&2; exit 1; }
  rm -rf "${OUT:?}/$1"
  mkdir -p "$OUT/$1"
  cp -r "$tmp/$1/VIDEO_TS" "$OUT/$1/"
  mkdir -p "$OUT/$1/AUDIO_TS"
}

patch_commands() { # disc-name N=hex ...
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

merge_titles() { # disc-name [nolinks] [first]
  local f
  for f in "$OUT/$1/VIDEO_TS/VTS_01_0.IFO" "$OUT/$1/VIDEO_TS/VTS_01_0.BUP"; do
    python3 - "$f" "${2:-links}" "${3:-all}" <<'PY'
import struct, sys
path, links, first = sys.argv[1], sys.argv[2] == "links", sys.argv[3] == "first"
d = bytearray(open(path, "rb").read())
u16 = lambda o: struct.unpack_from(">H", d, o)[0]
u32 = lambda o: struct.unpack_from(">I", d, o)[0]
# VTS_PTT_SRPT: every title's parts, in order, become title 1's.
ptt = u32(0xC8) * 2048
n, last = u16(ptt), u32(ptt + 4)
offsets = [u32(ptt + 8 + 4 * i) for i in range(n)]
parts = d[ptt + offsets[0]: (ptt + offsets[1] if first else ptt + last + 1)]
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
    if links:
        struct.pack_into(">HH", d, pgc + 0x9C, k + 2 if k + 1 < count else 0, k)
open(path, "wb").write(d)
PY
  done
  for f in "$OUT/$1/VIDEO_TS/VIDEO_TS.IFO" "$OUT/$1/VIDEO_TS/VIDEO_TS.BUP"; do
    python3 - "$f" "${3:-all}" <<'PY'
import struct, sys
path, only_first = sys.argv[1], sys.argv[2] == "first"
d = bytearray(open(path, "rb").read())
tt = struct.unpack_from(">I", d, 0xC4)[0] * 2048
n, last = struct.unpack_from(">HHI", d, tt)[0], struct.unpack_from(">I", d, tt + 4)[0]
entries = [d[tt + 8 + 12 * i: tt + 20 + 12 * i] for i in range(n)]
assert all(e[6] == 1 for e in entries), "one title set"
parts = sum(struct.unpack_from(">H", e, 2)[0] for e in (entries[:1] if only_first else entries))
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

nop_exits() { # disc-name pgc...
  local disc="$1" f
  shift
  for f in "$OUT/$disc/VIDEO_TS/VTS_01_0.IFO" "$OUT/$disc/VIDEO_TS/VTS_01_0.BUP"; do
    python3 - "$f" "$@" <<'PY'
import struct, sys
path = sys.argv[1]
d = bytearray(open(path, "rb").read())
pgcit = struct.unpack_from(">I", d, 0xCC)[0] * 2048
for n in map(int, sys.argv[2:]):
    pgc = pgcit + struct.unpack_from(">I", d, pgcit + 8 + 8 * (n - 1) + 4)[0]
    table = pgc + struct.unpack_from(">H", d, pgc + 0xE4)[0]
    pre, post = struct.unpack_from(">HH", d, table)
    assert post == 1, (n, post)
    at = table + 8 + 8 * pre
    assert d[at: at + 8] == bytes.fromhex("3001000000000000"), d[at: at + 8].hex()
    d[at: at + 8] = bytes(8)
open(path, "wb").write(d)
PY
  done
}
