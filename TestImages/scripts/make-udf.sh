#!/usr/bin/env bash
# UDF test images for the UDF reader tests (Tests/DiscKitTests/UDF, Tests/DiscKitOracleTests/UDF). Writes into $OUT.
#   udf-genisoimage.iso   genisoimage -udf: ISO9660 + Joliet + UDF 1.02 bridge, nested dirs, 1.5 MiB file
#   udf-pycdlib-260.iso   pycdlib: UDF 2.60 (+ ISO9660), nested dirs, Unicode names, 1.5 MiB file
#   udf-mkudffs-*.img     mkudffs (formats only, no files): 1.02 hd, 2.01 hd, 2.01 hd without EFE,
#                         2.01 cdrw (sparable partition), 2.50 bdr (virtual partition: VAT)
# mkudffs 2.3 refuses UDF > 2.01 for every media type but bdr, and bdr always uses a VAT; no
# Debian tool writes the UDF 2.50 metadata partition, so the tests build those images themselves.
set -euo pipefail
: "${OUT:?set OUT to the output directory}"
mkdir -p "$OUT"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A deterministic tree.
tree="$work/tree"
mkdir -p "$tree/DOCS/deeper/deepest" "$tree/EMPTY" "$tree/DATA"
printf 'hello from disckit\n' >"$tree/README.TXT"
printf '' >"$tree/DOCS/EMPTY.TXT"
seq 1 2000 >"$tree/DOCS/deeper/NUMBERS.TXT"
printf 'deep\n' >"$tree/DOCS/deeper/deepest/LEAF.TXT"
/usr/bin/python3 -c "
import random, sys
r = random.Random(42)
sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(1536 * 1024 + 123)))" >"$tree/DATA/BIG.BIN"
for i in $(seq 1 150); do printf 'file %d\n' "$i" >"$tree/DATA/F$i.TXT"; done

genisoimage -quiet -udf -J -R -V DISCKIT_UDF -o "$OUT/udf-genisoimage.iso" "$tree"

/usr/bin/python3 - "$tree" "$OUT/udf-pycdlib-260.iso" <<'PY'
import io, os, sys
import pycdlib
tree, out = sys.argv[1], sys.argv[2]
iso = pycdlib.PyCdlib()
iso.new(interchange_level=3, udf='2.60', vol_ident='PYCDLIB260')
iso.add_directory('/DOCS', udf_path='/Docs')
iso.add_directory('/DOCS/DEEPER', udf_path='/Docs/Deeper Still')
iso.add_directory('/UNI', udf_path='/Ünïcødé ж')
iso.add_directory('/EMPTY', udf_path='/empty')
files = [
    ('README.TXT', '/README.TXT;1', '/readme.txt'),
    ('DOCS/deeper/NUMBERS.TXT', '/DOCS/NUMBERS.TXT;1', '/Docs/numbers.txt'),
    ('DOCS/deeper/deepest/LEAF.TXT', '/DOCS/DEEPER/LEAF.TXT;1', '/Docs/Deeper Still/leaf.txt'),
    ('DATA/BIG.BIN', '/BIG.BIN;1', '/big.bin'),
    ('DOCS/EMPTY.TXT', '/UNI/EMPTY.TXT;1', '/Ünïcødé ж/Fé Θ 日本.txt'),
]
keep = []
for src, iso_path, udf_path in files:
    data = open(os.path.join(tree, src), 'rb').read()
    fp = io.BytesIO(data)
    keep.append(fp)
    iso.add_fp(fp, len(data), iso_path, udf_path=udf_path)
iso.write(out)
iso.close()
PY

mk() {  # name media revision [extra mkudffs options]
  local name="$1" media="$2" rev="$3"
  shift 3
  rm -f "$OUT/$name"
  truncate -s 8M "$OUT/$name"
  mkudffs --media-type="$media" --udfrev="$rev" --blocksize=2048 --label="Fé Θ $rev" --vid="VID $rev" "$@" \
    "$OUT/$name" >/dev/null
}
mk udf-mkudffs-102-hd.img hd 1.02
mk udf-mkudffs-201-hd.img hd 2.01
mk udf-mkudffs-201-hd-noefe.img hd 2.01 --noefe
mk udf-mkudffs-201-cdrw.img cdrw 2.01
mk udf-mkudffs-250-bdr.img bdr 2.50
