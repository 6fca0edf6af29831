/// One title of a Blu-ray or DVD, with the same API on both kinds: its size, duration, chapters,
/// streams, clips, bytes, playback start for a time, and the pre-scan at a time.
///
/// Get one from ``Disc/title(key:angle:)``, ``Disc/title(number:selection:angle:)`` or
/// ``Disc/mainTitle(selection:angle:)``. Every time is a ``MediaTime``; angles are 1-based.
public struct DiscTitle: Sendable {
  /// The kind-specific title.
  @_spi(Formats)
  public enum Content: Sendable {
    /// A Blu-ray playlist.
    case bluray(BlurayTitle)
    /// A DVD title (with its disc, which holds the VOBs).
    case dvd(DVDTitle, DVDDisc)
  }

  /// A chapter on the title timeline.
  public struct Chapter: Sendable, Hashable {
    /// 1-based chapter number.
    public var number: Int
    /// Where the chapter starts on the title timeline.
    public var start: MediaTime
    /// How long it plays.
    public var duration: MediaTime
    /// Blu-ray: the chapter's first byte in the title (``byteSource()``); DVD: `nil`.
    public var offset: Int64?
  }

  /// A video, audio or subtitle stream of the title.
  public struct Stream: Sendable, Hashable {
    /// What the stream carries.
    public enum Kind: String, Sendable, Hashable, Codable {
      case video, audio, subtitle, interactive
    }
    /// What the stream carries.
    public var kind: Kind
    /// The PID (Blu-ray) or MPEG stream id (DVD; `0xBD` private stream 1 substreams give
    /// the substream id, e.g. `0x80` for the first AC-3 stream).
    public var id: Int
    /// The codec's readable name as the disc's own tools name it (`"H.264"`, `"AC-3"` on a
    /// Blu-ray as libbluray's users see it; `"ac3"`, `"lpcm"` on a DVD as lsdvd prints it).
    public var codec: String
    /// ISO 639-2 language code, when the disc gives one.
    public var language: String?
    /// Video format (`"1080p"`, `"NTSC"`) or audio presentation (`"stereo"`).
    public var format: String?
    /// Frame rate or sample rate, as the disc states it.
    public var rate: String?
    /// Audio channels: the DVD's count, or on a Blu-ray the count the presentation type implies
    /// (mono 1, dual mono and stereo 2; `nil` for multi-channel, whose count the disc does not
    /// state).
    public var channels: Int?
    /// Blu-ray: the `stream_coding_type` of the stream number table.
    public var codingType: Int?
    /// Audio sample rate in hertz, when the disc states it (Blu-ray: the higher rate of a
    /// stream with a 48 kHz core).
    public var sampleRate: Int? = nil
    /// Audio bits per sample, when the disc states it (DVD LPCM quantization); Blu-ray stream
    /// attributes carry no bit depth.
    public var bitDepth: Int? = nil
    /// Blu-ray HEVC video: `"SDR"`, `"HDR10"`, `"HDR10+"` or `"Dolby Vision"` from the UHD stream
    /// attributes; `nil` where the disc has no such field (other video codings, DVD).
    public var dynamicRange: String? = nil
    /// Blu-ray HEVC video: `"BT.709"` or `"BT.2020"`.
    public var colorSpace: String? = nil
    /// The Dolby Vision enhancement layer (Blu-ray PID 0x1015 in the stream number table's
    /// Dolby Vision list): `true`; otherwise `nil`.
    public var enhancementLayer: Bool? = nil
    /// DVD subpicture whose code extension says forced (9): `true`, other subpictures `false`.
    /// `nil` on a Blu-ray: PG forcing is a per-composition flag inside the stream, not in the
    /// stream number table.
    public var forced: Bool? = nil
    /// The codec, typed and the same on both kinds (`.ac3` for a Blu-ray's `"AC-3"` and a DVD's
    /// `"ac3"`): Blu-ray from the stream coding type, DVD from the audio coding mode.
    public var coding: StreamCodec = .unknown
    /// Blu-ray secondary audio (the STN table's secondary list, e.g. a commentary a player
    /// mixes over the primary audio): `true`; otherwise `nil`.
    public var secondary: Bool? = nil
    /// Blu-ray: the sub-path (`ref_to_SubPath_id`) whose clip carries the stream when it is not
    /// in the play item's own clip (out-of-mux; stream entry types 2 to 4); `nil` in-mux. An
    /// out-of-mux stream is not in ``DiscTitle/byteSource()`` (the main path's bytes, as
    /// libbluray reads them).
    public var subPath: Int? = nil
  }

  /// The title itself.
  @_spi(Formats)
  public let content: Content
  /// The key naming the title on both kinds: the playlist number on a Blu-ray (`"00800"`), the
  /// title number on a DVD (`"3"`). ``Disc/title(key:angle:)`` opens it again.
  public let key: String
  /// The 1-based number the title list gives the title, when it was opened through the list.
  public let number: Int?
  /// The angle the title plays (1-based).
  public let angle: Int

  init(bluray: BlurayDisc, title: BlurayTitle, number: Int?, requestedAngle: Int)
    throws(DiscKitError)
  {
    guard requestedAngle >= 1, requestedAngle == 1 || requestedAngle <= title.angleCount else {
      throw DiscKitError(
        .invalidArgument, "angle", at: nil,
        "title \(title.name) has \(title.angleCount) angle(s), not \(requestedAngle)")
    }
    content = .bluray(title)
    key = Disc.key(ofPlaylist: title.name)
    self.number = number
    angle = requestedAngle
  }

  init(dvd: DVDDisc, title: DVDTitle, number: Int?, angle: Int) throws(DiscKitError) {
    guard angle >= 1, angle <= max(title.angleCount, 1) else {
      throw DiscKitError(
        .invalidArgument, "angle", at: nil,
        "title \(title.number) has \(title.angleCount) angle(s), not \(angle)")
    }
    content = .dvd(title, dvd)
    key = String(title.number)
    self.number = number
    self.angle = angle
  }

  /// A Blu-ray title at the angle it was read at, outside a title list.
  package init(bluray title: BlurayTitle) throws(DiscKitError) {
    try self.init(bluray: title.disc, title: title, number: nil, requestedAngle: title.angle + 1)
  }

  /// DVD title `number` at `angle` (1-based), outside a title list.
  package init(dvd disc: DVDDisc, number: Int, angle: Int) throws(DiscKitError) {
    try self.init(dvd: disc, title: try disc.title(number), number: nil, angle: angle)
  }

  private init(copying other: DiscTitle, number: Int?) {
    content = other.content
    key = other.key
    self.number = number
    angle = other.angle
  }

  /// The same title with its list number.
  func numbered(_ number: Int?) -> DiscTitle { DiscTitle(copying: self, number: number) }

  /// Whether the title's bytes are an MPEG transport stream (Blu-ray: 192-byte M2TS packets)
  /// rather than a DVD's MPEG program stream.
  public var isTransportStream: Bool {
    if case .bluray = content { return true }
    return false
  }

  /// How many angles the title has (1 for most titles).
  public var angleCount: Int {
    switch content {
    case .bluray(let title): title.angleCount
    case .dvd(let title, _): max(title.angleCount, 1)
    }
  }

  /// How long the title plays.
  public var duration: MediaTime {
    switch content {
    case .bluray(let title): MediaTime(ticks45k: title.duration45k)
    case .dvd(let title, _): MediaTime(ticks: title.duration90k)
    }
  }

  /// The bytes a player reads for this title and angle (the size of ``byteSource()``). On a DVD
  /// whose interleaved angle block cannot be walked (VOBs missing), the block's whole range.
  public var size: Int64 {
    switch content {
    case .bluray(let title): return title.size
    case .dvd(let title, let disc):
      guard title.cells(angle: angle).contains(where: \.isInterleavedAngleCell),
        let source = try? disc.byteSource(title: title, angle: angle)
      else { return title.sizeBytes }
      return source.size
    }
  }

  /// The chapters (Blu-ray entry marks, DVD parts of title).
  public var chapters: [Chapter] {
    switch content {
    case .bluray(let title):
      title.chapters.map {
        Chapter(
          number: $0.index + 1, start: MediaTime(ticks45k: $0.titleTime),
          duration: MediaTime(ticks45k: $0.duration), offset: $0.offset)
      }
    case .dvd(let title, _):
      title.chapters.map {
        Chapter(
          number: $0.number, start: MediaTime(ticks: $0.start90k),
          duration: MediaTime(ticks: $0.duration90k), offset: nil)
      }
    }
  }

  /// The title's streams: on a Blu-ray the first play item's stream number table (video, audio,
  /// PG subtitles, IG menus), on a DVD the title set's video, audio and subpicture streams.
  public var streams: [Stream] {
    switch content {
    case .bluray(let title):
      let stn = title.playlist.playItems.first?.streams ?? StreamNumberTable()
      func stream(_ s: PlaylistStream, _ kind: Stream.Kind) -> Stream {
        Self.stream(s, kind)
      }
      var enhancement = stn.dolbyVision.map { stream($0, .video) }
      for i in enhancement.indices { enhancement[i].enhancementLayer = true }
      return stn.video.map { stream($0, .video) } + enhancement
        + stn.audio.map { stream($0, .audio) }
        + stn.presentationGraphics.map { stream($0, .subtitle) }
        + stn.interactiveGraphics.map { stream($0, .interactive) }
    case .dvd(let title, _):
      let video = Stream(
        kind: .video, id: 0xE0, codec: "MPEG-\(title.video.mpegVersion) video", language: nil,
        format: title.video.formatName, rate: nil, channels: nil, codingType: nil,
        coding: title.video.mpegVersion == 1 ? .mpeg1Video : .mpeg2Video)
      return [video]
        + title.audio.map {
          Stream(
            kind: .audio, id: $0.streamID, codec: $0.codec, language: $0.language, format: nil,
            rate: nil, channels: $0.channels, codingType: nil, sampleRate: $0.sampleRate,
            bitDepth: $0.bitDepth, coding: Self.dvdAudioCoding($0.codec))
        }
        + title.subpictures.map {
          Stream(
            kind: .subtitle, id: $0.streamID, codec: $0.codec, language: $0.language, format: nil,
            rate: nil, channels: nil, codingType: nil, forced: $0.codeExtension == 9,
            coding: .dvdSubtitle)
        }
    }
  }

  /// Blu-ray: the secondary audio streams of the first play item's stream number table (in-mux,
  /// or out-of-mux in a sub-path's clip, ``Stream/subPath``), each with ``Stream/secondary``
  /// `true`; DVD: empty. They are not among ``streams`` (the primary streams, what libbluray's
  /// stream counts and `bd_list_titles` list).
  public var secondaryAudio: [Stream] {
    guard case .bluray(let title) = content else { return [] }
    let stn = title.playlist.playItems.first?.streams ?? StreamNumberTable()
    return stn.secondaryAudio.map {
      var stream = Self.stream($0, .audio)
      stream.secondary = true
      return stream
    }
  }

  /// A Blu-ray STN stream in the façade's form.
  static func stream(_ s: PlaylistStream, _ kind: Stream.Kind) -> Stream {
    var stream = Stream(
      kind: kind, id: Int(s.pid), codec: s.codecName,
      language: s.language.isEmpty || kind == .video ? nil : s.language,
      format: s.formatName, rate: s.rateName, channels: s.channelCount,
      codingType: Int(s.codingType), sampleRate: s.sampleRate,
      dynamicRange: s.dynamicRangeName, colorSpace: s.colorSpaceName,
      coding: StreamCodec.from(streamType: s.codingType))
    if s.entryType != 1 { stream.subPath = Int(s.subPathID) }
    return stream
  }

  /// The typed codec of a DVD audio stream's lsdvd name (``DVDAudioAttributes/codec``).
  static func dvdAudioCoding(_ name: String) -> StreamCodec {
    switch name {
    case "ac3": .ac3
    case "mpeg1", "mpeg2ext": .mpegAudio
    case "lpcm": .dvdLPCM
    case "dts": .dts
    default: .unknown
    }
  }

  /// A Blu-ray play item's clip range: where it plays on the title timeline and where its bytes
  /// are.
  public struct Clip: Sendable, Hashable {
    /// The clip read (`00012`).
    public var clipID: String
    /// The play item's in-time, in the clip's own time base (its PTS epoch).
    public var inTime: MediaTime
    /// The play item's out-time, in the clip's own time base.
    public var outTime: MediaTime
    /// Where the play item starts on the title timeline.
    public var start: MediaTime
    /// The STC sequence of the in and out times.
    public var stcID: Int
    /// The connection condition (1 non-seamless, 5 and 6 seamless).
    public var connectionCondition: Int
    /// The range's source packets (192 bytes) in its stream file.
    public var packets: Range<Int64>
    /// The range's bytes in ``DiscTitle/byteSource()``.
    public var bytes: Range<Int64>
    /// The play item's angles.
    public var angleCount: Int
  }

  /// Blu-ray: each play item's clip range, in play order (at the title's angle); DVD: empty.
  public var clips: [Clip] {
    guard case .bluray(let title) = content else { return [] }
    return title.clips.map { clip in
      // A range ending before it starts (a warning of the title) has no bytes in the title.
      let valid = clip.endPacket >= clip.startPacket
      return Clip(
        clipID: clip.clipID, inTime: MediaTime(ticks45k: clip.inTime),
        outTime: MediaTime(ticks45k: clip.outTime), start: MediaTime(ticks45k: clip.titleTime),
        stcID: Int(clip.stcID), connectionCondition: Int(clip.connectionCondition),
        packets: Int64(clip.startPacket)..<Int64(valid ? clip.endPacket : clip.startPacket),
        bytes: clip.titleOffset..<(clip.titleOffset + (valid ? clip.byteCount : 0)),
        angleCount: title.playlist.playItems[clip.index].angleCount)
    }
  }

  /// Warnings about the title's structure (missing clip information, ...).
  public var warnings: [TitleWarning] {
    switch content {
    case .bluray(let title): title.warnings
    case .dvd: []
    }
  }

  /// The title's bytes as one seekable source (Blu-ray: the clip ranges as libbluray reads them;
  /// DVD: the cells of the angle). Safe for concurrent positional reads.
  public func byteSource() throws(DiscKitError) -> any ByteSource {
    switch content {
    case .bluray(let title): try title.byteSource()
    case .dvd(let title, let disc): try disc.byteSource(title: title, angle: angle)
    }
  }
}
