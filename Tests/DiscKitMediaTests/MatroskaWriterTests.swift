@_spi(Formats) import DiscKit
import DiscKitAuthoring
import DiscKitMedia
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Matroska output checked against the reference tools: mkvmerge and ffprobe read the tracks,
/// languages and chapters libbluray / lsdvd report; the duration is the playlist's; ffmpeg
/// decodes the file without timestamp warnings to the same frames and samples as the source
/// clips (lossless).
@Suite("Matroska output", .toolThreads)
struct MatroskaWriterTests {
  static let mkv = Fixtures.generated("mkv")
  static let haveDiscs = FileManager.default.fileExists(atPath: mkv + "/languages.iso")
  static let ready =
    haveDiscs && MatroskaOracle.available && Tool.has("bd_list_titles")
    && FileManager.default.fileExists(atPath: MatroskaOracle.isoCodesPath)
  static let why: Comment =
    "needs TestImages/scripts/make-mkv.sh output, mkvmerge, ffprobe, ffmpeg, bd_list_titles, iso-codes"

  static func bluray(_ name: String) throws -> BlurayTitle {
    let disc = try BlurayDisc(disc: try DiscImage.open(path: "\(mkv)/\(name).iso"))
    return try disc.title(playlist: "00000.mpls")
  }

  /// Writes playlist `playlist` of `name` (an image and a folder in `directory`) and checks it
  /// against libbluray's view of the folder; `sourceClips` (in `directory/clips`) are the clips
  /// the playlist plays, in order.
  @discardableResult
  static func checkAgainstLibbluray(
    _ name: String, in directory: String = mkv, playlist: Int = 0, sourceClips: [String],
    lpcmStreams: [Int] = []
  ) throws -> MatroskaOracle {
    let dir = try TemporaryDirectory()
    let out = dir.file("\(name).mkv")
    let file = BDMVBuilder.fiveDigits(playlist) + ".mpls"
    let title = try BlurayDisc(disc: try DiscImage.open(path: "\(directory)/\(name).iso"))
      .title(playlist: file)
    let report = try MatroskaWriter.write(
      try MatroskaTitle(bluray: title), toPath: out, overwrite: false)
    let oracle = try MatroskaOracle.read(out)
    let folder = "\(directory)/\(name)"

    // Tracks and languages: libbluray's STN view (bd_list_titles -l), in Matroska's form.
    let stn = try #require(title.playlist.playItems.first?.streams)
    let libblurayAudio = try #require(
      try MatroskaOracle.libblurayAudioLanguages(folder)[file])
    #expect(libblurayAudio.count == stn.audio.count)
    let expectedAudio = try libblurayAudio.map(MatroskaOracle.bibliographic)
    #expect(oracle.tracks.map(\.type) == ["video"] + expectedAudio.map { _ in "audio" })
    #expect(oracle.tracks.filter { $0.type == "audio" }.map(\.language) == expectedAudio)
    #expect(
      oracle.ffprobeStreams.map(\.type) == ["video"] + expectedAudio.map { _ in "audio" })
    #expect(oracle.ffprobeStreams.dropFirst().map(\.language) == expectedAudio)
    #expect(report.tracks.count == oracle.tracks.count)
    // Default flags: the first video and the first audio track only.
    #expect(oracle.tracks.map(\.isDefault) == oracle.tracks.indices.map { $0 <= 1 })
    #expect(oracle.title == title.disc.fileSystem.volumeLabel)

    // Duration and chapters: libbluray's.
    let reference = try Reference.Bluray(path: folder)
    let info = try #require(reference.playlistInfo(playlist))
    let frame = 1.0 / 25
    #expect(
      abs(oracle.duration - Double(info.duration90k) / 90000) <= 3 * frame,
      "mkvmerge \(oracle.duration) s, libbluray \(Double(info.duration90k) / 90000) s")
    #expect(oracle.chapterCount == info.chapters.count)
    #expect(oracle.chapterStarts.count == info.chapters.count)
    let lead = try MatroskaOracle.lead(out)
    for (ours, theirs) in zip(oracle.chapterStarts, info.chapters) {
      let want = MatroskaOracle.chapterStart(Double(theirs.start90k) / 90000, lead: lead)
      #expect(abs(ours - want) <= 0.001, "chapter at \(ours) s")
    }

    // Decodes cleanly, to exactly the source clips' frames and samples.
    #expect(try MatroskaOracle.timestampWarnings(out) == [])
    let clips = sourceClips.map { "\(directory)/clips/\($0)" }
    let frames = try MatroskaOracle.videoFrameHashes([out])
    #expect(frames.count > 0)
    #expect(frames == (try MatroskaOracle.videoFrameHashes(clips)))
    for index in lpcmStreams {
      let ours = try MatroskaOracle.audioSamples([out], stream: index)
      #expect(ours.count > 0)
      #expect(ours == (try MatroskaOracle.audioSamples(clips, stream: index)), "LPCM \(index)")
    }
    return oracle
  }

  @Test(.enabled(if: ready, why))
  func twoLanguagesAcrossEpochsMatchLibbluray() throws {
    let oracle = try Self.checkAgainstLibbluray(
      "languages", sourceClips: ["l1.ts", "l2.ts"], lpcmStreams: [1])
    // AC-3 stays AC-3; 24-bit LPCM becomes 24-bit little-endian PCM.
    #expect(oracle.tracks.map(\.codecID) == ["V_MPEG4/ISO/AVC", "A_AC3", "A_PCM/INT/LIT"])
    #expect(oracle.tracks.last?.bitsPerSample == 24)
  }

  @Test(.enabled(if: ready, why))
  func sixteenBitLPCMIsLossless() throws {
    let oracle = try Self.checkAgainstLibbluray("lpcm16", sourceClips: ["p16.ts"], lpcmStreams: [0])
    #expect(oracle.tracks.last?.codecID == "A_PCM/INT/LIT")
    #expect(oracle.tracks.last?.bitsPerSample == 16)
  }

  @Test(.enabled(if: ready, why))
  func clipAcrossThePTSWrap() throws {
    _ = try Self.checkAgainstLibbluray("wrap", sourceClips: ["a.ts", "w.ts"])
  }

  /// mkvmerge reads the playlist itself. Where it is right (the multi-epoch two-language title)
  /// DiscKit agrees with it on tracks, languages and duration; on the clip across the PTS wrap
  /// it is not, and DiscKit keeps libbluray's duration.
  @Test(.enabled(if: ready, why))
  func comparedWithMkvmergeOnTheSamePlaylist() throws {
    let dir = try TemporaryDirectory()
    for name in ["languages", "wrap"] {
      let ours = dir.file("\(name)-disckit.mkv")
      let theirs = dir.file("\(name)-mkvmerge.mkv")
      try MatroskaWriter.write(
        try MatroskaTitle(bluray: try Self.bluray(name)), toPath: ours, overwrite: false)
      let run = try Tool.run(
        "mkvmerge", ["-q", "-o", theirs, "\(Self.mkv)/\(name)/BDMV/PLAYLIST/00000.mpls"])
      #expect(run.status <= 1, "mkvmerge: \(run.stderr)")
      let a = try MatroskaOracle.read(ours)
      let b = try MatroskaOracle.read(theirs)
      let reference = try Reference.Bluray(path: "\(Self.mkv)/\(name)")
      let playlist = Double(try #require(reference.playlistInfo(0)).duration90k) / 90000
      #expect(abs(a.duration - playlist) <= 3.0 / 25)
      if abs(b.duration - playlist) <= 3.0 / 25 {
        #expect(a.tracks.map(\.type) == b.tracks.map(\.type))
        #expect(a.tracks.map(\.language) == b.tracks.map(\.language))
        #expect(a.tracks.map(\.codecID) == b.tracks.map(\.codecID))
        #expect(abs(a.duration - b.duration) <= 3.0 / 25)
      } else {
        // mkvmerge loses the clip after the wrap: only the wrapped playlist may do that.
        #expect(name == "wrap", "mkvmerge \(b.duration) s vs libbluray \(playlist) s")
      }
    }
  }

  @Test(.enabled(if: ready && Tool.has("lsdvd"), why))
  func dvdTitlesMatchLsdvd() throws {
    let dir = try TemporaryDirectory()
    for (image, number, vobs) in [
      // Title 4 is the whole of its title set's VOBs: its decoded pictures are theirs.
      ("dvd-ntsc", 2, []), ("dvd-ntsc", 4, ["VTS_02_1.VOB"]),
      ("dvd-pal", 1, []),
    ] {
      let path = Fixtures.generated("\(image).iso")
      let disc = try DVDDisc(fileSystem: try DiscImage.open(path: path).fileSystem)
      let out = dir.file("\(image)-\(number).mkv")
      try MatroskaWriter.write(
        try MatroskaTitle(dvd: disc, title: number), toPath: out, overwrite: false)
      let oracle = try MatroskaOracle.read(out)
      let lsdvd = try #require(try LsdvdOracle.run(path).tracks.first { $0.ix == number })
      // Tracks and languages: lsdvd's audio streams, in Matroska's form.
      let languages = try lsdvd.audio.map {
        try MatroskaOracle.bibliographic(String($0.split(separator: "/").first ?? ""))
      }
      #expect(oracle.tracks.map(\.type) == ["video"] + languages.map { _ in "audio" })
      #expect(oracle.tracks.dropFirst().map(\.language) == languages)
      #expect(oracle.ffprobeStreams.dropFirst().map(\.language) == languages)
      #expect(oracle.title == disc.fileSystem.volumeLabel)
      // lsdvd's times are the IFO's nominal ones (NTSC: 30 frames a second, 0.1 % short of
      // the pictures' real 29.97); DiscKit places chapters where their first VOBU plays.
      let ntsc = image == "dvd-ntsc"
      let slack = ntsc ? 1.001 : 1.0
      let frame = ntsc ? 1001.0 / 30000 : 1.0 / 25
      let length = try #require(Double(lsdvd.length))
      #expect(abs(oracle.duration - length * slack) <= 3 * frame, "\(image) title \(number)")
      let lengths = lsdvd.chapters.map { Double($0.split(separator: "@")[0]) ?? -1 }
      #expect(oracle.chapterStarts.count == lengths.count)
      var start = 0.0
      let lead = try MatroskaOracle.lead(out)
      for (i, ours) in oracle.chapterStarts.enumerated() where i < lengths.count {
        let want = MatroskaOracle.chapterStart(start * slack, lead: lead)
        #expect(abs(ours - want) <= 0.001, "\(image) title \(number) chapter \(i + 1)")
        start += lengths[i]
      }
      #expect(try MatroskaOracle.timestampWarnings(out) == [])
      if !vobs.isEmpty {
        let sources = vobs.map { Fixtures.generated("\(image)/VIDEO_TS/\($0)") }
        #expect(
          try MatroskaOracle.videoFrameHashes([out])
            == (try MatroskaOracle.videoFrameHashes(sources)))
      }
    }
  }

  /// DVD LPCM (`pcm_dvd`) becomes little-endian PCM with the same samples as the VOB's.
  @Test(.enabled(if: ready && Tool.has("lsdvd"), why))
  func dvdLPCMIsLossless() throws {
    let dir = try TemporaryDirectory()
    let folder = "\(Self.mkv)/dvd-lpcm"
    let disc = try DVDDisc(fileSystem: try DiscImage.open(path: folder).fileSystem)
    let out = dir.file("lpcm.mkv")
    try MatroskaWriter.write(try MatroskaTitle(dvd: disc, title: 1), toPath: out, overwrite: false)
    let oracle = try MatroskaOracle.read(out)
    let lsdvd = try #require(try LsdvdOracle.run(folder).tracks.first { $0.ix == 1 })
    let language = try MatroskaOracle.bibliographic(
      String(lsdvd.audio.first?.split(separator: "/").first ?? ""))
    #expect(language == "ita")
    #expect(oracle.tracks.map(\.type) == ["video", "audio"])
    #expect(oracle.tracks.last?.language == language)
    #expect(oracle.tracks.last?.codecID == "A_PCM/INT/LIT")
    #expect(oracle.tracks.last?.bitsPerSample == 16)
    #expect(oracle.chapterStarts.count == lsdvd.chapters.count)
    #expect(try MatroskaOracle.timestampWarnings(out) == [])
    let vob = "\(folder)/VIDEO_TS/VTS_01_1.VOB"
    let ours = try MatroskaOracle.audioSamples([out], stream: 0)
    #expect(ours.count > 0)
    #expect(ours == (try MatroskaOracle.audioSamples([vob], stream: 0)))
    #expect(
      try MatroskaOracle.videoFrameHashes([out]) == (try MatroskaOracle.videoFrameHashes([vob])))
  }

  /// Each angle of a multi-angle title decodes to its own clip's pictures.
  @Test(.enabled(if: ready && FileManager.default.fileExists(atPath: angles), why))
  func chosenAngle() throws {
    let dir = try TemporaryDirectory()
    let disc = try BlurayDisc(disc: try DiscImage.open(path: Self.angles))
    for angle in [0, 1] {
      let out = dir.file("angle\(angle).mkv")
      try MatroskaWriter.write(
        try MatroskaTitle(bluray: try disc.title(playlist: "00000.mpls", angle: angle)),
        toPath: out, overwrite: false)
      let clip = Fixtures.generated("bluray/clips/angle\(angle + 1).ts")
      let frames = try MatroskaOracle.videoFrameHashes([out])
      #expect(frames.count > 0)
      #expect(frames == (try MatroskaOracle.videoFrameHashes([clip])), "angle \(angle + 1)")
    }
  }
  static let angles = Fixtures.generated("bluray/angles.iso")

  /// A clip shorter than its clip information says: a typed error before anything is written.
  @Test(.enabled(if: haveDiscs, why))
  func truncatedClipIsATypedError() throws {
    let dir = try TemporaryDirectory()
    let copy = dir.file("disc")
    try FileManager.default.copyItem(atPath: "\(Self.mkv)/languages", toPath: copy)
    let clip = copy + "/BDMV/STREAM/00001.m2ts"
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: clip)[.size] as? NSNumber)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: clip))
    try handle.truncate(atOffset: UInt64(size.int64Value / 2 / 192 * 192))
    try handle.close()
    let disc = try BlurayDisc(disc: try DiscImage.open(path: copy))
    let out = dir.file("x.mkv")
    #expect {
      try MatroskaWriter.write(
        try MatroskaTitle(bluray: try disc.title(playlist: "00000.mpls")), toPath: out,
        overwrite: false)
    } throws: { error in
      (error as? DiscKitError)?.code == .truncated
    }
    #expect(!FileManager.default.fileExists(atPath: out))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["disc"])
  }

  @Test(.enabled(if: haveDiscs, why))
  func unsupportedCodecIsNamedAndNothingIsWritten() throws {
    let dir = try TemporaryDirectory()
    let source = try FileByteSource(path: "\(Self.mkv)/clips/bindata.ts")
    let title = MatroskaTitle(
      name: "bindata.ts", source: source, container: .transportStream,
      pieces: [
        MatroskaPiece(
          byteStart: 0, byteEnd: source.size, inTime90k: 0, titleStart90k: 0, duration90k: nil)
      ],
      tracks: [
        MatroskaTrack(
          kind: .video, streamID: 0x100, language: "und", isDefault: true, declaredCodec: "H.264"),
        MatroskaTrack(
          kind: .audio, streamID: 0x101, language: "eng", isDefault: true, declaredCodec: "LPCM"),
      ], chapters: [], segmentTitle: "x", duration90k: 90000)
    let out = dir.file("x.mkv")
    #expect {
      try MatroskaWriter.write(title, toPath: out, overwrite: false)
    } throws: { error in
      guard let error = error as? DiscKitError else { return false }
      return error.code == .unsupported && error.structure.contains("PID 0x101")
        && error.structure.contains("audio")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
    for codec in ["s302m", "dvb_teletext", "bin_data", "no such codec"] {
      #expect(MatroskaWriter.canCarry(codecNamed: codec) == false, "\(codec)")
    }
    for codec in [
      "h264", "hevc", "vc1", "mpeg2video", "ac3", "eac3", "dts", "truehd",
      "pcm_bluray", "pcm_dvd", "hdmv_pgs_subtitle", "dvd_subtitle",
    ] {
      #expect(MatroskaWriter.canCarry(codecNamed: codec), "\(codec)")
    }
  }

  @Test func garbageIsATypedErrorAndNothingIsWritten() throws {
    let dir = try TemporaryDirectory()
    var random = SeededRandom(seed: 9)
    let bytes = (0..<(192 * 2000)).map { _ in UInt8.random(in: 0...255, using: &random) }
    let source = MemoryByteSource(bytes)
    let title = MatroskaTitle(
      name: "garbage", source: source, container: .transportStream,
      pieces: [
        MatroskaPiece(
          byteStart: 0, byteEnd: source.size, inTime90k: 0, titleStart90k: 0, duration90k: nil)
      ],
      tracks: [
        MatroskaTrack(
          kind: .video, streamID: 0x1011, language: "und", isDefault: true, declaredCodec: "H.264")
      ], chapters: [], segmentTitle: "x", duration90k: 90000)
    #expect(throws: DiscKitError.self) {
      try MatroskaWriter.write(title, toPath: dir.file("g.mkv"), overwrite: false)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
  }

  /// The README's library example on the committed sample disc; progress ends at the total.
  @Test(.enabled(if: Tool.has("mkvmerge"), "mkvmerge missing"))
  func readmeExampleAndProgress() throws {
    let dir = try TemporaryDirectory()
    let path = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
    let disc = try BlurayDisc(disc: try DiscImage.open(path: path))
    let title = try MatroskaTitle(bluray: try disc.title(playlist: "00000.mpls", angle: 0))
    let plan = try MatroskaWriter.plan(title)
    nonisolated(unsafe) var seen: [(Int64, Int64)] = []
    let report = try MatroskaWriter.write(title, toPath: dir.file("movie.mkv"), overwrite: false) {
      read, total in seen.append((read, total))
    }
    #expect(plan.tracks.map(\.track) == report.tracks.map(\.track))
    #expect(report.tracks.allSatisfy { $0.packets > 0 })
    let total = title.pieces.reduce(Int64(0)) { $0 + $1.byteEnd - $1.byteStart }
    #expect(seen.last.map { $0 == (total, total) } == true)
    #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.0 <= $1.0 })
    let run = try Tool.run("mkvmerge", ["-J", dir.file("movie.mkv")])
    let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    #expect((json["tracks"] as? [Any])?.count == report.tracks.count)
  }

  @Test func piecesMapTimestampsModulo33Bits() {
    let wrap: Int64 = 1 << 33
    let piece = MatroskaPiece(
      byteStart: 0, byteEnd: 1, inTime90k: UInt64(wrap - 90000), titleStart90k: 450_000,
      duration90k: 270_000)
    #expect(piece.titleTime(ofPTS: wrap - 90000) == 450_000)
    #expect(piece.titleTime(ofPTS: 0) == 540_000)  // just after the wrap
    #expect(piece.titleTime(ofPTS: wrap + 90000) == 630_000)  // libavformat's unwrapped form
    #expect(piece.titleTime(ofPTS: wrap - 93600) == 446_400)  // just before the in-time
  }

  @Test func languagesInMatroskaForm() {
    #expect(MatroskaTitle.matroskaLanguage("fra") == "fre")
    #expect(MatroskaTitle.matroskaLanguage("fr") == "fre")
    #expect(MatroskaTitle.matroskaLanguage("eng") == "eng")
    #expect(MatroskaTitle.matroskaLanguage("de") == "ger")
    #expect(MatroskaTitle.matroskaLanguage("") == "und")
    #expect(MatroskaTitle.matroskaLanguage("x1") == "und")
  }
}
