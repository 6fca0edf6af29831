/// Scans the start of an MPEG-1/MPEG-2 program stream (a DVD title's VOB data) for the first
/// video PTS, the first I-picture and the first PTS of each audio stream.
///
/// The scanner walks pack headers, system headers and PES packets; it resynchronises on the next
/// start code after garbage and reports it in ``ProgramStreamScanReport/warnings``. Its result does
/// not depend on how the source is read (``scan(source:offset:window:chunkSize:)`` takes the read
/// size as a parameter so tests can prove it).
@_spi(Formats)
public struct ProgramStreamScanner: Sendable {
  /// Scans `window` bytes of `source` starting at `offset`.
  ///
  /// - Parameter chunkSize: how many bytes are read at a time (any value ≥ 1 gives the same report).
  public static func scan(
    source: any ByteSource, offset: Int64 = 0, window: Int64 = 30 << 20, chunkSize: Int = 1 << 20
  ) throws(DiscKitError) -> ProgramStreamScanReport {
    guard offset >= 0, window >= 0, chunkSize >= 1 else {
      throw DiscKitError(
        .invalidArgument, "program stream scan", at: offset, "negative offset, window or chunk size"
      )
    }
    var scanner = ProgramStreamScanner(start: offset)
    let end = min(source.size, offset > Int64.max - window ? Int64.max : offset + window)
    var position = offset
    var chunk = [UInt8](repeating: 0, count: chunkSize)
    while position < end {
      let want = Int(min(Int64(chunkSize), end - position))
      let outcome = chunk.withUnsafeMutableBytes { raw in
        Result { () throws(DiscKitError) -> Int in
          try source.readFully(
            at: position, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<want]))
        }
      }
      let got = try outcome.get()
      if got == 0 { break }
      scanner.feed(chunk[0..<got])
      position += Int64(got)
    }
    return scanner.finish()
  }

  // MARK: State

  private struct VideoState {
    var report: ProgramStreamScanReport.Video
    // Start-code search state over the concatenated payload of this stream.
    var zeros = 0
    var afterPrefix = false
    var pictureBytes: [UInt8] = []
    var inPicture = false
    var sawSequenceHeader = false
    var currentPTS: UInt64?
    var currentPackOffset: Int64 = 0
    var done: Bool { report.firstIDRPTS != nil || keyframeWithoutPTS }
    var keyframeWithoutPTS = false
  }

  private let start: Int64
  /// Unparsed bytes; `pendingStart` is the absolute offset of `pending[0]`.
  private var pending: [UInt8] = []
  private var pendingStart: Int64
  private var packs = 0
  private var isMPEG1 = false
  private var videos: [VideoState] = []
  private var audios: [ProgramStreamScanReport.Audio] = []
  private var warnings: [ProgramStreamWarning] = []
  private var resyncs = 0
  private var skippedBytes: Int64 = 0
  private var lastPackOffset: Int64 = 0

  private init(start: Int64) {
    self.start = start
    self.pendingStart = start
  }

  // MARK: Feeding

  private mutating func feed(_ bytes: ArraySlice<UInt8>) {
    pending.append(contentsOf: bytes)
    var p = 0
    parsing: while true {
      let available = pending.count - p
      guard available >= 4 else { break }
      guard pending[p] == 0, pending[p + 1] == 0, pending[p + 2] == 1 else {
        // Resynchronise on the next start-code prefix.
        var q = p + 1
        while q + 2 < pending.count
          && !(pending[q] == 0 && pending[q + 1] == 0 && pending[q + 2] == 1)
        { q += 1 }
        if q + 2 >= pending.count { q = max(p + 1, pending.count - 2) }
        noteSkip(Int64(q - p))
        p = q
        continue
      }
      let code = pending[p + 3]
      switch code {
      case 0xBA:
        guard available >= 5 else { break parsing }
        let unit: Int
        if pending[p + 4] & 0xC0 == 0x40 {
          guard available >= 14 else { break parsing }
          unit = 14 + Int(pending[p + 13] & 0x07)
          isMPEG1 = false
        } else if pending[p + 4] & 0xF0 == 0x20 {
          unit = 12
          isMPEG1 = true
        } else {
          noteSkip(4)
          p += 4
          continue
        }
        guard available >= unit else { break parsing }
        packs += 1
        lastPackOffset = pendingStart + Int64(p)
        p += unit
      case 0xB9:
        p += 4
      case 0xBB...0xFF:
        guard available >= 6 else { break parsing }
        let length = Int(pending[p + 4]) << 8 | Int(pending[p + 5])
        guard available >= 6 + length else { break parsing }
        if code == 0xBD || (0xC0...0xEF).contains(code) {
          parsePES(code: code, at: p, length: length)
        }
        p += 6 + length
      default:
        noteSkip(4)
        p += 4
      }
    }
    pendingStart += Int64(p)
    pending.removeFirst(p)
  }

  private mutating func noteSkip(_ n: Int64) {
    resyncs += 1
    skippedBytes += n
  }

  private mutating func parsePES(code: UInt8, at p: Int, length: Int) {
    let end = p + 6 + length
    var q = p + 6
    var pts: UInt64?
    if q < end, pending[q] & 0xC0 == 0x80 {
      // MPEG-2 PES header.
      guard q + 3 <= end else {
        return warn(.headerCutShort(streamID: code))
      }
      let flags = pending[q + 1]
      let headerLength = Int(pending[q + 2])
      guard q + 3 + headerLength <= end else {
        return warn(.headerLengthPastPacket(streamID: code, headerLength: headerLength))
      }
      if flags & 0x80 != 0, headerLength >= 5 { pts = Self.timestamp(pending, q + 3) }
      q += 3 + headerLength
    } else {
      // MPEG-1 PES header: stuffing, optional STD buffer, then the timestamps.
      var stuffing = 0
      while q < end && pending[q] == 0xFF && stuffing < 16 {
        q += 1
        stuffing += 1
      }
      if q + 2 <= end && pending[q] & 0xC0 == 0x40 { q += 2 }
      guard q < end else { return }
      switch pending[q] >> 4 {
      case 0x2:
        guard q + 5 <= end else { return }
        pts = Self.timestamp(pending, q)
        q += 5
      case 0x3:
        guard q + 10 <= end else { return }
        pts = Self.timestamp(pending, q)
        q += 10
      default:
        if pending[q] == 0x0F { q += 1 }
      }
    }
    switch code {
    case 0xE0...0xEF:
      video(Int(code), pts: pts, payload: q..<end)
    case 0xC0...0xDF:
      audio(streamId: Int(code), substream: nil, codec: "mp2", pts: pts)
    default:  // 0xBD private stream 1
      guard q < end else { return }
      let sub = pending[q]
      switch sub {
      case 0x80...0x87: audio(streamId: 0xBD, substream: Int(sub), codec: "ac3", pts: pts)
      case 0x88...0x8F: audio(streamId: 0xBD, substream: Int(sub), codec: "dts", pts: pts)
      case 0xA0...0xA7: audio(streamId: 0xBD, substream: Int(sub), codec: "lpcm", pts: pts)
      default: break  // subpictures (0x20-0x3F) and others are not reported
      }
    }
  }

  private mutating func audio(streamId: Int, substream: Int?, codec: String, pts: UInt64?) {
    if let index = audios.firstIndex(where: {
      $0.streamId == streamId && $0.substreamId == substream
    }) {
      if audios[index].firstPTS == nil, let pts { audios[index].firstPTS = pts }
    } else {
      audios.append(.init(streamId: streamId, substreamId: substream, codec: codec, firstPTS: pts))
    }
  }

  private mutating func video(_ id: Int, pts: UInt64?, payload: Range<Int>) {
    var index = videos.firstIndex(where: { $0.report.streamId == id }) ?? -1
    if index < 0 {
      videos.append(
        VideoState(report: .init(streamId: id, codec: isMPEG1 ? "mpeg1video" : "mpeg2video")))
      index = videos.count - 1
    }
    if videos[index].report.firstPTS == nil, let pts { videos[index].report.firstPTS = pts }
    guard !videos[index].done else { return }
    videos[index].currentPTS = pts
    videos[index].currentPackOffset = lastPackOffset
    var state = videos[index]
    for i in payload {
      let byte = pending[i]
      if state.inPicture {
        state.pictureBytes.append(byte)
        if state.pictureBytes.count == 2 {
          state.inPicture = false
          let type = (state.pictureBytes[1] >> 3) & 0x07
          if type == 1 && state.sawSequenceHeader {
            if let pts = state.currentPTS {
              state.report.firstIDRPTS = pts
              state.report.firstIDROffset = state.currentPackOffset
            } else {
              state.keyframeWithoutPTS = true
            }
            break
          }
        }
        continue
      }
      if state.afterPrefix {
        state.afterPrefix = false
        if byte == 0xB3 { state.sawSequenceHeader = true }
        if byte == 0x00 {
          state.inPicture = true
          state.pictureBytes.removeAll(keepingCapacity: true)
          continue
        }
      }
      if byte == 0 {
        state.zeros += 1
      } else {
        if byte == 1 && state.zeros >= 2 { state.afterPrefix = true }
        state.zeros = 0
      }
    }
    videos[index] = state
  }

  private mutating func warn(_ warning: ProgramStreamWarning) {
    if warnings.count < 32 && !warnings.contains(warning) { warnings.append(warning) }
  }

  private static func timestamp(_ b: [UInt8], _ p: Int) -> UInt64 {
    MPEGTimestamp.decode(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4])
  }

  // MARK: Result

  private mutating func finish() -> ProgramStreamScanReport {
    if resyncs > 0 {
      warn(.skippedGarbage(bytes: skippedBytes))
    }
    if packs == 0 { warn(.noPackHeader) }
    if videos.isEmpty { warn(.noVideo) }
    for v in videos where v.keyframeWithoutPTS {
      warn(.keyframeWithoutPTS(streamID: v.report.streamId))
    }
    var videoReports = videos.map(\.report)
    for i in videoReports.indices {
      if let first = videoReports[i].firstPTS, let idr = videoReports[i].firstIDRPTS {
        videoReports[i].preIDRGapSeconds = Double((idr &- first) & 0x1_FFFF_FFFF) / 90_000
      }
    }
    /// `(a - b)` modulo 2^33 as the nearest signed value, in seconds.
    func seconds(_ a: UInt64?, minus b: UInt64?) -> Double? {
      guard let a, let b else { return nil }
      var delta = Int64((a &- b) & 0x1_FFFF_FFFF)
      if delta >= 1 << 32 { delta -= 1 << 33 }
      return Double(delta) / 90_000
    }
    var audios = audios
    for i in audios.indices {
      audios[i].offsetFromVideoSeconds = seconds(
        audios[i].firstPTS, minus: videoReports.first?.firstPTS)
      audios[i].offsetFromIDRSeconds = seconds(
        audios[i].firstPTS, minus: videoReports.first?.firstIDRPTS)
    }
    let avOffset = seconds(audios.first?.firstPTS, minus: videoReports.first?.firstPTS)
    return ProgramStreamScanReport(
      scanStart: start, bytesScanned: pendingStart - start + Int64(pending.count), packs: packs,
      video: videoReports, audio: audios, avOffsetSeconds: avOffset, warnings: warnings)
  }
}
