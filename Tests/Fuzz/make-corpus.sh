#!/usr/bin/env bash
# Seeds the fuzz corpora in Tests/Fuzz/corpus/<harness>/ (git-ignored) from TestImages/generated,
# TestImages/sample-bluray.iso and ../shared/realdata (copied, never committed). Inputs are cut to
# each harness's -max_len (fuzz-max-len.sh) so that harnesses run fast: disc images in the sparse
# encoding of their metadata sectors (sparse-image.py), a few packets of each stream (its head and
# a piece from the middle), navigation files' heads. With FUZZ_BIN set (Scripts/fuzz.sh does), the
# seeds and the corpus already there are minimized into the corpus with libFuzzer's -merge=1
# (what covers nothing new is dropped); without it, the seeds are copied in.
# Needs TestImages/generated (make images) for the richest seeds; works with what is present.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
gen="$root/TestImages/generated"
real="${DISCKIT_REALDATA:-$root/../shared/realdata}"
final="${CORPUS:-$here/corpus}"
all="udf iso9660 index movieobject hdmv ics mpls clpi ifo navpack ts ps timeseek segment image dvdvm bdjo jar class range hevc dovi pgs dvdsub"
. "$here/fuzz-max-len.sh"
corpus="$(mktemp -d "${TMPDIR:-/tmp}/disckit-fuzz-seeds-XXXXXX")"
trap 'rm -rf "$corpus"' EXIT
# The corpus format: inputs of an older one (whole images for udf, iso9660 and image) are dropped.
format="sparse-1"
if [ "$(cat "$final/.format" 2> /dev/null)" != "$format" ]; then
  rm -rf "$final/udf" "$final/iso9660" "$final/image"
fi
for h in $all; do mkdir -p "$corpus/$h" "$final/$h"; done
n=0
name_of() { echo "$1" | sed 's#^.*/\(shared\|TestImages\)/##; s#[/ ]#_#g'; }
# seed HARNESS FILE: copies the head of FILE (up to the harness's -max_len) under a name made from
# its path.
seed() {
  local h="$1" f="$2"
  [ -f "$f" ] || return 0
  head -c "$(fuzz_max_len "$h")" "$f" > "$corpus/$h/$(name_of "$f")"
  n=$((n + 1))
}
# sparse HARNESS IMAGE: the image's metadata sectors in the sparse encoding.
sparse() {
  local h="$1" f="$2"
  [ -f "$f" ] || return 0
  python3 "$here/sparse-image.py" encode "$f" "$corpus/$h/$(name_of "$f").sparse" \
    --max-bytes "$(fuzz_max_len "$h")" 2> /dev/null && n=$((n + 1))
}
small() { [ -f "$1" ] && [ "$(stat -c %s "$1")" -le "${2:-4194304}" ]; }
search() { find "$@" 2>/dev/null | sort; }

roots=("$gen" "$real")
for f in $(search "${roots[@]}" -iname index.bdmv); do seed index "$f"; done
for f in $(search "${roots[@]}" -iname MovieObject.bdmv); do seed movieobject "$f"; done
# hdmv: a 2-byte index length, the disc's index.bdmv, then its MovieObject.bdmv.
for f in $(search "${roots[@]}" -iname MovieObject.bdmv); do
  i="$(dirname "$f")/index.bdmv"
  [ -f "$i" ] || continue
  out="$corpus/hdmv/$(name_of "$f")"
  python3 -c 'import sys; i=open(sys.argv[1],"rb").read(); m=open(sys.argv[2],"rb").read(); open(sys.argv[3],"wb").write(len(i).to_bytes(2,"big")+i+m)' "$i" "$f" "$out" && n=$((n + 1))
done
for f in $(search "${roots[@]}" -iname ics_menu.bin); do seed ics "$f"; done
for f in $(search "${roots[@]}" -iname '*.mpls'); do seed mpls "$f"; done
for f in $(search "${roots[@]}" -iname '*.clpi'); do seed clpi "$f"; done
for f in $(search "${roots[@]}" \( -iname '*.IFO' -o -iname '*.BUP' \)); do seed ifo "$f"; done
for f in $(search "${roots[@]}" \( -iname 'VIDEO_TS.IFO' -o -iname 'VIDEO_TS.BUP' \)); do seed dvdvm "$f"; done
# Whole small discs for the search: VIDEO_TS.IFO, VTS_01_0.IFO and the first two menu VOB sectors
# (the generated menu discs: timer, rnd, button groups).
for d in $(search "$gen" -maxdepth 1 -type d -name 'dvd-menu-*'); do
  v="$d/VIDEO_TS"
  [ -f "$v/VIDEO_TS.IFO" ] && [ -f "$v/VTS_01_0.IFO" ] || continue
  mkdir -p "$corpus/dvdvm"
  { cat "$v/VIDEO_TS.IFO" "$v/VTS_01_0.IFO"; [ -f "$v/VIDEO_TS.VOB" ] && head -c 4096 "$v/VIDEO_TS.VOB"; } \
    | head -c "$(fuzz_max_len dvdvm)" > "$corpus/dvdvm/disc-$(basename "$d")"
  n=$((n + 1))
done
# BD-J: BDJO and JAR files found in the roots, plus a zip with stored and deflated members made
# here (python3's zipfile) and a class file compiled here when javac is installed.
for f in $(search "${roots[@]}" -iname '*.bdjo'); do seed bdjo "$f"; done
for f in $(search "${roots[@]}" -iname '*.jar'); do small "$f" 262144 && seed jar "$f"; done
python3 - "$corpus/jar/python-zip" <<'PY' && n=$((n + 1))
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    z.writestr('a.properties', 'featurePlaylist=00800\n' * 20, zipfile.ZIP_DEFLATED)
    z.writestr('b.txt', 'bd://0.PLAYLIST:00801', zipfile.ZIP_STORED)
    z.writestr('c.bin', bytes(range(256)) * 8, zipfile.ZIP_DEFLATED)
PY
if command -v javac > /dev/null; then
  classes="$(mktemp -d)"
  printf 'class Seed { static final long L = 1L << 40; static final double D = 0.5;\n  static final String S = "bd://0.PLAYLIST:00800 \\u00e9 \\ud83c\\udfac"; }\n' > "$classes/Seed.java"
  javac -d "$classes" "$classes/Seed.java" 2> /dev/null && cp "$classes/Seed.class" "$corpus/class/Seed.class" && n=$((n + 1))
  rm -rf "$classes"
fi
# File systems: every small image, and the metadata of big ones, in the sparse encoding.
for f in $(search "$real/udf" "$gen" -maxdepth 1 \( -iname '*.iso' -o -iname 'udf*.img' \)); do
  small "$f" 16777216 && sparse udf "$f"
done
for f in $(search "$real/iso9660" "$gen" -maxdepth 1 -iname '*.iso'); do
  small "$f" 16777216 && sparse iso9660 "$f"
done
# Streams: a few packets of each (its first 16 KiB, and 16 KiB from the middle at a packet
# boundary of 188 and of 192 bytes), for the pre-scanner; the time seek gets a 4-byte time (1.5 s,
# in hundredths) before a head of up to its -max_len.
for f in $(search "$real/ts" "$real/m2ts" "$gen/ts" -type f \( -name '*.ts' -o -name '*.m2ts' -o -name '*.mts' \)); do
  name="$(name_of "$f")"
  head -c 16384 "$f" > "$corpus/ts/$name-head"
  size="$(stat -c %s "$f")"
  middle=$(( size / 2 / 9024 * 9024 ))  # 9024: a multiple of both 188 and 192
  tail -c +$((middle + 1)) "$f" | head -c 16384 > "$corpus/ts/$name-middle"
  n=$((n + 2))
  { printf '\x00\x00\x00\x96'; head -c $(( $(fuzz_max_len timeseek) - 4 )) "$f"; } > "$corpus/timeseek/$name"
done
# HEVC: the raw streams of the codec discs (their heads: parameter sets, SEI, first slices).
for f in $(search "$gen/codecs" -maxdepth 1 -name '*.hevc'); do seed hevc "$f"; done
# DOVI video descriptor bodies: a UHD Blu-ray enhancement layer's (profile 7, dependency_pid
# 0x1011) and a single-layer one's (profile 8.1, no dependency_pid).
printf '\x01\x00\x0e\x36\x80\x8f\x6f' > "$corpus/dovi/profile7-el"
printf '\x01\x00\x10\x1d\x10' > "$corpus/dovi/profile8"
n=$((n + 2))
# Program streams and NAV packs from DVD VOBs: the head of each VOB, and its first NAV sectors.
for f in $(search "$gen" -iname '*.VOB'); do
  name="$(echo "$f" | sed 's#^.*/generated/##; s#/#_#g')"
  { printf '\x07'; head -c $(( $(fuzz_max_len ps) - 1 )) "$f"; } > "$corpus/ps/$name"
  python3 - "$f" "$corpus/navpack/$name" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read(8 << 20)
found = 0
for o in range(0, len(data) - 2047, 2048):
    s = data[o:o + 2048]
    if s[14:18] == b'\x00\x00\x01\xbb' and s[38:42] == b'\x00\x00\x01\xbf':
        open(f"{sys.argv[2]}-{found}", 'wb').write(s)
        found += 1
        if found == 4:
            break
PY
done
# Subtitles: the generated PGS streams (.sup files) and the DVD subpicture units of the generated
# subpicture VOBs (private stream 1, substream 0x20, reassembled by their size field).
for f in $(search "$gen/subtitles" -name '*.sup'); do seed pgs "$f"; done
for f in $(search "$gen/subtitles/clips" -maxdepth 1 -name 'dvd-?.mpg'); do
  python3 - "$f" "$corpus/dvdsub/$(name_of "$f")" <<'PY' && n=$((n + 4))
import sys
data = open(sys.argv[1], 'rb').read(32 << 20)
unit, found, i = b'', 0, 0
while found < 4:
    i = data.find(b'\x00\x00\x01\xbd', i)
    if i < 0:
        break
    length = int.from_bytes(data[i + 4:i + 6], 'big')
    payload = data[i + 9 + data[i + 8]:i + 6 + length]
    i += 6 + length
    if not payload or payload[0] != 0x20:
        continue
    unit += payload[1:]
    if len(unit) >= 2 and len(unit) >= int.from_bytes(unit[:2], 'big'):
        open(f"{sys.argv[2]}-{found}", 'wb').write(unit[:int.from_bytes(unit[:2], 'big')])
        unit, found = b'', found + 1
PY
done
# Segment requests: one of each operation.
i=0
for line in \
  '{"op":"streamTimeFull","segment":{"start":1000,"stop":null,"time":0,"appliedRate":-1},"value":5}' \
  '{"op":"streamTime","segment":{"start":0,"stop":90000,"time":0,"rate":1},"value":45000}' \
  '{"op":"runningTimeFull","segment":{"start":500,"stop":9000,"time":100,"rate":2,"base":7},"value":600}' \
  '{"op":"positionFromRunningTime","segment":{"start":0,"stop":null,"time":0,"rate":-1.5},"value":10}' \
  '{"op":"positionFromStreamTimeFull","segment":{"start":10,"stop":20,"time":5},"value":3}' \
  '{"op":"clip","segment":{"start":100,"stop":200,"time":0},"value":50,"stop":150}' \
  '{"op":"setRunningTime","segment":{"start":100,"stop":200,"time":0},"value":150}' \
  '{"op":"offsetRunningTime","segment":{"start":100,"stop":200,"time":0},"signedValue":-50}' \
  '{"op":"doSeek","segment":{"start":0,"stop":null,"time":0},"rate":1,"seekFlags":1,"value":100,"stop":500,"startType":"set","stopType":"set"}'; do
  printf '%s' "$line" > "$corpus/segment/op-$i.json"
  i=$((i + 1))
done
# Range headers: a size of 10000 (eight bytes, shifted left by two), then RFC 9110's examples.
i=0
for header in 'bytes=0-499' 'bytes=9500-' 'bytes=-500' 'bytes=0-0,-1' 'items=1-2'; do
  { printf '\x00\x00\x00\x00\x00\x00\x9c\x40'; printf '%s' "$header"; } > "$corpus/range/header-$i"
  i=$((i + 1))
done
# Disc images for the structure-aware harness, sparse: the committed sample, the generated Blu-ray
# and DVD discs.
sparse image "$root/TestImages/sample-bluray.iso"
for f in $(search "$gen" "$gen/bluray" -maxdepth 1 \( -name 'dvd*.iso' -o -path '*/bluray/*.iso' \)); do
  small "$f" 16777216 && sparse image "$f"
done
for h in udf iso9660; do  # disc images double as file-system seeds
  for f in "$corpus/image"/*; do [ -f "$f" ] && cp -n "$f" "$corpus/$h/" 2>/dev/null; done
done
echo "fuzz corpus: $n seed files" >&2

# Into the corpus: minimized with the harness when it is built, else copied.
for h in ${FUZZ_CORPUS_TARGETS:-$all}; do
  if [ -n "${FUZZ_BIN:-}" ] && [ -x "$FUZZ_BIN" ]; then
    merged="$(mktemp -d "${TMPDIR:-/tmp}/disckit-fuzz-merge-XXXXXX")"
    DISCKIT_FUZZ_TARGET="$h" ASAN_OPTIONS="detect_leaks=0:quarantine_size_mb=16" nice -n 19 \
      "$FUZZ_BIN" -merge=1 -max_len="$(fuzz_max_len "$h")" -timeout=10 -rss_limit_mb=512 \
      "$merged" "$final/$h" "$corpus/$h" > "$corpus/$h.merge.log" 2>&1
    status=$?
    if [ "$status" -eq 0 ]; then
      rm -rf "$final/$h" && mv "$merged" "$final/$h"
      echo "fuzz corpus: $h: $(ls "$final/$h" | wc -l) files after -merge=1," \
        "$(grep -o 'cov: [0-9]*' "$corpus/$h.merge.log" | tail -1)" >&2
    else
      rm -rf "$merged"
      cp -n "$corpus/$h"/* "$final/$h/" 2> /dev/null
      echo "fuzz corpus: $h: merge failed (exit $status), seeds copied" >&2
      tail -5 "$corpus/$h.merge.log" >&2
    fi
  else
    cp -n "$corpus/$h"/* "$final/$h/" 2> /dev/null
  fi
done
echo "$format" > "$final/.format"
