#!/usr/bin/env python3
"""Writes a small HDMV PGS subtitle stream (.sup) for the Matroska subtitle tests.

Usage: make-pgs-sup.py OUT.sup WIDTH HEIGHT [forced]

With `forced`, every composition object has its forced_on_flag set (a forced caption).

Four display sets, each a sequence of segments with the "PG" header (PTS, DTS in 90 kHz ticks):
  1.0 s  epoch start: palette (white, yellow), a solid 96x24 rectangle object in one window
  2.0 s  clear (a composition without objects)
  3.0 s  epoch start: another palette and a run-length pattern object that uses every code form
         (single pixels, short and long runs of colour 0, short and long runs of other colours)
  4.0 s  clear
Every segment of a display set carries the display set's PTS and DTS 0, as .sup files do.
"""
import struct
import sys

from pgs_sup import END, ODS, PCS, PDS, WDS, rle_line, segment


def ycrcb(r, g, b, a):
    y = round(16 + 65.481 * r / 255 + 128.553 * g / 255 + 24.966 * b / 255)
    cb = round(128 - 37.797 * r / 255 - 74.203 * g / 255 + 112.0 * b / 255)
    cr = round(128 + 112.0 * r / 255 - 93.786 * g / 255 - 18.214 * b / 255)
    return y, cr, cb, a


def palette(pid, version, entries):
    body = struct.pack(">BB", pid, version)
    for index, (r, g, b, a) in entries:
        body += struct.pack(">BBBBB", index, *ycrcb(r, g, b, a))
    return body


def obj(oid, version, width, height, rows):
    data = b"".join(rle_line(r) for r in rows)
    length = len(data) + 4
    return struct.pack(">HBB", oid, version, 0xC0) + length.to_bytes(3, "big") + struct.pack(
        ">HH", width, height) + data


FORCED = len(sys.argv) > 4 and sys.argv[4] == "forced"


def composition(width, height, number, state, pal, objects):
    body = struct.pack(">HHBHBBBB", width, height, 0x10, number, state, 0, pal, len(objects))
    for oid, wid, x, y in objects:
        body += struct.pack(">HBBHH", oid, wid, 0x40 if FORCED else 0, x, y)
    return body


def windows(entries):
    body = struct.pack(">B", len(entries))
    for wid, x, y, w, h in entries:
        body += struct.pack(">BHHHH", wid, x, y, w, h)
    return body


def main():
    out, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    second = 90000
    sets = []
    # 1: a solid rectangle.
    t = 1 * second
    w1 = (0, 16, height - 40, 96, 24)
    sets += [
        segment(t, PCS, composition(width, height, 0, 0x80, 0, [(1, 0, 16, height - 40)])),
        segment(t, WDS, windows([w1])),
        segment(t, PDS, palette(0, 0, [(1, (255, 255, 255, 255)), (2, (255, 255, 0, 255))])),
        segment(t, ODS, obj(1, 0, 96, 24, [[1] * 96 for _ in range(24)])),
        segment(t, END, b""),
    ]
    # 2: clear.
    t = 2 * second
    sets += [
        segment(t, PCS, composition(width, height, 1, 0x00, 0, [])),
        segment(t, WDS, windows([w1])),
        segment(t, END, b""),
    ]
    # 3: a pattern with every run-length code form.
    t = 3 * second
    ow, oh = 200, 20
    rows = []
    for y in range(oh):
        if y % 4 == 0:
            row = [1 if x % 2 == 0 else 2 for x in range(ow)]          # single pixels
        elif y % 4 == 1:
            row = [0] * 70 + [3] * 70 + [0] * 10 + [1] * 50            # long runs
        elif y % 4 == 2:
            row = ([0] * 5 + [2] * 5 + [3] * 10) * 10                  # short runs
        else:
            row = [0] * ow                                             # one long run of 0
        rows.append(row)
    w3 = (0, 60, 20, ow, oh)
    sets += [
        segment(t, PCS, composition(width, height, 2, 0x80, 0, [(1, 0, 60, 20)])),
        segment(t, WDS, windows([w3])),
        segment(t, PDS, palette(0, 0, [
            (1, (255, 255, 255, 255)), (2, (255, 0, 0, 192)), (3, (0, 0, 255, 128))])),
        segment(t, ODS, obj(1, 0, ow, oh, rows)),
        segment(t, END, b""),
    ]
    # 4: clear.
    t = 4 * second
    sets += [
        segment(t, PCS, composition(width, height, 3, 0x00, 0, [])),
        segment(t, WDS, windows([w3])),
        segment(t, END, b""),
    ]
    with open(out, "wb") as f:
        f.write(b"".join(sets))


if __name__ == "__main__":
    main()
