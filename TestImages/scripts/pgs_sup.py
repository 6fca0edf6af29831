"""What the PGS generators share (make-pgs-sup.py, make-subtitle-text.py): the segment types, a
`.sup` record (`PG`, PTS, DTS 0, one segment) and the HDMV PGS run-length code of a line
(written from the format's description, never from DiscKit's decoder)."""
import struct

PDS, ODS, PCS, WDS, END = 0x14, 0x15, 0x16, 0x17, 0x80


def segment(pts, kind, payload):
    return b"PG" + struct.pack(">IIBH", pts, 0, kind, len(payload)) + payload


def rle_line(pixels):
    """Run-length codes of one line (HDMV PGS object encoding) and the end-of-line code."""
    out = bytearray()
    i = 0
    while i < len(pixels):
        colour = pixels[i]
        run = 1
        while i + run < len(pixels) and pixels[i + run] == colour and run < 16383:
            run += 1
        if colour != 0 and run < 3:
            out += bytes([colour]) * run
        elif colour == 0 and run < 64:
            out += bytes([0, run])
        elif colour == 0:
            out += bytes([0, 0x40 | (run >> 8), run & 0xFF])
        elif run < 64:
            out += bytes([0, 0x80 | run, colour])
        else:
            out += bytes([0, 0xC0 | (run >> 8), run & 0xFF, colour])
        i += run
    return bytes(out) + b"\x00\x00"
