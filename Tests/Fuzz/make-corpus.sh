#!/usr/bin/env bash
# Seeds the fuzz corpora in Tests/Fuzz/corpus/<harness>/ (git-ignored) from TestImages/generated,
# TestImages/sample-bluray.iso and ../shared/realdata (copied, never committed). Inputs are kept
# small (stream heads are cut) so that harnesses run fast; files libFuzzer adds later stay.
# Needs TestImages/generated (make images) for the richest seeds; works with what is present.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
gen="$root/TestImages/generated"
real="${DISCKIT_REALDATA:-$root/../shared/realdata}"
corpus="${CORPUS:-$here/corpus}"
for h in udf iso9660 index movieobject mpls clpi ifo navpack ts ps timeseek segment image; do
  mkdir -p "$corpus/$h"
done
n=0
# seed HARNESS FILE [MAXBYTES]: copies (a head of) FILE under a name made from its path.
seed() {
  local h="$1" f="$2" max="${3:-}" name
  [ -f "$f" ] || return 0
  name="$(echo "$f" | sed 's#^.*/\(shared\|TestImages\)/##; s#[/ ]#_#g')"
  if [ -n "$max" ]; then head -c "$max" "$f" > "$corpus/$h/$name"; else cp "$f" "$corpus/$h/$name"; fi
  n=$((n + 1))
}
small() { [ -f "$1" ] && [ "$(stat -c %s "$1")" -le "${2:-4194304}" ]; }
search() { find "$@" 2>/dev/null | sort; }

roots=("$gen" "$real")
for f in $(search "${roots[@]}" -iname index.bdmv); do seed index "$f"; done
for f in $(search "${roots[@]}" -iname MovieObject.bdmv); do seed movieobject "$f"; done
for f in $(search "${roots[@]}" -iname '*.mpls'); do seed mpls "$f"; done
for f in $(search "${roots[@]}" -iname '*.clpi'); do seed clpi "$f"; done
for f in $(search "${roots[@]}" \( -iname '*.IFO' -o -iname '*.BUP' \)); do seed ifo "$f"; done
for f in $(search "$real/udf" "$gen" -maxdepth 1 -iname '*.iso'); do
  small "$f" && seed udf "$f"
done
for f in $(search "$real/iso9660" "$gen" -maxdepth 1 -iname '*.iso'); do
  small "$f" && seed iso9660 "$f"
done
# Streams: 64 KiB heads.
for f in $(search "$real/ts" "$real/m2ts" "$gen/ts" -type f \( -name '*.ts' -o -name '*.m2ts' -o -name '*.mts' \)); do
  seed ts "$f" 65536
  # Time seek: a 4-byte time (1.5 s, in hundredths) before the stream head.
  name="$(basename "$f")"
  { printf '\x00\x00\x00\x96'; head -c 262144 "$f"; } > "$corpus/timeseek/$name"
done
# Program streams and NAV packs from DVD VOBs: the head of each VOB, and its first NAV sectors.
for f in $(search "$gen" -iname '*.VOB'); do
  name="$(echo "$f" | sed 's#^.*/generated/##; s#/#_#g')"
  { printf '\x07'; head -c 131072 "$f"; } > "$corpus/ps/$name"
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
# Whole images for the structure-aware harness: the committed sample and small generated discs.
seed image "$root/TestImages/sample-bluray.iso"
for f in $(search "$gen" -maxdepth 1 \( -name 'dvd*.iso' -o -name 'bluray*.iso' \)); do
  small "$f" 3145728 && seed image "$f"
done
for h in udf iso9660 image; do  # images double as file-system seeds
  for f in "$corpus/image"/*; do [ -f "$f" ] && cp -n "$f" "$corpus/$h/" 2>/dev/null; done
done
echo "fuzz corpus: $n seed files in $corpus ($(find "$corpus" -type f | wc -l) files in all)" >&2
