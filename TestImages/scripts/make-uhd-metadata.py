#!/usr/bin/env python3
"""UHD Blu-ray signalling added to ffmpeg-made HEVC elementary streams, for DiscKit's tests.

  make-uhd-metadata.py rpu IN.hevc OUT.hevc
      Appends a Dolby Vision RPU (NAL unit type 62, UNSPEC62) to every access unit of IN: a
      dual-layer RPU (vdr_rpu_profile 1, BL and EL 10-bit, VDR 12-bit, a linear polynomial
      mapping, one DM metadata block with an L1 extension block), built
      from the RPU syntax as libavcodec's dovi_rpudec.c reads it, with its CRC-32. The RPU has
      no NLQ section (disable_residual_flag 1): Debian 12's ffmpeg 5.1 reads that section
      without its two pivot values (fixed in later ffmpeg), so only an RPU without one parses
      the same in both; the profile (7) is the PMT's DOVI descriptor's.
  make-uhd-metadata.py rpu-nal mel|fel OUT.bin
      Writes one RPU NAL unit (header first, no start code) of the kind above but with an NLQ
      section (disable_residual_flag 0, linear dead zone, NLQ pivots 0 and 1023): a minimal
      enhancement layer's (offsets and slopes zero, vdr_in_max_int 1) or a full one's. Debian
      12's ffmpeg 5.1 misreads that section, so these are for a converter whose output has none
      (Dolby Vision profile 8.1, DiscKit's fMP4 HLS).
  make-uhd-metadata.py hdr10plus IN.hevc OUT.hevc
      Puts an HDR10+ prefix SEI message (user_data_registered_itu_t_t35, SMPTE ST 2094-40
      application 4 version 1, one window) before the first slice of every access unit.
  make-uhd-metadata.py pmt IN.m2ts OUT.m2ts EL_PID BL_PID
      Rewrites the PMT of a transport stream (188- or 192-byte packets): the stream on EL_PID becomes stream_type 0x06
      (PES private data, as on UHD Blu-ray) with a DOVI video descriptor (tag 0xB0: version
      1.0, profile 7, level 6, rpu and el present, bl absent, dependency_pid BL_PID,
      compatibility id 6), and the section CRC is recomputed.

Everything is a hand-derived fact of the published syntax; ffprobe (Dolby Vision RPU / HDR10+
side data, DOVI configuration record) is the oracle that the result is valid.
"""
import sys

from mpeg_crc import crc32_mpeg


class Bits:
    def __init__(self):
        self.bits = []

    def u(self, n, v):
        for i in reversed(range(n)):
            self.bits.append((v >> i) & 1)

    def ue(self, v):
        v += 1
        n = v.bit_length()
        self.u(n - 1, 0)
        self.u(n, v)

    def se(self, v):
        self.ue(2 * v - 1 if v > 0 else -2 * v)

    def align(self):
        while len(self.bits) % 8:
            self.bits.append(0)

    def bytes(self):
        assert len(self.bits) % 8 == 0
        return bytes(
            int("".join(map(str, self.bits[i:i + 8])), 2) for i in range(0, len(self.bits), 8))


def escape(rbsp):
    """Emulation prevention: 00 00 0x (x <= 3) becomes 00 00 03 0x."""
    out = bytearray()
    zeros = 0
    for b in rbsp:
        if zeros >= 2 and b <= 3:
            out.append(3)
            zeros = 0
        out.append(b)
        zeros = zeros + 1 if b == 0 else 0
    return bytes(out)


def rpu_nal(frame, residual=None):
    w = Bits()
    denom = 23
    w.u(6, 2)          # rpu_type
    w.u(11, 18)        # rpu_format (bits 0x700 zero: bit depths follow)
    w.u(4, 1)          # vdr_rpu_profile
    w.u(4, 0)          # vdr_rpu_level
    w.u(1, 1)          # vdr_seq_info_present_flag
    w.u(1, 0)          # chroma_resampling_explicit_filter_flag
    w.u(2, 0)          # coefficient_data_type: fixed point
    w.ue(denom)        # coefficient_log2_denom
    w.u(2, 1)          # vdr_rpu_normalized_idc
    w.u(1, 0)          # BL_video_full_range_flag
    w.ue(2)            # BL_bit_depth_minus8
    w.ue(2)            # EL_bit_depth_minus8
    w.ue(4)            # vdr_bit_depth_minus8
    w.u(1, 0)          # spatial_resampling_filter_flag
    w.u(3, 0)          # reserved_zero_3bits
    w.u(1, 1)          # el_spatial_resampling_filter_flag
    w.u(1, 0 if residual else 1)   # disable_residual_flag
    w.u(1, 1)          # vdr_dm_metadata_present_flag
    w.u(1, 0)          # use_prev_vdr_rpu_flag
    w.ue(0)            # vdr_rpu_id
    w.ue(0)            # mapping_color_space
    w.ue(0)            # mapping_chroma_format_idc
    for _ in range(3):
        w.ue(0)        # num_pivots_minus2
        w.u(10, 64)    # pred_pivot_value[0]
        w.u(10, 876)   # pred_pivot_value[1] (delta)
    if residual:
        w.u(3, 0)      # nlq_method_idc: linear dead zone
        w.u(10, 0)     # nlq_pred_pivot_value[0]
        w.u(10, 1023)  # nlq_pred_pivot_value[1]
    w.ue(0)            # num_x_partitions_minus1
    w.ue(0)            # num_y_partitions_minus1
    for _ in range(3):
        w.ue(0)        # mapping_idc: polynomial
        w.ue(0)        # poly_order_minus1
        w.u(1, 0)      # linear_interp_flag
        w.se(0)        # poly_coef_int[0]
        w.u(denom, 1 << 10)
        w.se(1)        # poly_coef_int[1]
        w.u(denom, 1 << 11)
    for _ in range(3 if residual else 0):
        full = residual == "fel"
        w.u(10, 64 if full else 0)           # nlq_offset
        w.ue(1)                              # vdr_in_max_int
        w.u(denom, 1 << 20 if full else 0)   # vdr_in_max
        w.ue(0)                              # linear_deadzone_slope_int
        w.u(denom, 1 << 22 if full else 0)   # linear_deadzone_slope
        w.ue(0)                              # linear_deadzone_threshold_int
        w.u(denom, 1 << 18 if full else 0)   # linear_deadzone_threshold
    w.ue(0)            # affected_dm_metadata_id
    w.ue(0)            # current_dm_metadata_id
    w.ue(0)            # scene_refresh_flag
    for v in (8192, 799, 1681, 8192, -933, 1091, 8192, 9730, -13, ):
        w.u(16, v & 0xFFFF)   # ycc_to_rgb_coef
    for v in (16777216, 134217728, 134217728):
        w.u(32, v)     # ycc_to_rgb_offset
    for v in (7222, 8771, 390, 2654, 12430, 1300, 0x1111, 1252, 14967):
        w.u(16, v & 0xFFFF)   # rgb_to_lms_coef
    w.u(16, 65535)     # signal_eotf
    w.u(16, 1)         # signal_eotf_param0
    w.u(16, 2)         # signal_eotf_param1
    w.u(32, 3)         # signal_eotf_param2
    w.u(5, 12)         # signal_bit_depth
    w.u(2, 0)          # signal_color_space
    w.u(2, 0)          # signal_chroma_format
    w.u(2, 1)          # signal_full_range_flag
    w.u(12, 62)        # source_min_PQ
    w.u(12, 3696)      # source_max_PQ
    w.u(10, 42)        # source_diagonal
    w.ue(1)            # num_ext_blocks
    w.align()          # dm_alignment_zero_bit
    w.ue(5)            # ext_block_length
    w.u(8, 1)          # ext_block_level: L1
    w.u(12, 100 + frame % 50)   # min_PQ
    w.u(12, 3000 + frame % 50)  # max_PQ
    w.u(12, 1500 + frame % 50)  # avg_PQ
    w.u(4, 0)          # ext_dm_alignment_zero_bit (40 - 36 bits)
    w.align()
    body = w.bytes()
    body += crc32_mpeg(body).to_bytes(4, "big") + b"\x80"
    return b"\x7c\x01" + escape(b"\x19" + body)


def hdr10plus_sei(frame):
    w = Bits()
    w.u(8, 0xB5)       # itu_t_t35_country_code: United States
    w.u(16, 0x003C)    # itu_t_t35_terminal_provider_code
    w.u(16, 0x0001)    # itu_t_t35_terminal_provider_oriented_code
    w.u(8, 4)          # application_identifier
    w.u(8, 1)          # application_version
    w.u(2, 1)          # num_windows
    w.u(27, 400)       # targeted_system_display_maximum_luminance
    w.u(1, 0)          # targeted_system_display_actual_peak_luminance_flag
    for v in (40000, 50000 + frame, 30000):
        w.u(17, v)     # maxscl
    w.u(17, 12000 + frame)      # average_maxrgb
    percentiles = [(1, 100), (5, 800), (10, 2000), (25, 6000), (50, 12000), (75, 20000),
                   (90, 30000), (95, 38000), (99, 45000)]
    w.u(4, len(percentiles))    # num_distribution_maxrgb_percentiles
    for pct, value in percentiles:
        w.u(7, pct)
        w.u(17, value)
    w.u(10, 3)         # fraction_bright_pixels
    w.u(1, 0)          # mastering_display_actual_peak_luminance_flag
    w.u(1, 1)          # tone_mapping_flag
    w.u(12, 2048)      # knee_point_x
    w.u(12, 2048)      # knee_point_y
    w.u(4, 3)          # num_bezier_curve_anchors
    for v in (256, 512, 768):
        w.u(10, v)
    w.u(1, 0)          # color_saturation_mapping_flag
    w.align()
    payload = w.bytes()
    sei = bytes([4, len(payload)]) + payload + b"\x80"
    return b"\x4e\x01" + escape(sei)


def nal_units(data):
    starts = []
    i = 0
    while True:
        i = data.find(b"\x00\x00\x01", i)
        if i < 0:
            break
        starts.append(i + 3)
        i += 3
    units = []
    for k, s in enumerate(starts):
        e = starts[k + 1] - 3 if k + 1 < len(starts) else len(data)
        while e > s and data[e - 1] == 0:
            e -= 1
        units.append(data[s:e])
    return units


def access_units(units):
    aus, current, seen_vcl = [], [], False
    for u in units:
        t = (u[0] >> 1) & 0x3F
        first_slice = t < 32 and len(u) > 2 and u[2] & 0x80
        starts_au = (32 <= t <= 35 or t == 39 or 41 <= t <= 44 or 48 <= t <= 55 or first_slice)
        if seen_vcl and starts_au:
            aus.append(current)
            current, seen_vcl = [], False
        current.append(u)
        if t < 32:
            seen_vcl = True
    if current:
        aus.append(current)
    return aus


def write_units(path, aus):
    with open(path, "wb") as f:
        for au in aus:
            for u in au:
                f.write(b"\x00\x00\x00\x01" + u)


def patch_pmt(src, dst, el_pid, bl_pid):
    data = bytearray(open(src, "rb").read())
    pmt_pid = None
    # version 1.0; profile 7 (7 bits), level 6 (6 bits), rpu 1, el 1, bl 0; dependency_pid
    # (13 bits) and 3 reserved bits; dv_bl_signal_compatibility_id 6 and 4 reserved bits.
    flags = 7 << 9 | 6 << 3 | 0b110
    body = bytes([1, 0, flags >> 8, flags & 0xFF, (bl_pid << 3 | 7) >> 8, (bl_pid << 3 | 7) & 0xFF,
                  0x6F])
    descriptor = bytes([0xB0, len(body)]) + body
    size = 188 if data[0] == 0x47 and data[188] == 0x47 else 192
    for off in range(0, len(data) - size + 1, size):
        p = off + size - 188
        if data[p] != 0x47:
            continue
        pid = (data[p + 1] & 0x1F) << 8 | data[p + 2]
        pusi = data[p + 1] & 0x40
        if pid == 0 and pusi and pmt_pid is None:
            s = p + 5 + data[p + 4]
            pmt_pid = (data[s + 10] & 0x1F) << 8 | data[s + 11]
        if pmt_pid is None or pid != pmt_pid or not pusi or data[p + 3] & 0x20:
            continue
        s = p + 5 + data[p + 4]
        length = (data[s + 1] & 0x0F) << 8 | data[s + 2]
        section = bytes(data[s:s + 3 + length - 4])
        info_len = (section[10] & 0x0F) << 8 | section[11]
        out = bytearray(section[:12 + info_len])
        i = 12 + info_len
        while i < len(section):
            stype = section[i]
            epid = (section[i + 1] & 0x1F) << 8 | section[i + 2]
            es_len = (section[i + 3] & 0x0F) << 8 | section[i + 4]
            es = section[i + 5:i + 5 + es_len]
            if epid == el_pid:
                stype = 0x06
                es = bytes(es) + descriptor
            out += bytes([stype, section[i + 1], section[i + 2],
                          0xF0 | (len(es) >> 8), len(es) & 0xFF]) + es
            i += 5 + es_len
        new_len = len(out) - 3 + 4
        out[1] = (out[1] & 0xF0) | (new_len >> 8)
        out[2] = new_len & 0xFF
        out += crc32_mpeg(bytes(out)).to_bytes(4, "big")
        end = p + 188
        assert s + len(out) <= end, "the new PMT does not fit in one packet"
        data[s:s + len(out)] = out
        data[s + len(out):end] = b"\xff" * (end - s - len(out))
    assert pmt_pid is not None, "no PAT"
    open(dst, "wb").write(data)


def main():
    mode = sys.argv[1]
    if mode == "rpu-nal":
        open(sys.argv[3], "wb").write(rpu_nal(7, sys.argv[2]))
        return
    if mode == "pmt":
        patch_pmt(sys.argv[2], sys.argv[3], int(sys.argv[4], 0), int(sys.argv[5], 0))
        return
    aus = access_units(nal_units(open(sys.argv[2], "rb").read()))
    for n, au in enumerate(aus):
        if mode == "rpu":
            au.append(rpu_nal(n))
        elif mode == "hdr10plus":
            k = next(i for i, u in enumerate(au) if (u[0] >> 1) & 0x3F < 32)
            au.insert(k, hdr10plus_sei(n))
        else:
            sys.exit("unknown mode " + mode)
    write_units(sys.argv[3], aus)


if __name__ == "__main__":
    main()
