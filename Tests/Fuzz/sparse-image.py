#!/usr/bin/env python3
"""Converts a disc image to the fuzzers' sparse image encoding and back.

  sparse-image.py encode IMAGE OUT [--max-bytes N] [--stream-sectors K]
  sparse-image.py decode SPARSE OUT

The encoding (read by Tests/Fuzz/Sources/disckit-fuzz/SparseImage.swift):
  u32 LE image size in 2048-byte sectors, then records until the input ends:
  u32 LE sector number, u16 LE n (<= 2048), n bytes (the sector's start; the rest is zero).

`encode` keeps the image's metadata sectors and drops file data: zero sectors are never kept
(trailing zeros of a kept sector are cut); sectors that look like metadata come first (UDF
descriptor tags with a valid checksum, ISO 9660 volume descriptors and directory records,
Blu-ray and DVD navigation files), then the first K sectors of each run of MPEG stream sectors
(transport or program stream: enough for the headers a reader looks at), then other non-zero
sectors in address order while the output stays under --max-bytes.
"""
import struct
import sys

SECTOR = 2048


def udf_tag(s):
    ident = s[0] | s[1] << 8
    if not (1 <= ident <= 9 or 256 <= ident <= 266):
        return False
    return (sum(s[0:4]) + sum(s[5:16])) & 0xFF == s[4] and s[2:4] in (b"\x02\x00", b"\x03\x00")


def iso_descriptor(s):
    return s[1:6] in (b"CD001", b"BEA01", b"NSR02", b"NSR03", b"TEA01")


def iso_directory(s):
    length = s[0]
    if length < 34:
        return False
    return s[2:6] == s[6:10][::-1] and s[10:14] == s[14:18][::-1] and s[32] >= 1


NAV = (b"INDX", b"MOBJ", b"MPLS", b"HDMV", b"DVDVIDEO")


def navigation(s):
    return any(s.startswith(m) for m in NAV)


def stream(s):
    if s[:4] == b"\x00\x00\x01\xba":
        return True
    for stride in (188, 192):
        for o in range(stride):
            if all(s[o + k * stride] == 0x47 for k in range(4) if o + k * stride < SECTOR):
                if o + 3 * stride < SECTOR:
                    return True
                break
    return False


def encode(image, out, max_bytes, stream_sectors):
    data = open(image, "rb").read()
    count = len(data) // SECTOR
    first, streams, rest = [], [], []
    run = 0
    for n in range(count):
        s = data[n * SECTOR:(n + 1) * SECTOR]
        if not any(s):
            run = 0
            continue
        if udf_tag(s) or iso_descriptor(s) or iso_directory(s) or navigation(s):
            first.append(n)
            run = 0
        elif stream(s):
            run += 1
            if run <= stream_sectors:
                streams.append(n)
        else:
            run = 0
            rest.append(n)
    kept, size = [], 4
    for n in first + streams + rest:
        s = data[n * SECTOR:(n + 1) * SECTOR].rstrip(b"\x00")
        if size + 6 + len(s) > max_bytes:
            if n in rest:
                break
            continue
        kept.append((n, s))
        size += 6 + len(s)
    kept.sort()
    with open(out, "wb") as f:
        f.write(struct.pack("<I", count))
        for n, s in kept:
            f.write(struct.pack("<IH", n, len(s)))
            f.write(s)
    print(f"{image}: {count} sectors, kept {len(kept)} ({len(first)} metadata, "
          f"{len(streams)} stream heads), {size} bytes", file=sys.stderr)


def decode(sparse, out):
    data = open(sparse, "rb").read()
    if len(data) < 4:
        open(out, "wb").close()
        return
    count = min(struct.unpack_from("<I", data)[0], 1 << 22)
    image = bytearray(count * SECTOR)
    at = 4
    while at + 6 <= len(data):
        n, given = struct.unpack_from("<IH", data, at)
        given = min(given, SECTOR)
        chunk = data[at + 6:at + 6 + given]
        if n < count:
            image[n * SECTOR:(n + 1) * SECTOR] = chunk + bytes(SECTOR - len(chunk))
        at += 6 + given
    open(out, "wb").write(image)


def main(argv):
    if len(argv) >= 3 and argv[0] == "encode":
        max_bytes, stream_sectors = 262144, 2
        options = argv[3:]
        while options:
            if options[0] == "--max-bytes":
                max_bytes = int(options[1])
            elif options[0] == "--stream-sectors":
                stream_sectors = int(options[1])
            else:
                sys.exit(f"sparse-image.py: unknown option {options[0]}")
            options = options[2:]
        encode(argv[1], argv[2], max_bytes, stream_sectors)
    elif len(argv) == 3 and argv[0] == "decode":
        decode(argv[1], argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
