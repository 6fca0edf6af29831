@_spi(Formats) import DiscKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Builds a playable Blu-ray (BDMV) tree from transport streams, and writes it as a folder or a
/// UDF 2.50/2.60 image.
///
/// Each source clip becomes `BDMV/STREAM/nnnnn.m2ts` (188-byte packets converted to 192-byte
/// source packets with arrival time stamps; 192-byte packets copied) and
/// `BDMV/CLIPINF/nnnnn.clpi` (ClipInfo, SequenceInfo, ProgramInfo from the stream's PMT, an EP
/// map of the video stream's random access points). Each title becomes a playlist
/// (`BDMV/PLAYLIST/nnnnn.mpls`) with one play item per clip, chapter marks and an STN table, a
/// movie object that plays it, and an HDMV title in `index.bdmv` (first play and top menu play
/// title 1). Decoy playlists reproduce the patterns of obfuscated discs.
///
/// ```swift
/// let builder = try BDMVBuilder(clips: ["a.ts", "b.ts"], titles: [.init(clips: ["a.ts", "b.ts"])])
/// try builder.writeImage(to: "disc.iso")
/// ```
///
/// Nothing is left behind on failure: the tree is built in a temporary directory beside the
/// output and renamed (folder) or wrapped and removed (image) at the end.
public struct BDMVBuilder: Sendable {
  /// One play item: a clip (and, for a multi-angle item, the clips of angles 2, 3, ...).
  public struct Item: Sendable, Hashable {
    /// The source clip (a path listed in the builder's clips).
    public var clip: String
    /// The clips of the further angles (same length and timing as `clip`).
    public var angles: [String]
    /// Where the item starts and ends, in seconds from the clip's first frame (nil: the whole
    /// clip).
    public var from: Double?
    public var to: Double?
    /// The connection condition with the item before (1 non-seamless, 5 seamless with a clean
    /// break, 6 seamless with continuous ATC/STC); nil: the builder's ``Connection`` option.
    public var connectionCondition: UInt8?

    public init(
      clip: String, angles: [String] = [], from: Double? = nil, to: Double? = nil,
      connectionCondition: UInt8? = nil
    ) {
      self.clip = clip
      self.angles = angles
      self.from = from
      self.to = to
      self.connectionCondition = connectionCondition
    }
  }

  /// One title: a playlist of play items.
  public struct Title: Sendable, Hashable {
    public var items: [Item]
    /// Chapter spacing in seconds for this title (nil: the builder's option).
    public var chapterInterval: Double?
    /// The playlist number (nil: the next free number).
    public var playlistNumber: Int?
    /// Audio-only clips played beside the title as out-of-mux secondary audio (commentary):
    /// each becomes a sub-path of type 5 (one sub play item from the clip's start, synchronised
    /// with the first play item's in-time) and a secondary audio entry (stream entry type 2,
    /// with the clip's coding and language) in every play item's STN table.
    public var secondaryAudio: [String]

    public init(
      items: [Item], chapterInterval: Double? = nil, playlistNumber: Int? = nil,
      secondaryAudio: [String] = []
    ) {
      self.items = items
      self.chapterInterval = chapterInterval
      self.playlistNumber = playlistNumber
      self.secondaryAudio = secondaryAudio
    }

    /// A title playing `clips` one after the other.
    public init(clips: [String], chapterInterval: Double? = nil, playlistNumber: Int? = nil) {
      self.init(
        items: clips.map { Item(clip: $0) }, chapterInterval: chapterInterval,
        playlistNumber: playlistNumber)
    }
  }

  /// How consecutive play items are connected.
  public enum Connection: String, Sendable, Hashable {
    /// Seamless (connection condition 5) when the next clip starts where the previous one
    /// ends (its first frame's PTS is the previous clip's presentation end), else 1.
    case automatic
    /// Always connection condition 1.
    case nonSeamless
    /// Always connection condition 5 (after the first item).
    case seamless
  }

  /// A decoy playlist: what obfuscated discs add beside the real title.
  public enum Decoy: Sendable, Hashable {
    /// The title's play items with different chapter marks (every other chapter): a duplicate
    /// for DiscKit's smart selector, a distinct title for libbluray.
    case sameSegments(title: Int)
    /// The title's play items, each played `repeats` times in a row (the same clip at the same
    /// in-time): a looping playlist.
    case looping(title: Int, repeats: Int)
    /// The title's play items cut at random access points into `pieces` segments each, in a
    /// shuffled order (seeded): as long as the title, but out of order.
    case shuffled(title: Int, pieces: Int, seed: UInt64)

    /// `count` decoys of `title`, cycling through the three patterns (shuffled ones with
    /// different seeds): the many near-identical playlists of an obfuscated disc.
    public static func obfuscation(title: Int, count: Int) -> [Decoy] {
      (0..<max(0, count)).map { i in
        switch i % 3 {
        case 0: .shuffled(title: title, pieces: 3, seed: UInt64(i))
        case 1: .looping(title: title, repeats: 2)
        default: .sameSegments(title: title)
        }
      }
    }

    var title: Int {
      switch self {
      case .sameSegments(let t), .looping(let t, _), .shuffled(let t, _, _): t
      }
    }
  }

  /// Build options.
  public struct Options: Sendable {
    /// Chapter spacing in seconds (nil or ≤ 0: one chapter per title).
    public var chapterInterval: Double?
    /// The language of audio and subtitle streams whose PMT names none (nil: `und`).
    public var language: String?
    /// How play items connect.
    public var connection: Connection
    /// Decoy playlists, numbered after the titles.
    public var decoys: [Decoy]
    /// Also list decoys as index titles (each with a movie object playing it).
    public var decoysInIndex: Bool
    /// The number of the first playlist and of the first clip.
    public var firstPlaylistNumber: Int
    public var firstClipNumber: Int
    /// The BDMV version of the files written.
    @_spi(Formats)
    public var version: BDMVVersion
    /// Test option: bytes read from a source per call (the output does not depend on it).
    public var readChunkSize: Int
    /// The disc's navigation, written instead of the generated one (one movie object per
    /// title): an index table and movie objects authored by the caller (register arithmetic,
    /// computed `PlayPL`, jumps, menus), for navigation scenarios.
    @_spi(Formats)
    public var navigation: (index: BDMVIndex, movieObjects: MovieObjectFile)? = nil
    /// Files written last by relative path (`BDMV/BDJO/00000.bdjo`, `BDMV/JAR/00000.jar`),
    /// replacing any the builder wrote.
    public var extraFiles: [String: [UInt8]] = [:]

    @_spi(Formats)
    public init(
      chapterInterval: Double? = 300, language: String? = nil,
      connection: Connection = .automatic, decoys: [Decoy] = [], decoysInIndex: Bool = false,
      firstPlaylistNumber: Int = 0, firstClipNumber: Int = 0, version: BDMVVersion = .v0200,
      readChunkSize: Int = 4 << 20
    ) {
      self.readChunkSize = readChunkSize
      self.chapterInterval = chapterInterval
      self.language = language
      self.connection = connection
      self.decoys = decoys
      self.decoysInIndex = decoysInIndex
      self.firstPlaylistNumber = firstPlaylistNumber
      self.firstClipNumber = firstClipNumber
      self.version = version
    }
  }

  /// What was built.
  public struct Result: Sendable {
    /// The clips, in the order given (clip `i` is `clipIDs[i]`).
    public var clips: [BDMVClipAnalysis]
    public var clipIDs: [String]
    /// Every playlist written, by number (titles first, then decoys).
    @_spi(Formats)
    public var playlists: [(number: Int, playlist: MoviePlaylist)]
    /// The playlist number of each title.
    public var titlePlaylists: [Int]
    @_spi(Formats)
    public var index: BDMVIndex
    @_spi(Formats)
    public var movieObjects: MovieObjectFile
    /// The output (folder or image) and, for an image, its size in bytes.
    public var output: String
    public var imageBytes: Int64?
  }

  /// Format limits.
  public static let maxClips = 99_999
  public static let maxPlaylistNumber = 99_999
  public static let maxTitles = 999
  public static let maxPlayItems = 999
  public static let maxMarks = 999
  public static let maxAngles = 9

  /// The source clips, in clip-number order.
  public let clips: [String]
  /// The titles.
  public let titles: [Title]
  public let options: Options
  /// The playlist numbers of the titles and decoys.
  let titleNumbers: [Int]
  let decoyNumbers: [Int]
  /// Total bytes of the sources (for progress).
  public let sourceBytes: Int64

  /// Checks the arguments and that every source can be opened (nothing is written).
  ///
  /// - Parameters:
  ///   - clips: the source transport streams (each listed once).
  ///   - titles: the titles; nil makes one title per clip.
  /// - Throws: ``DiscKitError/Code/invalidArgument`` for inconsistent titles,
  ///   ``DiscKitError/Code/limitExceeded`` past the format's limits (99 999 clips, playlist
  ///   numbers up to 99 999, 999 titles, play items, marks, 9 angles),
  ///   ``DiscKitError/Code/cannotOpen`` for a source that cannot be read.
  @_spi(Formats)
  public init(clips: [String], titles: [Title]? = nil, options: Options = Options())
    throws(DiscKitError)
  {
    guard !clips.isEmpty else {
      throw DiscKitError(.invalidArgument, "BDMV builder", at: nil, "no clips given")
    }
    guard clips.count <= Self.maxClips,
      options.firstClipNumber >= 0, options.firstClipNumber + clips.count - 1 <= Self.maxClips
    else {
      throw DiscKitError(
        .limitExceeded, "BDMV builder", at: nil,
        "\(clips.count) clips numbered from \(options.firstClipNumber): clip numbers are 5 digits (at most \(Self.maxClips))"
      )
    }
    var seen = Set<String>()
    for clip in clips where !seen.insert(clip).inserted {
      throw DiscKitError(.invalidArgument, clip, at: nil, "the clip is listed twice")
    }
    let titles = titles ?? clips.map { Title(clips: [$0]) }
    guard !titles.isEmpty else {
      throw DiscKitError(.invalidArgument, "BDMV builder", at: nil, "no titles given")
    }
    let indexTitles = titles.count + (options.decoysInIndex ? options.decoys.count : 0)
    guard indexTitles <= Self.maxTitles else {
      throw DiscKitError(
        .limitExceeded, "index.bdmv", at: nil,
        "\(indexTitles) titles; an HDMV disc holds at most \(Self.maxTitles)")
    }
    for (t, title) in titles.enumerated() {
      guard !title.items.isEmpty, title.items.count <= Self.maxPlayItems else {
        throw DiscKitError(
          .limitExceeded, "title \(t + 1)", at: nil,
          "\(title.items.count) play items; a playlist holds 1 to \(Self.maxPlayItems)")
      }
      for clip in title.secondaryAudio where !seen.contains(clip) {
        throw DiscKitError(
          .invalidArgument, "title \(t + 1)", at: nil, "\(clip) is not one of the clips")
      }
      guard title.secondaryAudio.count <= 32 else {
        throw DiscKitError(
          .limitExceeded, "title \(t + 1)", at: nil,
          "\(title.secondaryAudio.count) secondary audio clips; an STN table holds 32")
      }
      for item in title.items {
        for clip in [item.clip] + item.angles where !seen.contains(clip) {
          throw DiscKitError(
            .invalidArgument, "title \(t + 1)", at: nil, "\(clip) is not one of the clips")
        }
        guard item.angles.count + 1 <= Self.maxAngles else {
          throw DiscKitError(
            .limitExceeded, "title \(t + 1)", at: nil,
            "\(item.angles.count + 1) angles; a play item holds at most \(Self.maxAngles)")
        }
        if let cc = item.connectionCondition, ![1, 5, 6].contains(cc) {
          throw DiscKitError(
            .invalidArgument, "title \(t + 1)", at: nil,
            "item \(item.clip): connection condition \(cc); Blu-ray uses 1, 5 and 6")
        }
        if let from = item.from, let to = item.to, !(from >= 0 && to > from) {
          throw DiscKitError(
            .invalidArgument, "title \(t + 1)", at: nil,
            "item \(item.clip) from \(from) s to \(to) s is not a range")
        }
      }
    }
    for decoy in options.decoys {
      guard decoy.title >= 0, decoy.title < titles.count else {
        throw DiscKitError(
          .invalidArgument, "decoy playlist", at: nil,
          "refers to title index \(decoy.title); there are \(titles.count) titles")
      }
      switch decoy {
      case .looping(_, let repeats) where repeats < 2:
        throw DiscKitError(.invalidArgument, "decoy playlist", at: nil, "repeats must be ≥ 2")
      case .shuffled(_, let pieces, _) where pieces < 2:
        throw DiscKitError(.invalidArgument, "decoy playlist", at: nil, "pieces must be ≥ 2")
      default: break
      }
    }

    // Playlist numbers: explicit ones, then the next free numbers.
    var used = Set<Int>()
    for title in titles {
      if let n = title.playlistNumber {
        guard n >= 0, n <= Self.maxPlaylistNumber, used.insert(n).inserted else {
          throw DiscKitError(
            .invalidArgument, "playlist \(n)", at: nil,
            "playlist numbers are unique and 0...\(Self.maxPlaylistNumber)")
        }
      }
    }
    var next = max(0, options.firstPlaylistNumber)
    func allocate() throws(DiscKitError) -> Int {
      while used.contains(next) { next += 1 }
      guard next <= Self.maxPlaylistNumber else {
        throw DiscKitError(
          .limitExceeded, "BDMV/PLAYLIST", at: nil,
          "\(titles.count) titles and \(options.decoys.count) decoys need playlist numbers past \(Self.maxPlaylistNumber) (5 digits)"
        )
      }
      used.insert(next)
      return next
    }
    var titleNumbers: [Int] = []
    for title in titles {
      if let n = title.playlistNumber {
        titleNumbers.append(n)
      } else {
        titleNumbers.append(try allocate())
      }
    }
    var decoyNumbers: [Int] = []
    for _ in options.decoys { decoyNumbers.append(try allocate()) }

    // Every source must open (unreadable and missing files fail before anything is written).
    var total: Int64 = 0
    for clip in clips {
      let source = try FileByteSource(path: clip)
      total += source.size
    }

    self.clips = clips
    self.titles = titles
    self.options = options
    self.titleNumbers = titleNumbers
    self.decoyNumbers = decoyNumbers
    self.sourceBytes = total
  }

  /// The 5-digit clip id of clip `index`.
  func clipID(_ index: Int) -> String { Self.fiveDigits(options.firstClipNumber + index) }

  /// `n` as a 5-digit file number (`00800`).
  public static func fiveDigits(_ n: Int) -> String {
    let s = String(n)
    return String(repeating: "0", count: max(0, 5 - s.count)) + s
  }

  // MARK: Writing

  /// Writes the BDMV tree as the folder `destination` (holding `BDMV/` and `CERTIFICATE/`).
  ///
  /// - Parameter destination: must not exist, or be an empty directory.
  /// - Parameter progress: called with (source bytes converted, total source bytes).
  public func writeFolder(to destination: String, progress: ((Int64, Int64) -> Void)? = nil)
    throws(DiscKitError) -> Result
  {
    if LocalPath.exists(destination) {
      guard LocalPath.isDirectory(destination), LocalPath.isEmptyDirectory(destination) else {
        throw DiscKitError(
          .alreadyExists, destination, at: nil,
          "already exists; the output folder must be new or an empty directory")
      }
    }
    let staging = try StagingTree(beside: destination)
    var result = try build(into: staging, progress: progress)
    try staging.commit(to: destination)
    result.output = destination
    return result
  }

  /// Builds the tree in a temporary folder beside `destination` and wraps it into a UDF image
  /// with ``UDFImageWriter`` (atomically); the temporary folder is removed in every case.
  public func writeImage(
    to destination: String, udf: UDFImageWriter.Options = UDFImageWriter.Options(),
    overwrite: Bool = false, progress: ((Int64, Int64) -> Void)? = nil
  ) throws(DiscKitError) -> Result {
    if LocalPath.exists(destination) && !overwrite {
      throw DiscKitError(
        .alreadyExists, destination, at: nil, "already exists")
    }
    let staging = try StagingTree(beside: destination)
    defer { staging.remove() }
    var result = try build(into: staging, progress: progress)
    if let time = udf.recordingTime { staging.setTimes(time) }
    var udf = udf
    if udf.volumeLabel == nil {
      // The image's name without its extension, not the temporary folder's.
      let name = destination.split(separator: "/").last.map(String.init) ?? "BLURAY"
      let stem = name.split(separator: ".").first.map(String.init) ?? ""
      udf.volumeLabel = String(stem.prefix(32)).isEmpty ? "BLURAY" : String(stem.prefix(32))
    }
    let writer = try UDFImageWriter(folder: staging.root, options: udf)
    try writer.write(to: destination, overwrite: overwrite)
    result.output = destination
    result.imageBytes = writer.imageSize
    return result
  }

  /// Converts the clips and writes every BDMV file into `staging`.
  func build(into staging: StagingTree, progress: ((Int64, Int64) -> Void)?) throws(DiscKitError)
    -> Result
  {
    let directories = [
      "BDMV", "BDMV/PLAYLIST", "BDMV/CLIPINF", "BDMV/STREAM", "BDMV/AUXDATA", "BDMV/BDJO",
      "BDMV/JAR", "BDMV/META", "BDMV/BACKUP", "BDMV/BACKUP/PLAYLIST", "BDMV/BACKUP/CLIPINF",
      "BDMV/BACKUP/BDJO", "CERTIFICATE", "CERTIFICATE/BACKUP",
    ]
    for d in directories { try staging.makeDirectory(d) }

    var analyses: [BDMVClipAnalysis] = []
    var done: Int64 = 0
    for (i, clip) in clips.enumerated() {
      let id = clipID(i)
      let path = staging.path("BDMV/STREAM/\(id).m2ts")
      staging.track(path)
      let base = done
      let analysis = try ClipConverter.convert(
        source: clip, to: path, language: options.language, chunkSize: options.readChunkSize
      ) { bytes in progress?(base + bytes, sourceBytes) }
      done += (try? FileByteSource(path: clip).size) ?? 0
      analyses.append(analysis)
      let clpi = analysis.clipInformation()
      try staging.writeFile("BDMV/CLIPINF/\(id).clpi", clpi.serialize(), backup: true)
    }

    var plan = PlaylistPlanner(builder: self, analyses: analyses)
    var playlists: [(number: Int, playlist: MoviePlaylist)] = []
    for (t, title) in titles.enumerated() {
      playlists.append((titleNumbers[t], try plan.playlist(for: title, index: t)))
    }
    for (d, decoy) in options.decoys.enumerated() {
      playlists.append((decoyNumbers[d], try plan.decoy(decoy)))
    }
    for (number, playlist) in playlists {
      try staging.writeFile(
        "BDMV/PLAYLIST/\(Self.fiveDigits(number)).mpls", playlist.serialize(), backup: true)
    }

    // Navigation: one movie object per index title, each playing its playlist; first play and
    // the top menu play title 1.
    var played = titleNumbers
    if options.decoysInIndex { played += decoyNumbers }
    var objects = played.map {
      MovieObjectFile.MovieObject(commands: [.playPlaylist(UInt32($0))])
    }
    objects.append(MovieObjectFile.MovieObject(commands: [.playPlaylist(UInt32(titleNumbers[0]))]))
    var movieObjects = MovieObjectFile(version: options.version, objects: objects)
    var index = BDMVIndex(
      version: options.version, firstPlay: .hdmv(movieObject: 0, playbackType: 0),
      topMenu: .hdmv(movieObject: UInt16(objects.count - 1), playbackType: 1),
      titles: played.indices.map {
        BDMVIndex.Title(object: .hdmv(movieObject: UInt16($0), playbackType: 0))
      })
    if let navigation = options.navigation { (index, movieObjects) = navigation }
    try staging.writeFile("BDMV/index.bdmv", index.serialize(), backup: true)
    try staging.writeFile("BDMV/MovieObject.bdmv", movieObjects.serialize(), backup: true)
    try staging.writeExtraFiles(options.extraFiles)

    return Result(
      clips: analyses, clipIDs: clips.indices.map(clipID), playlists: playlists,
      titlePlaylists: titleNumbers, index: index, movieObjects: movieObjects,
      output: staging.root, imageBytes: nil)
  }
}

/// Computes play items, STN tables and chapter marks.
struct PlaylistPlanner {
  let builder: BDMVBuilder
  let analyses: [BDMVClipAnalysis]
  let clipIndex: [String: Int]
  var titlePlaylists: [Int: MoviePlaylist] = [:]

  init(builder: BDMVBuilder, analyses: [BDMVClipAnalysis]) {
    self.builder = builder
    self.analyses = analyses
    var map: [String: Int] = [:]
    for (i, c) in builder.clips.enumerated() { map[c] = i }
    clipIndex = map
  }

  /// One planned play item: which clip, and its in/out times (45 kHz).
  struct Segment {
    var clip: Int
    var angles: [Int]
    var inTime: UInt32
    var outTime: UInt32
    var wholeClip: Bool
    var connection: UInt8? = nil
    /// The clip's STC sequence the item plays (`ref_to_STC_id`).
    var stc: Int = 0
  }

  func analysis(_ path: String) -> (Int, BDMVClipAnalysis) {
    let i = clipIndex[path] ?? 0
    return (i, analyses[i])
  }

  func segments(of title: BDMVBuilder.Title, index t: Int) throws(DiscKitError) -> [Segment] {
    var result: [Segment] = []
    for item in title.items {
      let (c, a) = analysis(item.clip)
      for clip in [item.clip] + item.angles where analysis(clip).1.isAudioOnly {
        throw DiscKitError(
          .invalidArgument, "title \(t + 1)", at: nil,
          "\(clip) has no video: an audio-only clip plays beside a title (secondary audio), "
            + "not as a play item")
      }
      if a.sequences.count > 1 {
        // A clip whose time base restarts: one play item per STC sequence (an item's in and out
        // times lie in one sequence), each the whole sequence.
        guard item.from == nil, item.to == nil, item.angles.isEmpty else {
          throw DiscKitError(
            .unsupported, "title \(t + 1)", at: nil,
            "\(item.clip) has \(a.sequences.count) STC sequences: it plays whole, without angles")
        }
        for (k, stc) in a.sequences.enumerated() {
          result.append(
            Segment(
              clip: c, angles: [], inTime: stc.inTime45k, outTime: stc.outTime45k,
              wholeClip: true, stc: k))
        }
        continue
      }
      var inTime = a.inTime45k
      var outTime = a.outTime45k
      if let from = item.from {
        inTime = a.inTime45k &+ UInt32(min(Double(a.duration90k / 2), max(0, from * 45000)))
      }
      if let to = item.to {
        outTime = a.inTime45k &+ UInt32(min(Double(a.duration90k / 2), max(0, to * 45000)))
      }
      guard outTime &- inTime > 0, outTime &- inTime <= UInt32(a.duration90k / 2 + 1) else {
        throw DiscKitError(
          .invalidArgument, "title \(t + 1)", at: nil,
          "item \(item.clip) from \(item.from ?? 0) s to \(item.to ?? 0) s lies outside the clip's "
            + "\(Double(a.duration90k) / 90000) s")
      }
      var angles: [Int] = []
      for angle in item.angles {
        let (ac, aa) = analysis(angle)
        let drift = Int64(bitPattern: aa.presentationStart90k &- a.presentationStart90k)
        guard abs(drift) <= 1800, aa.duration90k + 1800 >= a.duration90k else {
          throw DiscKitError(
            .invalidArgument, "title \(t + 1)", at: nil,
            "angle clip \(angle) does not cover the timing of \(item.clip) (starts at PTS "
              + "\(aa.presentationStart90k) vs \(a.presentationStart90k), lasts \(aa.duration90k) vs \(a.duration90k))"
          )
        }
        angles.append(ac)
      }
      result.append(
        Segment(
          clip: c, angles: angles, inTime: inTime, outTime: outTime,
          wholeClip: item.from == nil && item.to == nil, connection: item.connectionCondition))
    }
    return result
  }

  /// The STN table from the clip's streams.
  func streamTable(_ a: BDMVClipAnalysis) throws(DiscKitError) -> StreamNumberTable {
    var table = StreamNumberTable()
    for s in a.streams {
      var stream = PlaylistStream(
        pid: s.pid, codingType: s.codingType, format: s.format, rate: s.rate,
        language: s.language)
      if s.codingType == 0x24 {
        stream.dynamicRangeType = s.dynamicRangeType
        stream.colorSpace = s.colorSpace
        stream.hdrPlusFlag = s.hdrPlusFlag
        stream.crFlag = s.crFlag
      }
      switch stream.kind {
      case .video where table.video.isEmpty && s.pid == a.videoPID: table.video.append(stream)
      case .video where s.pid == a.enhancementLayerPID: table.dolbyVision.append(stream)
      case .audio: table.audio.append(stream)
      case .presentationGraphics: table.presentationGraphics.append(stream)
      case .interactiveGraphics: table.interactiveGraphics.append(stream)
      default: break
      }
    }
    guard table.audio.count <= 32, table.presentationGraphics.count <= 255 else {
      throw DiscKitError(
        .limitExceeded, a.source, at: nil,
        "\(table.audio.count) audio and \(table.presentationGraphics.count) subtitle streams; "
          + "an STN table holds 32 audio and 255 subtitle streams")
    }
    return table
  }

  func playItems(_ segments: [Segment]) throws(DiscKitError) -> [PlayItem] {
    var items: [PlayItem] = []
    for (k, s) in segments.enumerated() {
      let a = analyses[s.clip]
      var connection: UInt8 = 1
      if k > 0, let explicit = s.connection {
        connection = explicit
      } else if k > 0 {
        switch builder.options.connection {
        case .nonSeamless: connection = 1
        case .seamless: connection = 5
        case .automatic:
          let p = segments[k - 1]
          let prev = analyses[p.clip]
          let gap =
            Int64(
              bitPattern: (a.sequences[s.stc].start90k &- prev.sequences[p.stc].end90k) << 31)
            >> 31
          let tolerance = Int64(90000 / max(1, prev.frameRate) / 2)
          if p.wholeClip, s.wholeClip, p.clip != s.clip, abs(gap) <= tolerance,
            a.videoCodec == prev.videoCodec
          {
            connection = 5
          }
        }
      }
      let clips = ([s.clip] + s.angles).map {
        PlayItemClip(clipID: builder.clipID($0), stcID: UInt8(clamping: s.stc))
      }
      // A multi-angle item in a seamless chain changes angle seamlessly (its clips' EP maps
      // mark every entry point as an angle change point), as feature discs author it.
      let seamlessAngle = clips.count > 1 && (connection == 5 || connection == 6)
      items.append(
        PlayItem(
          clips: clips, connectionCondition: connection, inTime: s.inTime, outTime: s.outTime,
          isSeamlessAngle: seamlessAngle, streams: try streamTable(a)))
    }
    return items
  }

  /// Chapter marks at the start and every `interval` seconds of title time, each at the
  /// nearest random access point at or before it.
  func marks(_ segments: [Segment], interval: Double?) throws(DiscKitError) -> [PlaylistMark] {
    var marks = [PlaylistMark(playItemRef: 0, time: segments.first?.inTime ?? 0)]
    guard let interval, interval > 0 else { return marks }
    let step = UInt64(interval * 45000)
    guard step > 0 else { return marks }
    var itemStart: UInt64 = 0
    var target = step
    for (k, s) in segments.enumerated() {
      let length = UInt64(s.outTime &- s.inTime)
      let a = analyses[s.clip]
      let origin = a.sequences[s.stc].start90k
      func offset(_ pts: UInt64) -> UInt64 { (pts &- origin) & BDMVClipAnalysis.ptsMask }
      let entries = a.entryPoints(stc: s.stc)
      while target < itemStart + length {
        let clipTime = s.inTime &+ UInt32(target - itemStart)
        // The last entry point at or before clipTime, not before the item's in-time.
        let goal = offset(UInt64(clipTime) << 1)
        let floor = offset(UInt64(s.inTime) << 1)
        var best: UInt64?
        for e in entries {
          let o = offset(e.pts90k)
          if o <= goal && o >= floor { best = max(best ?? 0, o) }
        }
        if let best {
          let time = UInt32(
            truncatingIfNeeded: ((origin &+ best) & BDMVClipAnalysis.ptsMask) >> 1)
          let mark = PlaylistMark(playItemRef: UInt16(k), time: time)
          if let last = marks.last, last.playItemRef == mark.playItemRef, last.time == mark.time {
          } else {
            marks.append(mark)
          }
        }
        target += step
        guard marks.count <= BDMVBuilder.maxMarks else {
          throw DiscKitError(
            .limitExceeded, "playlist marks", at: nil,
            "chapters every \(interval) s make more than \(BDMVBuilder.maxMarks) marks")
        }
      }
      itemStart += length
    }
    return marks
  }

  mutating func playlist(for title: BDMVBuilder.Title, index t: Int) throws(DiscKitError)
    -> MoviePlaylist
  {
    let segments = try segments(of: title, index: t)
    var items = try playItems(segments)
    let (subPaths, secondary) = try secondaryAudio(title, index: t, items: items)
    for k in items.indices { items[k].streams.secondaryAudio = secondary }
    let playlist = MoviePlaylist(
      version: builder.options.version, playItems: items, subPaths: subPaths,
      marks: try marks(segments, interval: title.chapterInterval ?? builder.options.chapterInterval)
    )
    titlePlaylists[t] = playlist
    return playlist
  }

  /// The sub-paths (type 5, out-of-mux synchronous) of a title's secondary audio clips and
  /// their STN entries (stream entry type 2: sub-path `k`, sub-clip 0, the clip's audio PID).
  func secondaryAudio(_ title: BDMVBuilder.Title, index t: Int, items: [PlayItem])
    throws(DiscKitError) -> ([SubPath], [PlaylistStream])
  {
    var subPaths: [SubPath] = []
    var streams: [PlaylistStream] = []
    let length = items.reduce(UInt32(0)) { $0 &+ $1.duration45k }
    for (k, path) in title.secondaryAudio.enumerated() {
      let (c, a) = analysis(path)
      guard a.isAudioOnly, let audio = a.streams.first(where: { $0.pid == a.videoPID }) else {
        throw DiscKitError(
          .invalidArgument, "title \(t + 1)", at: nil,
          "\(path) carries video: secondary audio clips are audio only")
      }
      let sub = SubPlayItem(
        clips: [PlayItemClip(clipID: builder.clipID(c))], inTime: a.inTime45k,
        outTime: a.inTime45k &+ min(UInt32(clamping: a.duration90k / 2), length),
        syncPlayItemID: 0, syncPTS: items.first?.inTime ?? 0)
      subPaths.append(SubPath(type: 5, items: [sub]))
      streams.append(
        PlaylistStream(
          entryType: 2, pid: audio.pid, subPathID: UInt8(k), subClipID: 0,
          codingType: audio.codingType, format: audio.format, rate: audio.rate,
          language: audio.language))
    }
    return (subPaths, streams)
  }

  func decoy(_ decoy: BDMVBuilder.Decoy) throws(DiscKitError) -> MoviePlaylist {
    let title = builder.titles[decoy.title]
    let base = try segments(of: title, index: decoy.title)
    let version = builder.options.version
    switch decoy {
    case .sameSegments:
      let original = titlePlaylists[decoy.title]?.marks ?? []
      var marks = original.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
      if marks.count == original.count {
        // One chapter only: add a mark halfway so the playlist differs.
        let s = base[0]
        marks.append(PlaylistMark(playItemRef: 0, time: s.inTime &+ (s.outTime &- s.inTime) / 2))
      }
      return MoviePlaylist(version: version, playItems: try playItems(base), marks: marks)
    case .looping(_, let repeats):
      var segments: [Segment] = []
      for s in base { for _ in 0..<repeats { segments.append(s) } }
      guard segments.count <= BDMVBuilder.maxPlayItems else {
        throw DiscKitError(
          .limitExceeded, "decoy playlist", at: nil,
          "\(segments.count) play items; a playlist holds at most \(BDMVBuilder.maxPlayItems)")
      }
      return MoviePlaylist(
        version: version, playItems: try playItems(segments),
        marks: [PlaylistMark(playItemRef: 0, time: segments[0].inTime)])
    case .shuffled(_, let pieces, let seed):
      var segments: [Segment] = []
      for s in base {
        let a = analyses[s.clip]
        // Cut points: entry points inside the item, evenly chosen.
        let inside = a.entryPoints(stc: s.stc).map { UInt32(truncatingIfNeeded: $0.pts90k >> 1) }
          .filter {
            $0 &- s.inTime > 0 && $0 &- s.inTime < s.outTime &- s.inTime
          }
        var cuts: [UInt32] = []
        if !inside.isEmpty {
          for p in 1..<pieces {
            let c = inside[min(inside.count - 1, p * inside.count / pieces)]
            if !cuts.contains(c) { cuts.append(c) }
          }
        }
        var start = s.inTime
        for c in cuts.sorted(by: { $0 &- s.inTime < $1 &- s.inTime }) {
          segments.append(
            Segment(
              clip: s.clip, angles: s.angles, inTime: start, outTime: c, wholeClip: false,
              stc: s.stc))
          start = c
        }
        segments.append(
          Segment(
            clip: s.clip, angles: s.angles, inTime: start, outTime: s.outTime, wholeClip: false,
            stc: s.stc))
      }
      // A seeded Fisher-Yates shuffle (SplitMix64) that never keeps the original order.
      var state = seed &+ 0x9E37_79B9_7F4A_7C15
      func random(_ n: Int) -> Int {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(n))
      }
      var order = Array(segments.indices)
      if order.count > 1 {
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, random(i + 1)) }
        if order == Array(segments.indices) { order.swapAt(0, 1) }
      }
      let shuffled = order.map { segments[$0] }
      guard shuffled.count <= BDMVBuilder.maxPlayItems else {
        throw DiscKitError(
          .limitExceeded, "decoy playlist", at: nil,
          "\(shuffled.count) play items; a playlist holds at most \(BDMVBuilder.maxPlayItems)")
      }
      return MoviePlaylist(
        version: version, playItems: try playItems(shuffled),
        marks: [PlaylistMark(playItemRef: 0, time: shuffled[0].inTime)])
    }
  }
}
