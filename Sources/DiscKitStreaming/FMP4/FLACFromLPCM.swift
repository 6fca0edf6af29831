/// Blu-ray LPCM (HDMV stream type 0x80) rewritten as FLAC frames for an fMP4 rendition (`fLaC` +
/// `dfLa`, ISO/IEC 14496-12 as the FLAC-in-ISOBMFF encapsulation specifies): lossless, in pure
/// Swift, without a codec library, because LPCM needs no decoding: each PES's samples (big-endian,
/// 16 or 24-bit containers) become one FLAC frame of VERBATIM subframes (RFC 9639 §9.2.4), with
/// the frame's first sample number (variable block size) taken from the PES's PTS, so any segment
/// is made alone. The bit rate is the LPCM's; the browser decodes FLAC (not LPCM) in MP4.
package enum FLACFromLPCM {
  /// The stream's format, from the 4-byte LPCM header of a PES payload (BD-ROM part 3 table
  /// 5-20: `audio_data_payload_size`, `channel_assignment`, `sampling_frequency`,
  /// `bits_per_sample`).
  package struct Format: Sendable, Hashable {
    /// Channels coded (an even count: 3, 5 and 7 channels carry one padding channel).
    package var codedChannels: Int
    /// Channels played.
    package var channels: Int
    package var sampleRate: Int
    /// 16, 20 or 24.
    package var bitsPerSample: Int

    package init?(header b: ArraySlice<UInt8>) {
      guard b.count >= 4 else { return nil }
      let s = b.startIndex
      let assignment = Int(b[s + 2] >> 4)
      let frequency = Int(b[s + 2] & 0x0F)
      let bits = Int(b[s + 3] >> 6)
      let counts = [1: 1, 3: 2, 4: 3, 5: 3, 6: 4, 7: 4, 8: 5, 9: 6, 10: 7, 11: 8]
      guard let count = counts[assignment],
        let rate = [1: 48_000, 4: 96_000, 5: 192_000][frequency],
        let depth = [1: 16, 2: 20, 3: 24][bits]
      else { return nil }
      channels = count
      codedChannels = count + (count & 1 == 1 && count > 1 ? 1 : 0)
      sampleRate = rate
      bitsPerSample = depth
    }

    /// Bytes per coded sample of one channel.
    var containerBytes: Int { bitsPerSample == 16 ? 2 : 3 }
    /// FLAC's bits per sample: the container's (a 20-bit stream's samples keep their 4 low zeros).
    var flacBits: Int { containerBytes * 8 }
  }

  /// The `fLaC` sample entry with its `dfLa` (one STREAMINFO block).
  package static func track(_ format: Format, language: String?) -> FMP4Track {
    var dfLa = MP4BoxWriter()
    dfLa.fullBox("dfLa") { w in
      w.u8(0x80)  // last-metadata-block, STREAMINFO
      w.u24(34)
      var bits = BitPacker()
      bits.put(16, 16)  // minimum block size
      bits.put(65535, 16)  // maximum block size
      bits.put(0, 24)
      bits.put(0, 24)
      bits.put(format.sampleRate, 20)
      bits.put(format.channels - 1, 3)
      bits.put(format.flacBits - 1, 5)
      bits.put(0, 36)  // total samples unknown
      w.append(bits.bytes)
      w.zeros(16)  // MD5 unknown
    }
    var entry = MP4BoxWriter()
    entry.box("fLaC") { w in
      w.zeros(6)
      w.u16(1)
      w.zeros(8)
      w.u16(UInt16(format.channels))
      w.u16(UInt16(format.flacBits))
      w.u32(0)
      // The 16.16 rate field holds rates up to 65535; FLAC's own STREAMINFO has the real one.
      w.u32(UInt32(format.sampleRate <= 65535 ? format.sampleRate : 0) << 16)
      w.append(dfLa.bytes)
    }
    var track = FMP4Track(coding: .flac, sampleEntry: entry.bytes, codecs: "fLaC")
    track.channels = format.channels
    track.sampleRate = format.sampleRate
    if let language, language.count == 3, language.allSatisfy({ $0 >= "a" && $0 <= "z" }) {
      track.language = language
    }
    return track
  }

  /// One FLAC frame of the samples in `payload` (the PES payload after its 4-byte header),
  /// numbered `firstSample`; nil when the payload holds no whole sample.
  package static func frame(_ payload: ArraySlice<UInt8>, format: Format, firstSample: UInt64)
    -> (bytes: [UInt8], samples: Int)?
  {
    let stride = format.codedChannels * format.containerBytes
    let count = min(payload.count / stride, 65536)
    guard count > 0 else { return nil }
    var w: [UInt8] = [0xFF, 0xF9]  // sync, variable block size
    // Block size: 16-bit (n - 1) after the header; the sample rate coded in the header too (a
    // decoder given no STREAMINFO, such as GStreamer's flacdec after qtdemux, needs it).
    let rateCode: UInt8 = [48_000: 0b1010, 96_000: 0b1011][format.sampleRate] ?? 0b1100
    w.append(0x70 | rateCode)
    let sizeCode: UInt8 = format.flacBits == 16 ? 0b100 : 0b110
    w.append(UInt8(format.channels - 1) << 4 | sizeCode << 1)
    w.append(contentsOf: utf8Number(firstSample))
    w.append(UInt8((count - 1) >> 8))
    w.append(UInt8(truncatingIfNeeded: count - 1))
    if rateCode == 0b1100 { w.append(UInt8(clamping: format.sampleRate / 1000)) }
    w.append(crc8(w[...]))
    // Channels in coded order (the padding channel of an odd count left out).
    let bytes = format.containerBytes
    var bits = BitPacker()
    bits.bytes.reserveCapacity(count * format.channels * bytes + format.channels)
    let base = payload.startIndex
    for channel in 0..<format.channels {
      bits.put(0x02, 8)  // VERBATIM subframe, no wasted bits
      for k in 0..<count {
        let at = base + k * stride + channel * bytes
        if bytes == 2 {
          bits.appendByteAligned(payload[at], payload[at + 1])
        } else {
          bits.appendByteAligned(payload[at], payload[at + 1], payload[at + 2])
        }
      }
    }
    w.append(contentsOf: bits.bytes)
    let crc = crc16(w[...])
    w.append(UInt8(crc >> 8))
    w.append(UInt8(truncatingIfNeeded: crc))
    return (w, count)
  }

  /// Silent FLAC frames for the samples `first..<end` (variable block size, numbered by their
  /// first samples, at most 4,096 samples each): a frame header as ``frame(_:format:firstSample:)``
  /// writes it and one CONSTANT subframe of value 0 per channel (RFC 9639 §9.2.2), a handful of
  /// bytes for thousands of samples: the fill of a FLAC rendition where the disc's stream has no
  /// audio. `bits` is the stream's bits per sample (8, 12, 16, 20, 24 or 32).
  package static func silentFrames(
    channels: Int, bits: Int, sampleRate: Int, from first: UInt64, to end: UInt64
  ) -> [(bytes: [UInt8], first: UInt64, samples: Int)] {
    guard (1...8).contains(channels),
      let sizeCode = [8: 1, 12: 2, 16: 4, 20: 5, 24: 6, 32: 7][bits]
    else { return [] }
    var frames: [(bytes: [UInt8], first: UInt64, samples: Int)] = []
    var at = first
    while at < end {
      let count = Int(min(4096, end - at))
      var w: [UInt8] = [0xFF, 0xF9]
      let rateCode: UInt8 = [48_000: 0b1010, 96_000: 0b1011][sampleRate] ?? 0b1100
      w.append(0x70 | rateCode)
      w.append(UInt8(channels - 1) << 4 | UInt8(sizeCode) << 1)
      w.append(contentsOf: utf8Number(at))
      w.append(UInt8((count - 1) >> 8))
      w.append(UInt8(truncatingIfNeeded: count - 1))
      if rateCode == 0b1100 { w.append(UInt8(clamping: sampleRate / 1000)) }
      w.append(crc8(w[...]))
      var subframes = BitPacker()
      for _ in 0..<channels {
        subframes.put(0, 8)  // CONSTANT subframe, no wasted bits
        subframes.put(0, bits)  // its value
      }
      w.append(contentsOf: subframes.bytes)
      let crc = crc16(w[...])
      w.append(UInt8(crc >> 8))
      w.append(UInt8(truncatingIfNeeded: crc))
      frames.append((w, at, count))
      at += UInt64(count)
    }
    return frames
  }

  /// The number in a FLAC frame header (RFC 9639 §9.1.5: the first sample's with the
  /// variable-block-size strategy, the frame's with the fixed one), nil when it is not one.
  package static func frameNumber(_ frame: [UInt8]) -> UInt64? {
    guard frame.count > 5, frame[0] == 0xFF, frame[1] & 0xFE == 0xF8 else { return nil }
    let lead = frame[4]
    guard lead & 0x80 != 0 else { return UInt64(lead) }
    var length = 0
    var bit: UInt8 = 0x80
    while lead & bit != 0, length < 8 {
      length += 1
      bit >>= 1
    }
    guard (2...7).contains(length), frame.count > 4 + length else { return nil }
    var value = UInt64(lead) & ((UInt64(1) << UInt64(7 - length)) - 1)
    for k in 5..<(4 + length) {
      guard frame[k] & 0xC0 == 0x80 else { return nil }
      value = value << 6 | UInt64(frame[k] & 0x3F)
    }
    return value
  }

  /// FLAC's "UTF-8" coding of a frame or sample number (up to 36 bits).
  package static func utf8Number(_ value: UInt64) -> [UInt8] {
    if value < 0x80 { return [UInt8(value)] }
    var length = 2
    while length < 7, value >= 1 << (5 * length + 1) { length += 1 }
    var out = [UInt8](repeating: 0, count: length)
    var v = value
    for i in stride(from: length - 1, to: 0, by: -1) {
      out[i] = 0x80 | UInt8(v & 0x3F)
      v >>= 6
    }
    let lead: UInt8 = length == 7 ? 0xFE : UInt8(truncatingIfNeeded: 0xFF00 >> length)
    out[0] = lead | UInt8(v)
    return out
  }

  package static func crc8(_ bytes: ArraySlice<UInt8>) -> UInt8 {
    var crc: UInt8 = 0
    for byte in bytes {
      crc ^= byte
      for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x07 : crc << 1 }
    }
    return crc
  }

  package static func crc16(_ bytes: ArraySlice<UInt8>) -> UInt16 {
    var crc: UInt16 = 0
    for byte in bytes {
      crc ^= UInt16(byte) << 8
      for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x8005 : crc << 1 }
    }
    return crc
  }
}

extension BitPacker {
  /// Appends whole bytes when the packer is at a byte boundary (VERBATIM subframes of 16- or
  /// 24-bit samples after an 8-bit subframe header always are), bit by bit otherwise.
  mutating func appendByteAligned(_ values: UInt8...) {
    if used % 8 == 0 {
      bytes.append(contentsOf: values)
      used += 8 * values.count
    } else {
      for value in values { put(Int(value), 8) }
    }
  }
}
