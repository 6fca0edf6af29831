extension DiscTitle {
  /// What a streaming client needs to know of a video stream before it plays it (HLS `CODECS`,
  /// `RESOLUTION`, `FRAME-RATE` and `VIDEO-RANGE`; DASH `codecs`), read from the stream's own
  /// sequence parameter set.
  public struct VideoParameters: Sendable, Hashable {
    /// The RFC 6381 codecs value: `avc1.PPCCLL` (H.264) or `hvc1.…` (HEVC, ISO/IEC 14496-15
    /// annex E.3).
    public var codecs: String
    /// The picture width after cropping.
    public var width: Int
    /// The picture height after cropping.
    public var height: Int
    /// The transfer as HLS's `VIDEO-RANGE` names it: `"PQ"` (SMPTE ST 2084), `"HLG"` (ARIB
    /// STD-B67) or `"SDR"`.
    public var range: String
    /// Frames per second, as the Blu-ray stream number table states it.
    public var frameRate: Double?
  }

  /// The parameters of `stream` (an H.264 or HEVC video stream of a Blu-ray title), from its
  /// first sequence parameter set in the title's first 8 MiB; nil for other codings, a DVD, or
  /// when no parameter set is found there.
  public func videoParameters(of stream: Stream) throws(DiscKitError) -> VideoParameters? {
    guard isTransportStream, stream.kind == .video,
      stream.coding == .h264 || stream.coding == .hevc
    else { return nil }
    guard
      let sps = try Self.sequenceParameterSet(
        title: self, pid: UInt16(truncatingIfNeeded: stream.id), hevc: stream.coding == .hevc)
    else { return nil }
    return VideoParameters(
      codecs: sps.codec, width: sps.width, height: sps.height, range: sps.range,
      frameRate: Self.frameRate(title: self, pid: stream.id))
  }

  private static func frameRate(title: DiscTitle, pid: Int) -> Double? {
    guard case .bluray(let bluray) = title.content,
      let stream = bluray.playlist.playItems.first?.streams.video.first(where: {
        Int($0.pid) == pid
      })
    else { return nil }
    switch stream.rate {
    case 1: return 24_000.0 / 1001
    case 2: return 24
    case 3: return 25
    case 4: return 30_000.0 / 1001
    case 6: return 50
    case 7: return 60_000.0 / 1001
    default: return nil
    }
  }

  private static func sequenceParameterSet(title: DiscTitle, pid: UInt16, hevc: Bool)
    throws(DiscKitError) -> (codec: String, width: Int, height: Int, range: String)?
  {
    let source = try title.byteSource()
    let unit = 192
    let chunk = 1 << 20
    var payload: [UInt8] = []
    var started = false
    var offset: Int64 = 0
    let end = min(source.size, 8 << 20)
    while offset + Int64(unit) <= end {
      let count = Int(min(Int64(chunk), end - offset)) / unit * unit
      let bytes = try source.bytes(at: offset, count: count, structure: "transport stream")
      var i = 0
      while i + unit <= bytes.count {
        defer { i += unit }
        let p = i + 4
        guard bytes[p] == 0x47, UInt16(bytes[p + 1] & 0x1F) << 8 | UInt16(bytes[p + 2]) == pid,
          bytes[p + 3] & 0x10 != 0
        else { continue }
        var start = p + 4
        if bytes[p + 3] & 0x20 != 0 { start += 1 + Int(bytes[p + 4]) }
        guard start < p + 188 else { continue }
        if bytes[p + 1] & 0x40 != 0 {
          // A PES starts: skip its header (9 bytes and PES_header_data_length).
          guard start + 9 <= p + 188, bytes[start] == 0, bytes[start + 1] == 0,
            bytes[start + 2] == 1
          else { continue }
          start += 9 + Int(bytes[start + 8])
          started = true
          guard start < p + 188 else { continue }
        }
        if started { payload.append(contentsOf: bytes[start..<(p + 188)]) }
      }
      if payload.count >= 64 << 10 { break }
      offset += Int64(count)
      guard count > 0 else { break }
    }
    let annexB = payload[...]
    for range in HEVCNALUnit.split(annexB).prefix(256) where range.count >= 2 {
      let nal = annexB[range]
      if hevc {
        guard (nal[nal.startIndex] >> 1) & 0x3F == HEVCNALUnit.sequenceParameterSet,
          nal[nal.startIndex] & 1 == 0, nal[nal.startIndex + 1] >> 3 == 0,
          let profile = try? VideoCodecString.HEVCGeneralProfile(sequenceParameterSet: nal),
          let parameters = try? HEVCSequenceParameterSet(parsing: nal)
        else { continue }
        let range =
          switch parameters.videoSignal?.transferCharacteristics ?? 0 {
          case 16: "PQ"
          case 18: "HLG"
          default: "SDR"
          }
        return (profile.codecString, parameters.width, parameters.height, range)
      } else if nal[nal.startIndex] & 0x1F == 7 {
        guard let codec = try? VideoCodecString.avc1(sequenceParameterSet: nal),
          let size = try? VideoCodecString.avcPictureSize(sequenceParameterSet: nal)
        else { continue }
        return (codec, size.width, size.height, "SDR")
      }
    }
    return nil
  }
}
