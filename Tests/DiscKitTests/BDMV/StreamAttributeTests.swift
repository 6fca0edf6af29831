@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The per-stream attributes `titles` reports (dynamic range, colour space, channels, sample
/// rate), checked against the stream number table bytes decoded here by hand from the spec layout.
@Suite("Stream attributes", .toolThreads)
struct StreamAttributeTests {
  /// The first video stream's coding type and the two UHD attribute bytes after its
  /// `video_format`/`frame_rate` byte, read from the MPLS by the layout of the Blu-ray spec
  /// (as also documented by libbluray's mpls_parse.c):
  /// - header: `PlayList_start_address` is the 32-bit big-endian word at byte 8;
  /// - PlayList: length (4), reserved (2), `number_of_PlayItems` (2), `number_of_SubPaths` (2);
  /// - PlayItem: length (2), clip name (5), codec id (4), 11 reserved bits, `is_multi_angle`
  ///   (bit 0x10 of the second byte), connection condition (4 bits), STC id (1), IN/OUT time
  ///   (4+4), UO mask (8), random access flag (1), still mode (1), still time (2): 32 bytes after
  ///   the length; a multi-angle item then has `number_of_angles` (1), flags (1) and 10 bytes per
  ///   further angle;
  /// - STN: length (2), reserved (2), eight counts, reserved (4): the first stream entry is 16
  ///   bytes in; each entry and each attribute block starts with its own length byte;
  /// - HEVC attributes: coding type, `video_format << 4 | frame_rate`,
  ///   `dynamic_range_type << 4 | color_space`, `cr_flag` (0x80) / `HDR_plus_flag` (0x40).
  static func firstVideo(_ b: [UInt8]) -> (coding: UInt8, range: UInt8, flags: UInt8)? {
    func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    guard b.count > 12 else { return nil }
    let start = Int(b[8]) << 24 | Int(b[9]) << 16 | Int(b[10]) << 8 | Int(b[11])
    guard start + 10 < b.count, be16(start + 6) >= 1 else { return nil }
    let q = start + 10 + 2
    guard q + 34 < b.count else { return nil }
    var stn = q + 32
    if b[q + 10] & 0x10 != 0 {
      let angles = Int(b[stn])
      stn += 2 + max(0, angles - 1) * 10
    }
    guard stn + 16 < b.count, b[stn + 4] >= 1 else { return nil }
    let entry = stn + 16
    let attributes = entry + 1 + Int(b[entry])
    guard attributes + 4 < b.count else { return nil }
    return (b[attributes + 1], b[attributes + 3], b[attributes + 4])
  }

  @Test(
    "bdpl_disc5 (UHD): each playlist's HDR kind is what its STN bytes say",
    .enabled(if: Fixtures.hasRealData))
  func uhdDynamicRange() throws {
    let root = Fixtures.real("bluray/bdpl_disc5")
    let disc = try Disc.open(path: root)
    let dir = root + "/BDMV/PLAYLIST"
    let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter {
      $0.hasSuffix(".mpls")
    }.sorted()
    var hevc = 0
    for name in names {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))
      // Version "0300" marks the UHD format the HEVC attributes belong to.
      #expect(String(decoding: bytes[4..<8], as: UTF8.self) == "0300", "\(name)")
      guard let raw = Self.firstVideo(bytes) else { continue }
      let key = String(name.prefix(5))
      guard let title = try? disc.title(key: key, angle: 1),
        let video = title.streams.first(where: { $0.kind == .video })
      else {
        Issue.record("\(name): the façade lists no video stream the bytes have")
        continue
      }
      #expect(video.codingType == Int(raw.coding), "\(name)")
      guard raw.coding == 0x24 else {
        #expect(video.dynamicRange == nil, "\(name): only HEVC attributes carry a range")
        continue
      }
      hevc += 1
      // The spec's dynamic_range_type values: 0 SDR, 1 HDR10, 2 Dolby Vision; HDR10+ is HDR10
      // with the HDR_plus_flag set. color_space: 1 BT.709, 2 BT.2020.
      let expectedRange: String? =
        switch raw.range >> 4 {
        case 0: "SDR"
        case 1: raw.flags & 0x40 != 0 ? "HDR10+" : "HDR10"
        case 2: "Dolby Vision"
        default: nil
        }
      let expectedSpace: String? =
        switch raw.range & 0x0F {
        case 1: "BT.709"
        case 2: "BT.2020"
        default: nil
        }
      #expect(video.dynamicRange == expectedRange, "\(name)")
      #expect(video.colorSpace == expectedSpace, "\(name)")
    }
    #expect(hevc > 0, "a UHD disc has HEVC playlists")
  }

  @Test("audio attribute codes map to the spec's channel counts and sample rates")
  func audioCodes() {
    // audio_presentation_type: 1 mono, 3 stereo, 6 multi-channel (no count stated);
    // sampling_frequency: 1 48 kHz, 4 96 kHz, 5 192 kHz, 12 192 kHz (48 kHz core),
    // 14 96 kHz (48 kHz core).
    let cases: [(UInt8, UInt8, Int?, Int?)] = [
      (1, 1, 1, 48_000), (3, 4, 2, 96_000), (6, 5, nil, 192_000), (12, 12, nil, 192_000),
      (6, 14, nil, 96_000), (6, 9, nil, nil),
    ]
    for (format, rate, channels, sampleRate) in cases {
      let s = PlaylistStream(pid: 0x1100, codingType: 0x83, format: format, rate: rate)
      #expect(s.channelCount == channels && s.sampleRate == sampleRate, "\(format) \(rate)")
    }
    let video = PlaylistStream(pid: 0x1011, codingType: 0x1B, format: 6, rate: 1)
    #expect(video.channelCount == nil && video.sampleRate == nil && video.dynamicRangeName == nil)
  }
}
