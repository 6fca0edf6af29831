#!/usr/bin/env python3
"""Interleaves an AC-3 stream into a TrueHD PID as Blu-ray discs carry a TrueHD track with its
AC-3 core: both in PES packets on one PID (stream type 0x83), stream_id 0xFD with a PES extension
2 whose stream_id_extension is 0x72 for TrueHD access units and 0x76 for AC-3 frames (the
extended stream ids libavformat's mpegts demuxer and Blu-ray players split the PID by).

usage: make-truehd-core.py IN.m2ts TRUEHD_PID AC3_PID OUT.ts

IN is ffmpeg's M2TS (192-byte packets) with the TrueHD and the AC-3 stream on their own PIDs.
OUT is a 188-byte transport stream: every PES of both PIDs re-packetized on TRUEHD_PID, in the
order their first packets had in IN (continuity counters renumbered), the AC-3 PID removed from
the PMT (CRC recomputed); every other packet copied. `disckit author` turns it into a clip."""
import sys

from mpeg_crc import crc32_mpeg


def packets(path):
    data = open(path, "rb").read()
    size = 192 if len(data) % 192 == 0 and data[4:5] == b"\x47" else 188
    skip = size - 188
    return [data[i + skip:i + size] for i in range(0, len(data) - size + 1, size)]


def pid_of(p):
    return (p[1] & 0x1F) << 8 | p[2]


def payload(p):
    afc = (p[3] >> 4) & 3
    if not afc & 1:
        return b""
    start = 4 + (1 + p[4] if afc & 2 else 0)
    return p[start:]


def optional_fields_length(flags2):
    n = {0: 0, 1: 0, 2: 5, 3: 10}[flags2 >> 6]
    n += 6 if flags2 & 0x20 else 0  # ESCR
    n += 3 if flags2 & 0x10 else 0  # ES rate
    n += 1 if flags2 & 0x08 else 0  # DSM trick mode
    n += 1 if flags2 & 0x04 else 0  # additional copy info
    n += 2 if flags2 & 0x02 else 0  # PES CRC
    return n


def with_extension_id(pes, ext_id):
    """The PES with stream_id 0xFD and stream_id_extension `ext_id` (added, or replaced)."""
    assert pes[:3] == b"\x00\x00\x01", "not a PES start"
    flags2, header_len = pes[7], pes[8]
    fields = 9 + optional_fields_length(flags2)
    if flags2 & 0x01:
        # An extension is there (ffmpeg's M2TS AC-3: flags 0x01, 0x81 field length 1, the id).
        assert pes[fields] == 0x01 and pes[fields + 1] == 0x81, "unexpected PES extension"
        out = bytearray(pes)
        out[3] = 0xFD
        out[fields + 2] = ext_id
        return bytes(out)
    length = int.from_bytes(pes[4:6], "big")
    body = pes[:fields] + bytes([0x01, 0x81, ext_id]) + pes[fields:]
    out = bytearray(body)
    out[3] = 0xFD
    out[7] = flags2 | 0x01
    out[8] = header_len + 3
    new_length = length + 3 if length else 0
    out[4:6] = (new_length if new_length <= 0xFFFF else 0).to_bytes(2, "big")
    return bytes(out)


def packetize(pes, pid, cc):
    """TS packets carrying `pes` on `pid` (the last one stuffed by its adaptation field)."""
    out = []
    first = True
    while pes:
        chunk, pes = pes[:184], pes[184:]
        header = bytes([0x47, (0x40 if first else 0) | pid >> 8, pid & 0xFF])
        if len(chunk) == 184:
            out.append(header + bytes([0x10 | cc]) + chunk)
        else:
            stuffing = 184 - len(chunk) - 1  # adaptation_field_length byte
            af = bytes([stuffing]) + (bytes([0x00]) + b"\xff" * (stuffing - 1) if stuffing else b"")
            out.append(header + bytes([0x30 | cc]) + af + chunk)
        cc = (cc + 1) & 0x0F
        first = False
    return out, cc


def main():
    src, truehd_pid, ac3_pid, dst = sys.argv[1], int(sys.argv[2], 0), int(sys.argv[3], 0), sys.argv[4]
    pkts = packets(src)
    pmt_pid = None
    for p in pkts:
        if pid_of(p) == 0 and p[1] & 0x40:
            pl = payload(p)
            sec = pl[1 + pl[0]:]
            pmt_pid = (sec[10] & 0x1F) << 8 | sec[11]
            break
    # Each PES of both audio PIDs, keyed by the index of its first packet.
    units, current = {}, {}
    for i, p in enumerate(pkts):
        pid = pid_of(p)
        if pid not in (truehd_pid, ac3_pid):
            continue
        if p[1] & 0x40:
            current[pid] = i
            units[i] = (pid, bytearray())
        if pid in current:
            units[current[pid]][1].extend(payload(p))
    out, cc, counts = [], 0, {truehd_pid: 0, ac3_pid: 0}
    for i, p in enumerate(pkts):
        pid = pid_of(p)
        if pid in (truehd_pid, ac3_pid):
            if i in units:
                source_pid, pes = units[i]
                ext = 0x72 if source_pid == truehd_pid else 0x76
                counts[source_pid] += 1
                new, cc = packetize(with_extension_id(bytes(pes), ext), truehd_pid, cc)
                out.extend(new)
        elif pid == pmt_pid and p[1] & 0x40:
            pl = payload(p)
            pointer = pl[0]
            sec = bytearray(pl[1 + pointer:])
            length = (sec[1] & 0x0F) << 8 | sec[2]
            end = 3 + length - 4
            info_len = (sec[10] & 0x0F) << 8 | sec[11]
            pos, entries = 12 + info_len, b""
            while pos < end:
                es_pid = (sec[pos + 1] & 0x1F) << 8 | sec[pos + 2]
                es_len = (sec[pos + 3] & 0x0F) << 8 | sec[pos + 4]
                entry = bytes(sec[pos:pos + 5 + es_len])
                if es_pid != ac3_pid:
                    entries += entry
                pos += 5 + es_len
            body = bytes(sec[:12 + info_len]) + entries
            new_len = len(body) - 3 + 4
            body = bytearray(body)
            body[1] = (body[1] & 0xF0) | (new_len >> 8)
            body[2] = new_len & 0xFF
            section = bytes(body) + crc32_mpeg(body).to_bytes(4, "big")
            head = p[:4]
            if (p[3] >> 4) & 2:  # keep only the payload-carrying form
                head = bytes([p[0], p[1], p[2], 0x10 | (p[3] & 0x0F)])
            packet = head + bytes([0]) + section
            out.append(packet + b"\xff" * (188 - len(packet)))
        else:
            out.append(p)
    with open(dst, "wb") as f:
        for p in out:
            assert len(p) == 188
            f.write(p)
    print(f"{dst}: {counts[truehd_pid]} TrueHD and {counts[ac3_pid]} AC-3 PES on PID 0x{truehd_pid:x}",
          file=sys.stderr)


main()
