/// Writes the two kinds of file of a fragmented MP4 (CMAF) rendition with one track (track id
/// 1): the initialization segment (`ftyp`, `moov` with an empty sample table and `mvex`/`trex`)
/// and media segments (`moof` with `mfhd`, `traf`/`tfhd`/`tfdt`/`trun`, then `mdat`).
package enum FMP4Writer {
  /// One sample of a media segment.
  package struct Sample: Sendable, Hashable {
    /// Bytes in the segment's `mdat`.
    package var size: UInt32
    /// Ticks of the track's timescale until the next sample's decode time.
    package var duration: UInt32
    /// Presentation time minus decode time.
    package var compositionOffset: Int32
    /// A random access point (IDR / IRAP, a segment's first picture, or any audio frame).
    package var isSync: Bool
    /// `is_leading` of the sample's flags (ISO/IEC 14496-12 8.8.3.1): 0 unknown or not said,
    /// 1 a leading picture of the random access point before it that depends on pictures before
    /// that point (not decodable when decoding starts there: an HEVC RASL picture), 2 not
    /// leading, 3 a leading picture decodable from that point (RADL).
    package var leading: UInt8
    package init(
      size: UInt32, duration: UInt32, compositionOffset: Int32, isSync: Bool, leading: UInt8 = 0
    ) {
      self.size = size
      self.duration = duration
      self.compositionOffset = compositionOffset
      self.isSync = isSync
      self.leading = leading
    }
  }

  /// The initialization segment of `track`.
  package static func initSegment(_ track: FMP4Track) -> [UInt8] {
    var w = MP4BoxWriter(capacity: 1024 + track.sampleEntry.count)
    w.box("ftyp") { w in
      w.fourCC("iso6")
      w.u32(0)
      for brand in ["iso6", "cmfc", "mp41"] { w.fourCC(brand) }
      if track.coding == .ac3 || track.coding == .eac3 { w.fourCC("dby1") }
    }
    w.box("moov") { w in
      w.fullBox("mvhd") { w in
        w.u32(0)
        w.u32(0)
        w.u32(track.timescale)
        w.u32(0)  // duration: fragments carry it
        w.u32(0x0001_0000)  // rate 1.0
        w.u16(0x0100)  // volume 1.0
        w.zeros(10)
        matrix(&w)
        w.zeros(24)
        w.u32(2)  // next_track_ID
      }
      w.box("trak") { w in
        w.fullBox("tkhd", flags: 3) { w in
          w.u32(0)
          w.u32(0)
          w.u32(1)  // track_ID
          w.u32(0)
          w.u32(0)  // duration
          w.zeros(8)
          w.u16(0)  // layer
          w.u16(0)  // alternate_group
          w.u16(track.coding.isVideo ? 0 : 0x0100)
          w.u16(0)
          matrix(&w)
          w.u32(UInt32(track.width) << 16)
          w.u32(UInt32(track.height) << 16)
        }
        w.box("mdia") { w in
          w.fullBox("mdhd") { w in
            w.u32(0)
            w.u32(0)
            w.u32(track.timescale)
            w.u32(0)
            var code: UInt16 = 0
            for byte in track.language.utf8.prefix(3) {
              code = code << 5 | UInt16((byte &- 0x60) & 0x1F)
            }
            w.u16(code)
            w.u16(0)
          }
          w.fullBox("hdlr") { w in
            w.u32(0)
            w.fourCC(track.coding.isVideo ? "vide" : "soun")
            w.zeros(12)
            w.append(Array((track.coding.isVideo ? "DiscKit video" : "DiscKit audio").utf8))
            w.u8(0)
          }
          w.box("minf") { w in
            if track.coding.isVideo {
              w.fullBox("vmhd", flags: 1) { $0.zeros(8) }
            } else {
              w.fullBox("smhd") { $0.zeros(4) }
            }
            w.box("dinf") { w in
              w.fullBox("dref") { w in
                w.u32(1)
                w.fullBox("url ", flags: 1) { _ in }
              }
            }
            w.box("stbl") { w in
              w.fullBox("stsd") { w in
                w.u32(1)
                w.append(track.sampleEntry)
              }
              w.fullBox("stts") { $0.u32(0) }
              w.fullBox("stsc") { $0.u32(0) }
              w.fullBox("stsz") { w in
                w.u32(0)
                w.u32(0)
              }
              w.fullBox("stco") { $0.u32(0) }
            }
          }
        }
      }
      w.box("mvex") { w in
        w.fullBox("trex") { w in
          w.u32(1)  // track_ID
          w.u32(1)  // default_sample_description_index
          w.u32(0)
          w.u32(0)
          w.u32(0)
        }
      }
    }
    return w.bytes
  }

  private static func matrix(_ w: inout MP4BoxWriter) {
    for value: UInt32 in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { w.u32(value) }
  }

  /// The `moof` box of a media segment (followed by the `mdat` header: the caller appends the
  /// samples' bytes, `payloadSize` of them, right after).
  ///
  /// - Parameters:
  ///   - sequence: `mfhd`'s sequence number (the segment's number from 1).
  ///   - decodeTime: `tfdt`'s base media decode time of the first sample.
  ///   - emptyDuration: without samples, how long the fragment lasts: an empty track fragment
  ///     (ISO/IEC 14496-12 8.8.7: `tfhd` with duration-is-empty and that default sample
  ///     duration, no `trun`; the next fragment's `tfdt` is this one's plus it).
  package static func fragmentHeader(
    sequence: UInt32, decodeTime: UInt64, samples: [Sample], payloadSize: Int,
    emptyDuration: UInt32 = 0
  ) -> [UInt8] {
    var w = MP4BoxWriter(capacity: 128 + samples.count * 16)
    var dataOffsetField = 0
    if samples.isEmpty {
      w.box("moof") { w in
        w.fullBox("mfhd") { $0.u32(sequence) }
        w.box("traf") { w in
          // default-base-is-moof, duration-is-empty, default-sample-duration present.
          w.fullBox("tfhd", flags: 0x03_0008) { w in
            w.u32(1)
            w.u32(emptyDuration)
          }
          w.fullBox("tfdt", version: 1) { $0.u64(decodeTime) }
        }
      }
      w.u32(8)
      w.fourCC("mdat")
      return w.bytes
    }
    w.box("moof") { w in
      w.fullBox("mfhd") { $0.u32(sequence) }
      w.box("traf") { w in
        // default-base-is-moof: data offsets count from the moof's first byte.
        w.fullBox("tfhd", flags: 0x02_0000) { $0.u32(1) }
        w.fullBox("tfdt", version: 1) { $0.u64(decodeTime) }
        // data-offset, sample duration, size, flags and composition time offset (signed, v1).
        w.fullBox("trun", version: 1, flags: 0x0F01) { w in
          w.u32(UInt32(samples.count))
          dataOffsetField = w.count
          w.u32(0)
          for sample in samples {
            w.u32(sample.duration)
            w.u32(sample.size)
            // is_leading; sample_depends_on 2 (an I picture) / 1 with sample_is_non_sync_sample.
            w.u32(
              UInt32(sample.leading & 3) << 26 | (sample.isSync ? 0x0200_0000 : 0x0101_0000))
            w.i32(sample.compositionOffset)
          }
        }
      }
    }
    w.patch32(at: dataOffsetField, UInt32(w.count + 8))
    w.u32(UInt32(truncatingIfNeeded: 8 + payloadSize))
    w.fourCC("mdat")
    return w.bytes
  }
}
