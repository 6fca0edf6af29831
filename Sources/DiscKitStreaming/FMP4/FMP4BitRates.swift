import DiscKit

/// The bit rates of a title's fMP4 renditions that the multivariant playlist declares: a
/// variant's `BANDWIDTH` is the video's peak segment bit rate plus its audio group's largest
/// rendition's, `AVERAGE-BANDWIDTH` the averages' sum (RFC 8216 4.3.4.2), each segment's bytes
/// (`moof` + `mdat`) over its `EXTINF`.
///
/// Measured without reading the whole title: the plan reads the first and the last segment
/// whole (the last one's duration needs its samples anyway), which gives, for those, the
/// video's fMP4 bytes and how many of the segment's transport packets are the video's. Every
/// other segment's video bytes are its transport packets less the other streams' (at the rate
/// they have in the segments read), times the fMP4 bytes a video packet gave there. So the
/// figures follow each segment's size, without the audio, subtitle, enhancement-layer and
/// transport overhead the disc's bytes carry (the transport stream's rates, ``FMP4Title/bandwidth``,
/// bound them from above). Audio: a copied rendition's rate is its last segment's (AC-3 and
/// E-AC-3 are constant); a transcoded one's is a bound from above (``transcoded(_:)``). The
/// I-frame playlist's: its segments' own sizes where read (every segment of a short title, 16
/// spread over a long one), carried over to the others by their video segments' sizes.
package struct FMP4BitRates: Sendable, Hashable {
  /// The video segments' peak and average bit rate, bits per second.
  package var videoPeak: Int
  package var videoAverage: Int
  /// Each audio rendition's bit rate by its file stem (`audio-4352`, `aac-4352`).
  package var audio: [String: Int]
  /// A copied rendition's average over the title, by stem, where it differs (audio that stops
  /// before the video); `audio` otherwise.
  package var audioAverage: [String: Int] = [:]
  /// The I-frame playlist's peak bit rate (``iFrames(segments:measured:videoSizes:)``).
  package var iFrames: Int

  /// A segment the plan read whole: its index, the video's transport packets in its range and
  /// the size of its fMP4 video segment.
  struct Calibration: Sendable {
    var index: Int
    var packets: Int
    var bytes: Int64
  }

  /// The video's peak and average over `segments`, from `calibration` (see the type).
  static func video(
    segments: [FMP4Title.Segment], calibration: [Calibration], frameRate: Double?
  ) -> (peak: Int, average: Int) {
    let sizes = videoSizes(segments: segments, calibration: calibration, frameRate: frameRate)
    var peak = 0.0
    var total = 0.0
    var time = 0.0
    for (k, segment) in segments.enumerated() {
      let duration = segment.duration.seconds
      guard duration > 0 else { continue }
      peak = max(peak, sizes[k] * 8 / duration)
      total += sizes[k] * 8
      time += duration
    }
    return (Int(peak.rounded(.up)), time > 0 ? Int((total / time).rounded(.up)) : 0)
  }

  /// The I-frame playlist's peak bit rate: each segment's I-frame segment (its first picture,
  /// `moof` + `mdat`) over the segment's duration (its `EXTINF`). `measured` are the sizes of
  /// the I-frame segments read (index → bytes); another segment's is its video segment's size
  /// (`videoSizes`) times the largest share of it the first picture has where both are known.
  static func iFrames(
    segments: [FMP4Title.Segment], measured: [Int: Int64], videoSizes: [Double]
  ) -> Int {
    var share = 0.0
    for (k, bytes) in measured where videoSizes.indices.contains(k) && videoSizes[k] > 0 {
      share = max(share, min(1, Double(bytes) / videoSizes[k]))
    }
    var peak = 0.0
    for (k, segment) in segments.enumerated() where segment.duration.seconds > 0 {
      let size = measured[k].map(Double.init) ?? share * (k < videoSizes.count ? videoSizes[k] : 0)
      peak = max(peak, size * 8 / segment.duration.seconds)
    }
    return Int(peak.rounded(.up))
  }

  /// Each video segment's fMP4 size: exact for the calibration's segments, the others from
  /// their transport packets (see the type).
  static func videoSizes(
    segments: [FMP4Title.Segment], calibration: [Calibration], frameRate: Double?
  ) -> [Double] {
    var calibrated: [Int: Int64] = [:]
    var packets = 0
    var others = 0.0
    var bytes: Int64 = 0
    var seconds = 0.0
    for c in calibration where segments.indices.contains(c.index) {
      calibrated[c.index] = c.bytes
      let all = Int(segments[c.index].range.count / 192)
      packets += c.packets
      others += Double(max(0, all - c.packets))
      bytes += c.bytes
      seconds += segments[c.index].duration.seconds
    }
    // Bytes of fMP4 video per video transport packet, and the other streams' packets a second.
    let perPacket = packets > 0 ? Double(bytes) / Double(packets) : 184
    let otherRate = seconds > 0 ? others / seconds : 0
    let fps = frameRate ?? 24
    return segments.enumerated().map { k, segment in
      if let exact = calibrated[k] { return Double(exact) }
      let duration = max(0, segment.duration.seconds)
      let video = max(0, Double(segment.range.count / 192) - otherRate * duration)
      return video * perPacket + 96 + 16 * (duration * fps).rounded(.up)
    }
  }

  /// The AAC renditions' bit rate: the transcoder's 192 kb/s AAC-LC (README, Serving), with the
  /// `moof`'s 16 bytes per 1024-sample frame.
  static let aacRate = 192_000 + 16 * 8 * 48_000 / 1024

  /// A transcoded rendition's rate, from above (its bytes are the encoder's, known only once
  /// made): AAC the transcoder's bit rate, FLAC its PCM's at 24 bits a sample (FLAC's verbatim
  /// frames are no larger).
  static func transcoded(_ rendition: FMP4Title.Transcoded) -> Int {
    switch rendition.target {
    case .aac: aacRate
    case .flac: rendition.track.sampleRate * max(rendition.track.channels, 1) * 24
    }
  }
}
