import DiscKitStreaming
import DiscKitTestSupport
import Testing

/// E-AC-3 with Dolby Atmos (JOC): the syncframe's additional bitstream information gives
/// `complexity_index_type_a`, which the `dec3` box repeats and HLS names as `CHANNELS="16/JOC"`.
/// No authored or corpus disc has an Atmos E-AC-3 stream (no free encoder writes JOC), so the
/// oracle is the bit syntax itself: syncframe headers written field by field by the test's own
/// writer from ETSI TS 102 366 E.1.2.2 (`bsi()`) and TS 103 420 (the `addbsi` byte), with the
/// optional mixing and informational metadata present so that every skipped field counts.
@Suite("E-AC-3 Atmos signalling", .toolThreads)
struct DolbyAtmosSignallingTests {
  /// A field writer (most significant bit first).
  struct Bits {
    var bytes: [UInt8] = []
    var used = 0
    mutating func put(_ value: Int, _ count: Int) {
      for k in stride(from: count - 1, through: 0, by: -1) {
        if used % 8 == 0 { bytes.append(0) }
        if (value >> k) & 1 != 0 { bytes[bytes.count - 1] |= 0x80 >> UInt8(used % 8) }
        used += 1
      }
    }
  }

  /// An independent E-AC-3 syncframe of 3/2 + LFE, 6 blocks, 768 bytes: its `bsi()` with mixing
  /// metadata and informational metadata, then `addbsi` as given (nil: `addbsie` = 0); zeros
  /// after it.
  static func frame(addbsi: [UInt8]?, metadata: Bool = true) -> [UInt8] {
    var b = Bits()
    b.put(0x0B77, 16)
    b.put(0, 2)  // strmtyp: independent
    b.put(0, 3)  // substreamid
    b.put(383, 11)  // frmsiz: 384 words
    b.put(0, 2)  // fscod 48 kHz
    b.put(3, 2)  // numblkscod: 6 blocks
    b.put(7, 3)  // acmod 3/2
    b.put(1, 1)  // lfeon
    b.put(16, 5)  // bsid
    b.put(27, 5)  // dialnorm
    b.put(1, 1)  // compre
    b.put(0xA5, 8)  // compr
    b.put(metadata ? 1 : 0, 1)  // mixmdate
    if metadata {
      b.put(2, 2)  // dmixmod
      b.put(4, 3)  // ltrtcmixlev
      b.put(4, 3)  // lorocmixlev
      b.put(4, 3)  // ltrtsurmixlev
      b.put(4, 3)  // lorosurmixlev
      b.put(1, 1)  // lfemixlevcode
      b.put(10, 5)  // lfemixlevcod
      b.put(1, 1)  // pgmscle
      b.put(33, 6)  // pgmscl
      b.put(0, 1)  // extpgmscle
      b.put(2, 2)  // mixdef
      b.put(0xABC, 12)  // mixdata
      b.put(1, 1)  // frmmixcfginfoe
      for block in 0..<6 {
        b.put(block % 2, 1)  // blkmixcfginfoe
        if block % 2 == 1 { b.put(21, 5) }  // blkmixcfginfo
      }
    }
    b.put(metadata ? 1 : 0, 1)  // infomdate
    if metadata {
      b.put(3, 3)  // bsmod
      b.put(1, 1)  // copyrightb
      b.put(0, 1)  // origbs
      b.put(2, 2)  // dsurexmod (acmod ≥ 6)
      b.put(1, 1)  // audprodie
      b.put(0xC3, 8)  // mixlevel, roomtyp, adconvtyp
      b.put(0, 1)  // sourcefscod
    }
    // numblkscod 3: no convsync; strmtyp 0: no frmsizecod.
    if let addbsi {
      b.put(1, 1)  // addbsie
      b.put(addbsi.count - 1, 6)  // addbsil
      for byte in addbsi { b.put(Int(byte), 8) }
    } else {
      b.put(0, 1)
    }
    return b.bytes + [UInt8](repeating: 0, count: 768 - b.bytes.count)
  }

  /// The `dec3` box of a sample entry.
  static func dec3(_ entry: [UInt8]) -> ArraySlice<UInt8>? {
    guard entry.count > 8 else { return nil }
    for i in 4..<(entry.count - 4)
    where entry[i] == 0x64 && entry[i + 1] == 0x65 && entry[i + 2] == 0x63 && entry[i + 3] == 0x33 {
      let size =
        Int(entry[i - 4]) << 24 | Int(entry[i - 3]) << 16 | Int(entry[i - 2]) << 8
        | Int(entry[i - 1])
      guard i - 4 + size <= entry.count else { return nil }
      return entry[(i + 4)..<(i - 4 + size)]
    }
    return nil
  }

  @Test func atmosComplexityIndexReachesDec3AndChannels() throws {
    // TS 103 420: addbsi's first byte ends with flag_ec3_extension_type_a, the next byte is
    // complexity_index_type_a.
    for metadata in [true, false] {
      let bytes = Self.frame(addbsi: [0x01, 16], metadata: metadata)
      let frame = try #require(DolbyAudioFrame(bytes[...]))
      #expect(frame.isEnhanced && frame.size == 768 && frame.channels == 6)
      #expect(frame.complexityIndex == 16, "metadata \(metadata)")
      let track = try #require(FMP4Track.dolby([frame], language: "eng"))
      #expect(track.codecs == "ec-3" && track.jocComplexity == 16)
      #expect(track.channelsText == "16/JOC")
      // dec3: data_rate/num_ind_sub (2 bytes), one substream without dependents (3 bytes), then
      // reserved 7 bits, flag_ec3_extension_type_a, complexity_index_type_a.
      let body = try #require(Self.dec3(track.sampleEntry))
      #expect(body.count == 7 && Array(body.suffix(2)) == [0x01, 16], "\(Array(body))")
    }
  }

  @Test func withoutTheFlagThereIsNoAtmos() throws {
    for addbsi: [UInt8]? in [nil, [0x00, 16], [0x01]] {
      let frame = try #require(DolbyAudioFrame(Self.frame(addbsi: addbsi)[...]))
      #expect(frame.complexityIndex == nil, "\(String(describing: addbsi))")
      let track = try #require(FMP4Track.dolby([frame], language: nil))
      #expect(track.channelsText == "6" && track.jocComplexity == nil)
      #expect(Self.dec3(track.sampleEntry)?.count == 5)
    }
  }
}
