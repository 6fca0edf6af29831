import DiscKit
import Synchronization

/// Dolby Vision profile 8.1 from a UHD Blu-ray's profile 7 title: the base layer's access units
/// (copied, as the HDR10 rendition) each with the RPU of the enhancement layer's access unit of
/// the same PTS (PID 0x1015), converted to profile 8.1 (``DiscKit/DolbyVisionRPU``) and appended
/// as a length-prefixed NAL unit of type 62; the sample entry `hvc1` with a `dvvC` record
/// (profile 8, the disc's level, RPU and base layer present, no enhancement layer, base-layer
/// compatibility 1: HDR10). The enhancement layer's pictures are not used: a full enhancement
/// layer's residual is lost (its mapping becomes the identity), a minimal one loses nothing.
/// A frame whose RPU is missing or cannot be converted plays as HDR10 (no RPU) and is counted
/// (``FMP4Title/DolbyVisionVideo/framesWithoutRPU``).
extension FMP4Title {
  /// The Dolby Vision 8.1 video rendition (`dv.m3u8`, `dv-init.mp4`, `dv-N.m4s`).
  package struct DolbyVisionVideo: Sendable {
    /// The enhancement layer's PID (the RPUs' source).
    package var enhancementLayerPID: UInt16
    /// `dv_level` of the enhancement layer's DOVI descriptor (the `dvvC` record's and
    /// `SUPPLEMENTAL-CODECS`' level).
    package var level: UInt8
    /// `hvc1` + `hvcC` + `colr`/`mdcv`/`clli` + `dvvC`.
    package var track: FMP4Track
    /// `SUPPLEMENTAL-CODECS`: `dvh1.08.LL/db1p`.
    package var supplementalCodecs: String
    /// Frames served so far without an RPU (none in the enhancement layer at their PTS, or one
    /// that could not be converted), counted when their segments are planned.
    package var framesWithoutRPU: Int { fallbacks.count.withLock { $0 } }
    /// The last such failure (the conversion's error line), for the log.
    package var lastFailure: String? { fallbacks.last.withLock { $0 } }
    let fallbacks = Fallbacks()
    /// Bytes an RPU adds to a sample (the first one's, with its length), for the bit rates.
    var bytesPerFrame: Int
  }

  final class Fallbacks: Sendable {
    let count = Mutex(0)
    let last = Mutex<String?>(nil)
    func add(_ n: Int, _ failure: String?) {
      guard n > 0 else { return }
      count.withLock { $0 += n }
      if let failure { last.withLock { $0 = failure } }
    }
  }

  /// How far before and after a segment's bytes its enhancement-layer access units are looked
  /// for (the layers are multiplexed close together, not byte-aligned to the base layer's cuts).
  static let enhancementLayerMargin: Int64 = 4 << 20

  /// The Dolby Vision rendition of a title whose base layer is `video`, or nil when the title
  /// has no profile 7 enhancement layer with a DOVI descriptor or its first RPU cannot be
  /// converted.
  static func dolbyVisionVideo(
    streams: [DiscTitle.Stream], source: any ByteSource, first: Range<Int64>, video: FMP4Track
  ) throws(DiscKitError) -> DolbyVisionVideo? {
    guard video.coding == .hevc,
      let el = streams.first(where: {
        $0.kind == .video && $0.enhancementLayer == true && $0.subPath == nil
      })
    else { return nil }
    let pid = UInt16(truncatingIfNeeded: el.id)
    guard
      let disc = try DolbyVisionRPU.descriptor(in: source, from: first.lowerBound, pid: pid),
      disc.profile == 7
    else { return nil }
    let collected = try PESCollector(
      source: source, range: first, pids: [pid], limits: [pid: 1])
    var unit: [UInt8] = []
    for packet in collected.packets[pid] ?? [] { unit += packet.payload }
    guard let rpu = lastRPU(unit[...]),
      let converted = try? DolbyVisionRPU.profile81(rpu)
    else { return nil }
    let level = String(format2: Int(disc.level))
    var dvvC = MP4BoxWriter()
    dvvC.box("dvvC") { w in
      w.u8(1)  // dv_version_major
      w.u8(0)  // dv_version_minor
      // dv_profile (7 bits) 8, dv_level (6), rpu_present 1, el_present 0, bl_present 1.
      w.u16(UInt16(8) << 9 | UInt16(disc.level & 0x3F) << 3 | 0b101)
      w.u8(1 << 4)  // dv_bl_signal_compatibility_id 1 (HDR10), 28 reserved bits
      w.zeros(3)
      w.zeros(16)
    }
    var track = video
    track.sampleEntry = Self.appending(dvvC.bytes, to: video.sampleEntry)
    return DolbyVisionVideo(
      enhancementLayerPID: pid, level: disc.level, track: track,
      supplementalCodecs: "dvh1.08.\(level)/db1p", bytesPerFrame: 4 + converted.nal.count)
  }

  /// `entry` (a box) with `child` appended inside it.
  static func appending(_ child: [UInt8], to entry: [UInt8]) -> [UInt8] {
    var out = entry + child
    let size = UInt32(out.count)
    for k in 0..<4 { out[k] = UInt8(truncatingIfNeeded: size >> UInt32(24 - 8 * k)) }
    return out
  }

  /// The last NAL unit of type 62 of an access unit (Annex B).
  static func lastRPU(_ unit: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
    HEVCSampleEntryFacts.nalUnits(unit).last { DolbyVisionRPU.isRPU(unit[$0]) }.map { unit[$0] }
  }

  /// The enhancement layer's RPUs for the access units presented at `times` (PTS, 90 kHz, on
  /// `source`'s timeline), converted; the number of frames left without one and the last error.
  func dolbyVisionRPUs(_ dv: DolbyVisionVideo, range: Range<Int64>, times: [UInt64])
    throws(DiscKitError) -> (rpus: [[UInt8]], missing: Int, failure: String?)
  {
    let wanted = Set(times)
    var found: [UInt64: [UInt8]] = [:]
    var failure: String?
    let low = max(0, range.lowerBound - Self.enhancementLayerMargin)
    let high = min(source.size, range.upperBound + Self.enhancementLayerMargin)
    var input = PESStream(
      source: source, range: (low - low % 192)..<high, pid: dv.enhancementLayerPID)
    var unit: [UInt8] = []
    var unitPTS: UInt64?
    func close() {
      defer {
        unit.removeAll(keepingCapacity: true)
        unitPTS = nil
      }
      guard let pts = unitPTS, wanted.contains(pts), found[pts] == nil,
        let rpu = Self.lastRPU(unit[...])
      else { return }
      do {
        found[pts] = try DolbyVisionRPU.profile81(rpu).nal
      } catch {
        failure = "PTS \(pts): " + error.description
      }
    }
    while let event = try input.next() {
      switch event {
      case .start(let header, let body):
        if header.pts != nil {
          close()
          unitPTS = header.pts
        }
        if unitPTS != nil { unit += input.buffer[body] }
      case .more(let range):
        if unitPTS != nil { unit += input.buffer[range] }
      case .next:
        close()
      }
    }
    close()
    let rpus = times.map { found[$0] ?? [] }
    return (rpus, rpus.filter(\.isEmpty).count, failure)
  }
}

extension String {
  /// `n` as two decimal digits.
  init(format2 n: Int) { self = n < 10 ? "0\(n)" : "\(n)" }
}
