/// The document `disckit titles` prints as JSON, `GET /discs/{id}/titles` serves and each
/// batch line of `disckit titles` carries: one shape for Blu-ray and DVD.
///
/// Its JSON Schema is `Sources/DiscKit/Documents/Schemas/titles.schema.json`. Times are 90 kHz
/// ticks (`…90k`) with a readable `duration`; sizes and offsets are bytes.
public struct TitlesDocument: Codable, Sendable, Hashable {
  /// A chapter.
  public struct Chapter: Codable, Sendable, Hashable {
    /// 1-based chapter number.
    public var number: Int
    /// Start on the title timeline (90 kHz).
    public var start90k: Int64
    /// Duration (90 kHz).
    public var duration90k: Int64
    /// Blu-ray: the chapter's first byte in the title; absent on a DVD.
    public var offset: Int64?
  }

  /// A stream.
  public struct Stream: Codable, Sendable, Hashable {
    /// PID (Blu-ray) or stream id (DVD).
    public var id: Int
    /// Readable codec name.
    public var codec: String
    /// Blu-ray `stream_coding_type`.
    public var codingType: Int?
    /// ISO 639-2 language code.
    public var language: String?
    /// Video format or audio presentation.
    public var format: String?
    /// Frame rate or sample rate.
    public var rate: String?
    /// Audio channels (DVD; Blu-ray mono and stereo, whose presentation type implies the count).
    public var channels: Int?
    /// Audio sample rate in hertz, when the disc states it.
    public var sampleRate: Int? = nil
    /// Audio bits per sample, when the disc states it.
    public var bitDepth: Int? = nil
    /// Blu-ray HEVC video: `SDR`, `HDR10`, `HDR10+` or `Dolby Vision`.
    public var dynamicRange: String? = nil
    /// Blu-ray HEVC video: `BT.709` or `BT.2020`.
    public var colorSpace: String? = nil
    /// `true` for a Dolby Vision enhancement-layer video stream.
    public var enhancementLayer: Bool? = nil
    /// DVD subpictures: forced display; absent on a Blu-ray (the STN does not say).
    public var forced: Bool? = nil
    /// Blu-ray secondary audio: `true`.
    public var secondary: Bool? = nil
    /// Blu-ray: the sub-path carrying an out-of-mux stream (not in the title's M2TS bytes).
    public var subPath: Int? = nil
  }

  /// A title's streams by kind.
  public struct Streams: Codable, Sendable, Hashable {
    public var video: [Stream]
    public var audio: [Stream]
    /// Blu-ray presentation graphics, DVD subpictures.
    public var subtitles: [Stream]
    /// Blu-ray interactive graphics (menus).
    public var interactive: [Stream]
    /// Blu-ray: secondary audio streams (picture-in-picture commentary), counted.
    public var secondaryAudio: Int?
    /// Blu-ray: secondary video streams, counted.
    public var secondaryVideo: Int?
    /// Blu-ray: the secondary audio streams themselves (absent when there are none).
    public var secondaryAudioStreams: [Stream]? = nil
  }

  /// A Blu-ray play item's clip range.
  public struct Clip: Codable, Sendable, Hashable {
    /// The clip read, e.g. `00012`.
    public var clip: String
    /// In and out time in the clip's own time base (90 kHz).
    public var in90k: Int64
    public var out90k: Int64
    /// Where the clip starts on the title timeline (90 kHz).
    public var start90k: Int64
    /// STC sequence.
    public var stc: Int
    /// Connection condition (1 non-seamless, 5/6 seamless).
    public var connection: Int
    /// Source packets of the clip's range in its stream file.
    public var startPacket: Int64
    public var endPacket: Int64
    /// Bytes of the range.
    public var size: Int64
    /// Angles of the play item.
    public var angles: Int
  }

  /// DVD details of a title.
  public struct DVDDetails: Codable, Sendable, Hashable {
    /// Video attributes of the title set.
    public struct Video: Codable, Sendable, Hashable {
      public var format: String
      public var aspect: String
      public var width: Int
      public var height: Int
    }
    /// Title set (VTS) and title number in it (TTN).
    public var titleSet: Int
    public var titleInSet: Int
    /// Cells played (angle 1).
    public var cells: Int
    /// The length lsdvd prints (milliseconds, from the first PGC).
    public var lsdvdLengthMs: Int?
    public var video: Video?
  }

  /// Another version of the main title (``TitleList/Version``).
  public struct Version: Codable, Sendable, Hashable {
    /// The title's key (`00801`).
    public var key: String
    /// `extended`, `alternate`, `shorter`, `commentary` or `streams`.
    public var kind: String
    /// Its duration minus the main title's (90 kHz).
    public var durationDifference90k: Int64
    /// Its audio and subtitle streams minus the main title's.
    public var audioStreams: Int
    public var subtitleStreams: Int
    /// What differs, in words.
    public var detail: String
  }

  /// A clip whose menu was read (``TitleList/MenuRead``).
  public struct MenuRead: Codable, Sendable, Hashable {
    /// The clip, e.g. `00050`.
    public var clip: String
    /// Bytes of the clip's stream file read.
    public var bytes: Int64
    /// The menu's buttons; absent when what was read holds no complete composition.
    public var buttons: Int?
    /// Why the stream file could not be read or its menu parsed.
    public var error: String?
  }

  /// One title.
  public struct Title: Codable, Sendable, Hashable {
    /// 1-based number as `disckit titles` numbers it (`null` for a Blu-ray playlist set aside).
    public var number: Int?
    /// The key naming the title: playlist number on a Blu-ray (`"00800"`), title number on a DVD.
    public var key: String
    /// Whether this is the main title.
    public var main: Bool
    /// Why the selection set it aside (listed only when asked for).
    public var excluded: String?
    /// Duration (90 kHz) and as `h:mm:ss.mmm`; absent when the title cannot be read.
    public var duration90k: Int64?
    public var duration: String?
    /// Bytes a player reads for angle 1.
    public var size: Int64?
    /// Angles.
    public var angles: Int
    public var chapters: [Chapter]
    public var streams: Streams
    /// Blu-ray: the playlist file, its clips and the navigation titles that play it.
    public var playlist: String?
    public var clips: [Clip]?
    public var playedByTitles: [Int]?
    /// DVD: title set, cells, video attributes.
    public var dvd: DVDDetails?
    /// Structural warnings.
    public var warnings: [String]?
    /// Why the title could not be read.
    public var error: String?
  }

  /// The path as given.
  public var source: String
  /// `bluray`, `uhd-bluray`, `avchd` or `dvd`.
  public var kind: DiscKind
  /// Volume label.
  public var label: String
  /// The selection used.
  public var selection: TitleSelection
  /// The main title's key and number.
  public var main: String?
  public var mainNumber: Int?
  /// Why the main title was chosen.
  public var reason: String
  /// What decided the main title: `named`, `navigation`, `heuristic` or `ambiguous`.
  public var confidence: TitleConfidence?
  /// The evidence for the main title and against the titles it was preferred to.
  public var evidence: [TitleEvidence]?
  /// When `confidence` is `ambiguous`: the keys of the indistinguishable titles.
  public var candidates: [String]?
  /// Blu-ray (smart selection): the clips whose menus were read from their stream files for
  /// this listing (to decide the main title, when they could change it, and to find episodes),
  /// with the bytes read; empty when no stream file was read.
  public var menusRead: [MenuRead]? = nil
  /// Blu-ray: other versions of the main title (other cuts, the same cut with other streams).
  public var versions: [Version]? = nil
  public var titles: [Title]
  /// Disc-level warnings (files replaced by their backup copies, unreadable files, ...).
  public var warnings: [String]?
  /// The disc's episodes (``EpisodeList``): whether it is episodic, each episode once in playing
  /// order, the play-all and the extras; with ``TitleSelection/smart`` only.
  public var episodes: EpisodeList? = nil
}

extension TitlesDocument {
  /// The document for `disc` as `selection` lists it.
  public init(
    disc: Disc, selection: TitleSelection = .smart, includeExcluded: Bool = false,
    minimumLength: MediaTime? = nil
  ) throws(DiscKitError) {
    let list = try disc.titleList(
      selection: selection, includeExcluded: includeExcluded, minimumLength: minimumLength)
    var titles: [Title] = []
    for entry in list.entries { titles.append(Self.title(disc, entry)) }
    let warnings = disc.warnings.map(\.description)
    self.init(
      source: disc.image.path, kind: disc.kind, label: disc.label, selection: selection,
      main: list.mainKey, mainNumber: list.entries.first { $0.isMain }?.number,
      reason: list.reason, confidence: list.confidence,
      evidence: list.evidence.isEmpty ? nil : list.evidence,
      candidates: list.candidates.isEmpty ? nil : list.candidates,
      titles: titles, warnings: warnings.isEmpty ? nil : warnings)
    if !list.versions.isEmpty {
      versions = list.versions.map {
        Version(
          key: $0.key, kind: $0.kind, durationDifference90k: $0.durationDifference.ticks,
          audioStreams: $0.audioDifference, subtitleStreams: $0.subtitleDifference,
          detail: $0.detail)
      }
    }
    if selection == .smart { episodes = try disc.episodeList(mainKey: list.mainKey) }
    // Every menu read for this document: the selection's (when they could change the main
    // title) and the episode search's.
    if selection == .smart, case .bluray(let bluray) = disc.navigation {
      menusRead = bluray.menus.all.map {
        MenuRead(
          clip: $0.clip, bytes: $0.bytesRead, buttons: $0.composition?.buttonCount,
          error: $0.error.map { "\($0)" })
      }
    }
  }

  private static func streams(_ title: DiscTitle) -> Streams {
    let all = title.streams
    func document(_ s: DiscTitle.Stream) -> Stream {
      Stream(
        id: s.id, codec: s.codec, codingType: s.codingType, language: s.language,
        format: s.format,
        rate: s.rate, channels: s.channels, sampleRate: s.sampleRate, bitDepth: s.bitDepth,
        dynamicRange: s.dynamicRange, colorSpace: s.colorSpace,
        enhancementLayer: s.enhancementLayer, forced: s.forced, secondary: s.secondary,
        subPath: s.subPath)
    }
    func pick(_ kind: DiscTitle.Stream.Kind) -> [Stream] {
      all.filter { $0.kind == kind }.map(document)
    }
    var streams = Streams(
      video: pick(.video), audio: pick(.audio), subtitles: pick(.subtitle),
      interactive: pick(.interactive))
    if let secondary = title.secondaryStreamCounts {
      streams.secondaryAudio = secondary.audio
      streams.secondaryVideo = secondary.video
    }
    let secondaryAudio = title.secondaryAudio
    if !secondaryAudio.isEmpty { streams.secondaryAudioStreams = secondaryAudio.map(document) }
    return streams
  }

  private static func title(_ disc: Disc, _ entry: TitleList.Entry) -> Title {
    var row = Title(
      number: entry.number, key: entry.key, main: entry.isMain,
      excluded: entry.excluded?.description,
      duration90k: nil, duration: nil, size: nil, angles: 0, chapters: [],
      streams: Streams(video: [], audio: [], subtitles: [], interactive: []))
    row.angles = entry.angleCount ?? 0
    row.duration90k = entry.duration?.ticks
    row.duration = entry.duration?.description
    if let placement = entry.dvdTitleSet {
      row.dvd = DVDDetails(titleSet: placement.set, titleInSet: placement.title, cells: 0)
    }
    if disc.kind != .dvd {
      row.playlist = entry.key + ".mpls"
      row.playedByTitles = entry.playedByTitles
      guard entry.angleCount != nil else {
        row.excluded = row.excluded ?? TitleExclusion.unreadable(nil).description
        row.error = entry.error.map { "\($0)" }
        return row
      }
    }
    let title: DiscTitle
    do {
      title = try disc.title(key: entry.key)
    } catch {
      row.error = "\(error)"
      return row
    }
    row.duration90k = title.duration.ticks
    row.duration = title.duration.description
    row.size = title.size
    row.angles = title.angleCount
    row.chapters = title.chapters.map {
      Chapter(
        number: $0.number, start90k: $0.start.ticks, duration90k: $0.duration.ticks,
        offset: $0.offset)
    }
    row.streams = streams(title)
    row.warnings = title.warnings.isEmpty ? nil : title.warnings.map(\.description)
    if disc.kind != .dvd {
      row.clips = title.clips.map {
        Clip(
          clip: $0.clipID, in90k: $0.inTime.ticks, out90k: $0.outTime.ticks,
          start90k: $0.start.ticks, stc: $0.stcID, connection: $0.connectionCondition,
          startPacket: $0.packets.lowerBound, endPacket: $0.packets.upperBound,
          size: Int64($0.bytes.count), angles: $0.angleCount)
      }
    }
    row.dvd = title.dvdDetails ?? row.dvd
    return row
  }
}
