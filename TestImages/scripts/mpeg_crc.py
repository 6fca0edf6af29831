"""The CRC-32 of MPEG-2 systems sections (ISO/IEC 13818-1 annex A: polynomial 0x04C11DB7, initial
value 0xFFFFFFFF, no reflection, no final XOR), shared by the scripts that rewrite a PMT
(make-truehd-core.py, make-uhd-metadata.py) and by the Dolby Vision RPU (the same CRC)."""


def crc32_mpeg(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b << 24
        for _ in range(8):
            crc = (crc << 1) ^ 0x04C11DB7 if crc & 0x80000000 else crc << 1
            crc &= 0xFFFFFFFF
    return crc
