#!/usr/bin/env bash
# Makes the ISO9660 test images in $OUT (TestImages/generated) from Debian tools:
#   iso9660-plain.iso      genisoimage, ISO9660 level 1 only (8.3 names, a 300-entry directory
#                          spanning several sectors, an empty file, a 'FILE.' name)
#   iso9660-joliet.iso     genisoimage -J: Joliet with Unicode and long names
#   iso9660-rockridge.iso  genisoimage -R: Rock Ridge, a tree 12 levels deep (relocated into
#                          rr_moved, reached through CL/RE entries) and a symbolic link
#   iso9660-joliet-rr.iso  genisoimage -J -R: both name sets
#   iso9660-deep.iso       genisoimage -D -J: deep ISO9660 tree without relocation
#   iso9660-multiextent.iso xorriso -as mkisofs -iso-level 3 -R -J with a 4500 MiB file (sparse
#                          source with marker bytes at known offsets), so the file is recorded in
#                          two extents (flag 0x80). xorriso writes the zeros densely; the image is
#                          piped through `cp --sparse=always`, so it takes ~100 KiB on disk
#                          (apparent size 4.4 GiB). Needs a file system with sparse files.
set -euo pipefail
: "${OUT:?OUT must name the output directory}"
mkdir -p "$OUT"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000

# Plain level 1 tree.
p="$tmp/plain"
mkdir -p "$p/DOCS/NOTES" "$p/DATA" "$p/MANY" "$p/EMPTYDIR"
printf 'plain ISO9660 image\n' > "$p/README.TXT"
printf 'nested\n' > "$p/DOCS/NOTES/NOTE.TXT"
: > "$p/DATA/EMPTY.BIN"
head -c 300000 /dev/urandom > "$p/DATA/RANDOM.BIN"
printf 'no extension\n' > "$p/NOEXT"
for i in $(seq 100 399); do printf 'file %s\n' "$i" > "$p/MANY/F$i.TXT"; done
genisoimage -quiet -V PLAIN_ISO -o "$OUT/iso9660-plain.iso" "$p"

# Joliet tree with Unicode and long names.
j="$tmp/joliet"
mkdir -p "$j/Ordner mit Ümlauten/日本語のディレクトリ" "$j/a long directory name that exceeds eight characters"
printf 'joliet\n' > "$j/Ordner mit Ümlauten/日本語のディレクトリ/ファイル.txt"
printf 'Ελληνικά\n' > "$j/Ελληνικά.txt"
printf 'long\n' > "$j/a long directory name that exceeds eight characters/and a long file name.data"
head -c 70000 /dev/urandom > "$j/random payload.bin"
printf 'dot\n' > "$j/FILE."
genisoimage -quiet -J -joliet-long -input-charset utf-8 -V JOLIET_ISO -o "$OUT/iso9660-joliet.iso" "$j"

# Rock Ridge tree, 12 levels deep, with a symbolic link.
r="$tmp/rr"
mkdir -p "$r/level1/level2/level3/level4/level5/level6/level7/level8/level9/level10/level11/level12"
printf 'deep\n' > "$r/level1/level2/level3/level4/level5/level6/level7/level8/level9/level10/level11/level12/deep.txt"
printf 'nine\n' > "$r/level1/level2/level3/level4/level5/level6/level7/level8/level9/nine.txt"
printf 'MixedCase\n' > "$r/MixedCase Name.Text"
printf 'unicode\n' > "$r/ünïcödé.txt"
head -c 50000 /dev/urandom > "$r/random.bin"
ln -s random.bin "$r/link-to-random"
genisoimage -quiet -R -input-charset utf-8 -V ROCKRIDGE_ISO -o "$OUT/iso9660-rockridge.iso" "$r"
genisoimage -quiet -J -R -input-charset utf-8 -V JOLIET_RR_ISO -o "$OUT/iso9660-joliet-rr.iso" "$j"

# Deep ISO9660 tree without relocation (-D), with Joliet.
d="$tmp/deep"
mkdir -p "$d/A/B/C/D/E/F/G/H/I/J/K"
printf 'deep\n' > "$d/A/B/C/D/E/F/G/H/I/J/K/DEEP.TXT"
printf 'eight\n' > "$d/A/B/C/D/E/F/G/H/EIGHT.TXT"
genisoimage -quiet -D -J -V DEEP_ISO -o "$OUT/iso9660-deep.iso" "$d" 2>/dev/null

# A file over 4 GiB: multi-extent. Marker bytes at known offsets, including both sides of the
# 4 GiB - 2 KiB extent boundary xorriso uses.
m="$tmp/multi"
mkdir -p "$m"
truncate -s 4500M "$m/big.bin"
mark() { printf '%s' "$2" | dd of="$m/big.bin" conv=notrunc bs=1 seek="$1" status=none; }
mark 0 'HEAD-OF-BIG-FILE'
mark 1048576 'one MiB'
mark 4294963190 'ACROSS-THE-FIRST-EXTENT-BOUNDARY'
mark 4294967296 'four GiB'
mark $((4500 * 1024 * 1024 - 8)) 'BIG-TAIL'
printf 'small file\n' > "$m/small.txt"
xorriso -as mkisofs -quiet -iso-level 3 -R -J -V MULTI_EXTENT -o - "$m" 2>/dev/null \
  | cp --sparse=always /dev/stdin "$OUT/iso9660-multiextent.iso"
chmod 644 "$OUT/iso9660-multiextent.iso"
