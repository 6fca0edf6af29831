#!/usr/bin/env python3
"""Writes the subpicture image spumux muxes into the VobSub test DVD (make-mkv.sh).

Usage: make-subpicture-png.py OUT.png

A 200x40 RGBA PNG with three opaque colours spumux maps onto the subpicture palette: a black
4-pixel border, a red block and white elsewhere (no transparent pixels inside the frame).
"""
import struct
import sys
import zlib


def pixel(x, y):
    if x < 4 or y < 4 or x >= 196 or y >= 36:
        return (0, 0, 0, 255)
    if 20 <= x < 60:
        return (255, 0, 0, 255)
    return (255, 255, 255, 255)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def main():
    width, height = 200, 40
    raw = b"".join(
        b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    with open(sys.argv[1], "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
                + chunk(b"IEND", b""))


if __name__ == "__main__":
    main()
