import DiscKit

/// The one variant of a title's HLS multivariant playlist (RFC 8216 4.3.4.2,
/// `EXT-X-STREAM-INF`): what a client needs to choose it before loading the media playlist
/// (``HLSPlaylist``) — `BANDWIDTH` (the peak segment bit rate) and `AVERAGE-BANDWIDTH`,
/// `CODECS` (RFC 6381 values: `avc1.PPCCLL` and `hvc1.…` from the video's own sequence
/// parameter set, `ac-3` and `ec-3` for the audio), `RESOLUTION` (from the SPS), `FRAME-RATE`
/// (from the stream number table) and `VIDEO-RANGE` (`PQ` for the SMPTE ST 2084 transfer, `HLG`
/// for ARIB STD-B67, otherwise `SDR`).
///
/// The 188-byte stream carries every PID of the title, but `CODECS` names only what HLS clients
/// decode in a transport stream: H.264 and HEVC video (the base layer; a Dolby Vision
/// enhancement layer is left out) and AC-3 / E-AC-3 audio. LPCM, DTS (all kinds), TrueHD (also
/// with its AC-3 core on the same PID, which is stream type 0x83), MPEG-2 and VC-1 video and the
/// subtitle and menu streams are left out and listed in ``leftOut``.
package struct HLSVariant: Sendable, Hashable {
  /// The RFC 6381 values, video first, without repeats.
  package var codecs: [String]
  /// The first video stream's picture size.
  package var resolution: (width: Int, height: Int)? {
    get { width.flatMap { w in height.map { (w, $0) } } }
    set {
      width = newValue?.width
      height = newValue?.height
    }
  }
  private var width: Int?
  private var height: Int?
  /// `FRAME-RATE` (three decimals), when the stream number table gives the rate.
  package var frameRate: String?
  /// `SDR`, `PQ` or `HLG`, when the title has video HLS carries.
  package var videoRange: String?
  /// The peak segment bit rate (bits per second).
  package var bandwidth: Int
  /// The title's average bit rate (bits per second).
  package var averageBandwidth: Int
  /// The streams `CODECS` leaves out: `"0x1100 truehd"`, ….
  package var leftOut: [String]

  /// The variant of `title` (a Blu-ray title) whose segments are `playlist`'s; reads the start of
  /// the first clip for the video's sequence parameter set.
  ///
  /// - Throws: ``StreamingError/needsTransportStream(title:)`` for a DVD title;
  ///   ``StreamingError/disc(_:)`` when the title's bytes cannot be read.
  package init(title: DiscTitle, playlist: HLSPlaylist) throws(StreamingError) {
    guard title.isTransportStream else { throw .needsTransportStream(title: title.key) }
    var codecs: [String] = []
    var leftOut: [String] = []
    let streams = title.streams
    let video = streams.first { $0.kind == .video && $0.enhancementLayer != true }
    var sps: DiscTitle.VideoParameters?
    if let video {
      do {
        sps = try title.videoParameters(of: video)
      } catch {
        throw .disc(error)
      }
    }
    for stream in streams {
      let label = "0x" + String(stream.id, radix: 16, uppercase: true) + " " + stream.codec
      switch (stream.kind, stream.codingType) {
      case (.video, _) where stream.id == video?.id && sps != nil:
        if let sps { codecs.append(sps.codecs) }
      case (.audio, 0x81):
        codecs.append("ac-3")
      case (.audio, 0x84), (.audio, 0xA1):
        codecs.append("ec-3")
      default:
        leftOut.append(label)
      }
    }
    var unique: [String] = []
    for codec in codecs where !unique.contains(codec) { unique.append(codec) }
    self.codecs = unique
    self.leftOut = leftOut
    width = sps?.width
    height = sps?.height
    videoRange = sps?.range
    frameRate = sps?.frameRate.map { $0.fixed(3) }
    var peak = 0.0
    var bits = 0.0
    var seconds = 0.0
    for segment in playlist.segments where segment.duration.seconds > 0 {
      peak = max(peak, Double(segment.length) * 8 / segment.duration.seconds)
      bits += Double(segment.length) * 8
      seconds += segment.duration.seconds
    }
    bandwidth = Int(peak.rounded(.up))
    averageBandwidth = seconds > 0 ? Int((bits / seconds).rounded(.up)) : 0
  }

  /// The multivariant playlist text; `uri` names the media playlist (relative to this one).
  package func text(uri: String) -> String {
    var attributes = [
      "BANDWIDTH=\(max(bandwidth, 1))", "AVERAGE-BANDWIDTH=\(max(averageBandwidth, 1))",
    ]
    if !codecs.isEmpty { attributes.append("CODECS=\"\(codecs.joined(separator: ","))\"") }
    if let resolution { attributes.append("RESOLUTION=\(resolution.width)x\(resolution.height)") }
    if let frameRate { attributes.append("FRAME-RATE=\(frameRate)") }
    if let videoRange { attributes.append("VIDEO-RANGE=\(videoRange)") }
    let lines = [
      "#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-INDEPENDENT-SEGMENTS",
      "#EXT-X-STREAM-INF:" + attributes.joined(separator: ","), uri,
    ]
    return lines.joined(separator: "\n") + "\n"
  }
}
