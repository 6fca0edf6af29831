@_spi(Formats) import DiscKit
import DiscKitMedia
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Subtitle tracks in Matroska output, checked against the reference tools: Blu-ray PG from a
/// .sup made by TestImages/scripts/make-pgs-sup.py and muxed by ffmpeg into the clip of the
/// `pgs` disc, and DVD subpictures muxed by spumux into the `dvd-vobsub` disc (make-mkv.sh).
@Suite("Matroska subtitles", .toolThreads)
struct MatroskaSubtitleTests {
  static let mkv = Fixtures.generated("mkv")
  static let ready =
    FileManager.default.fileExists(atPath: mkv + "/pgs.iso") && MatroskaOracle.available
    && Tool.has("bd_list_titles") && Tool.has("mkvextract")
    && FileManager.default.fileExists(atPath: MatroskaOracle.isoCodesPath)
  static let why: Comment =
    "needs TestImages/scripts/make-mkv.sh output, mkvmerge, mkvextract, ffprobe, ffmpeg, bd_list_titles, iso-codes"

  /// One segment of a .sup file: its presentation time (90 kHz), type and payload.
  struct SupSegment: Equatable, CustomStringConvertible {
    var pts: UInt32
    var type: UInt8
    var payload: Data
    var description: String {
      "segment 0x\(String(type, radix: 16)) at \(pts) (\(payload.count) bytes)"
    }
  }

  /// The segments of a .sup file ("PG", PTS, DTS, type, length, payload).
  static func segments(_ path: String) throws -> [SupSegment] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let bytes = [UInt8](data)
    var result: [SupSegment] = []
    var i = 0
    while i + 13 <= bytes.count {
      try #require(bytes[i] == 0x50 && bytes[i + 1] == 0x47, "PG header at \(i) of \(path)")
      let pts = bytes[(i + 2)..<(i + 6)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      let length = Int(bytes[i + 11]) << 8 | Int(bytes[i + 12])
      try #require(i + 13 + length <= bytes.count, "segment at \(i) of \(path) is cut short")
      result.append(
        SupSegment(
          pts: pts, type: bytes[i + 10], payload: Data(bytes[(i + 13)..<(i + 13 + length)])))
      i += 13 + length
    }
    #expect(i == bytes.count, "\(path) ends inside a segment")
    return result
  }

  /// The subtitle events ffmpeg decodes from `path`: (time in seconds, number of bitmaps).
  static func decodedSubtitles(_ path: String) throws -> [(time: Double, rects: Int)] {
    let run = try Tool.run(
      "ffprobe",
      ["-v", "error", "-select_streams", "s:0", "-show_frames", "-of", "json", path])
    #expect(run.status == 0, "ffprobe decodes the subtitles of \(path): \(run.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    return (json["frames"] as? [[String: Any]] ?? []).map {
      (Double($0["pts_time"] as? String ?? "") ?? -1, $0["num_rects"] as? Int ?? -1)
    }
  }

  /// The segments of the mkvextract'ed track equal the .sup's, at the same times within 1 ms
  /// once moved by the file's lead (seconds).
  static func expectSameSegments(
    _ extracted: String, _ source: String, _ what: String, lead: Double
  ) throws {
    let lead90k = Int64((lead * 90000).rounded())
    let ours = try segments(extracted)
    let theirs = try segments(source)
    #expect(
      ours.count == theirs.count, "\(what): \(ours.count) segments, the .sup has \(theirs.count)")
    for (a, b) in zip(ours, theirs) {
      #expect(a.type == b.type && a.payload == b.payload, "\(what): \(a) vs \(b)")
      #expect(abs(Int64(a.pts) - Int64(b.pts) - lead90k) <= 90, "\(what): \(a) vs \(b)")
    }
  }

  @Test(.enabled(if: ready, why))
  func pgTrackMatchesTheSupAndLibbluray() throws {
    let dir = try TemporaryDirectory()
    let out = dir.file("pgs.mkv")
    let title = try BlurayDisc(disc: try DiscImage.open(path: "\(Self.mkv)/pgs.iso"))
      .title(playlist: "00000.mpls")
    let report = try MatroskaWriter.write(
      try MatroskaTitle(bluray: title), toPath: out, overwrite: false)
    #expect(report.tracks.map(\.outputCodec) == ["h264", "ac3", "hdmv_pgs_subtitle"])

    // Track, codec and language: libbluray's PG stream, as mkvmerge and ffprobe read the file.
    let pg = try #require(
      try MatroskaOracle.libblurayLanguages("\(Self.mkv)/pgs", line: "PG :")["00000.mpls"])
    #expect(pg.count == 1)
    let language = try MatroskaOracle.bibliographic(pg.first ?? "")
    #expect(language == "ger")
    let oracle = try MatroskaOracle.read(out)
    #expect(oracle.tracks.map(\.type) == ["video", "audio", "subtitles"])
    #expect(oracle.tracks.last?.codecID == "S_HDMV/PGS")
    #expect(oracle.tracks.last?.language == language)
    #expect(oracle.tracks.last?.isDefault == false)
    #expect(oracle.ffprobeStreams.last?.type == "subtitle")
    #expect(oracle.ffprobeStreams.last?.language == language)

    // mkvextract gives back the .sup's segments, at the .sup's times (the clip's display sets
    // play 1, 2, 3 and 4 s after its first picture, the playlist's in-time).
    let sup = dir.file("pgs.sup")
    let extract = try Tool.run("mkvextract", [out, "tracks", "2:\(sup)"])
    #expect(extract.status == 0, "mkvextract: \(extract.stderr)")
    let lead = try MatroskaOracle.lead(out)
    try Self.expectSameSegments(sup, "\(Self.mkv)/clips/pg.sup", "mkvextract", lead: lead)

    // ffmpeg decodes the same subtitle events from the file as from the .sup.
    let decoded = try Self.decodedSubtitles(out)
    let expected = try Self.decodedSubtitles("\(Self.mkv)/clips/pg.sup")
    #expect(expected.map(\.rects) == [1, 0, 1, 0])
    #expect(decoded.map(\.rects) == expected.map(\.rects))
    for (a, b) in zip(decoded, expected) {
      #expect(
        abs(a.time - b.time - lead) <= 0.001, "subtitle at \(a.time) s, the .sup's at \(b.time) s")
    }
    #expect(try MatroskaOracle.timestampWarnings(out) == [])
  }

  /// mkvmerge on the same playlist makes the same subtitle track (one block per display set,
  /// the same segments).
  @Test(.enabled(if: ready, why))
  func pgTrackAgreesWithMkvmerge() throws {
    let dir = try TemporaryDirectory()
    let ours = dir.file("disckit.mkv")
    let theirs = dir.file("mkvmerge.mkv")
    let title = try BlurayDisc(disc: try DiscImage.open(path: "\(Self.mkv)/pgs.iso"))
      .title(playlist: "00000.mpls")
    try MatroskaWriter.write(try MatroskaTitle(bluray: title), toPath: ours, overwrite: false)
    let run = try Tool.run(
      "mkvmerge", ["-q", "-o", theirs, "\(Self.mkv)/pgs/BDMV/PLAYLIST/00000.mpls"])
    #expect(run.status <= 1, "mkvmerge: \(run.stderr)")
    let a = try MatroskaOracle.read(ours)
    let b = try MatroskaOracle.read(theirs)
    // The same tracks; mkvmerge flags every track as default, DiscKit only the first video and
    // audio track (a default subtitle track would be shown without being asked for).
    #expect(a.tracks.map(\.type) == b.tracks.map(\.type))
    #expect(a.tracks.map(\.codecID) == b.tracks.map(\.codecID))
    #expect(a.tracks.map(\.language) == b.tracks.map(\.language))
    #expect(abs(a.duration - b.duration) <= 3.0 / 25)
    for (file, name) in [(ours, "disckit"), (theirs, "mkvmerge")] {
      let sup = dir.file("\(name).sup")
      let extract = try Tool.run("mkvextract", [file, "tracks", "2:\(sup)"])
      #expect(extract.status == 0, "mkvextract \(name): \(extract.stderr)")
      // mkvmerge starts its file at the first picture (the audio frame before it at 0).
      let lead = name == "disckit" ? try MatroskaOracle.lead(file) : 0
      try Self.expectSameSegments(sup, "\(Self.mkv)/clips/pg.sup", name, lead: lead)
    }
  }

  /// ffmpeg's renderings of the first subtitle stream of an input (`arguments` open it) over a
  /// black 720x576 picture: how many frames show each distinct image.
  static func renderedSubtitles(_ arguments: [String]) throws -> [String: Int] {
    let run = try Tool.run(
      "ffmpeg",
      ["-nostdin", "-v", "error"] + arguments + [
        "-filter_complex",
        "color=black:s=720x576:r=25:d=5[b];[b][0:s:0]overlay=eof_action=pass[o]",
        "-map", "[o]", "-f", "framemd5", "-",
      ])
    #expect(run.status == 0, "ffmpeg renders the subtitles: \(run.stderr)")
    var counts: [String: Int] = [:]
    for line in run.text.split(separator: "\n") where !line.hasPrefix("#") {
      if let hash = line.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) {
        counts[hash, default: 0] += 1
      }
    }
    return counts
  }

  /// A DVD subpicture stream becomes an S_VOBSUB track with the IFO's language and, in its
  /// CodecPrivate, the PGC's palette: ffmpeg draws the same pictures from the file as from the
  /// VOB with the IFO's palette (`-ifo_palette`), at the same times on the title timeline.
  /// (mkvmerge reads no subpictures from a VOB, so it has nothing to compare here.)
  @Test(.enabled(if: ready && Tool.has("lsdvd"), why))
  func vobSubTrackMatchesTheIFOAndLsdvd() throws {
    let dir = try TemporaryDirectory()
    let folder = "\(Self.mkv)/dvd-vobsub"
    let vob = "\(folder)/VIDEO_TS/VTS_01_1.VOB"
    let ifo = "\(folder)/VIDEO_TS/VTS_01_0.IFO"
    let disc = try DVDDisc(fileSystem: try DiscImage.open(path: folder).fileSystem)
    let out = dir.file("vobsub.mkv")
    let report = try MatroskaWriter.write(
      try MatroskaTitle(dvd: disc, title: 1), toPath: out, overwrite: false)
    #expect(report.tracks.last?.outputCodec == "dvd_subtitle")

    // Track and language: lsdvd's subpicture stream, as mkvmerge and ffprobe read the file.
    let lsdvd = try #require(try LsdvdOracle.run(folder).tracks.first { $0.ix == 1 })
    #expect(lsdvd.subpictures.count == 1)
    let language = try MatroskaOracle.bibliographic(
      String(lsdvd.subpictures.first?.split(separator: "/").first ?? ""))
    #expect(language == "ger")
    let oracle = try MatroskaOracle.read(out)
    #expect(oracle.tracks.map(\.type) == ["video", "audio", "subtitles"])
    #expect(oracle.tracks.last?.codecID == "S_VOBSUB")
    #expect(oracle.tracks.last?.language == language)
    #expect(oracle.ffprobeStreams.last?.language == language)

    // CodecPrivate: an .idx header with the picture size and 16 colours.
    let idx = dir.file("vobsub.idx")
    let extract = try Tool.run("mkvextract", [out, "tracks", "2:\(idx)"])
    #expect(extract.status == 0, "mkvextract: \(extract.stderr)")
    let header = try String(contentsOfFile: idx, encoding: .utf8)
    #expect(header.contains("size: 720x576\n"))
    let palette = header.split(separator: "\n").first { $0.hasPrefix("palette: ") }
    #expect(palette?.dropFirst(9).split(separator: ",").count == 16)

    // The palette is the IFO's: ffmpeg draws the same pictures as from the VOB with the IFO
    // palette, and other ones with its default palette.
    let ours = try Self.renderedSubtitles(["-i", out])
    #expect(ours.count == 3, "black and two subtitle pictures: \(ours)")
    #expect(ours == (try Self.renderedSubtitles(["-ifo_palette", ifo, "-i", vob])))
    #expect(ours != (try Self.renderedSubtitles(["-i", vob])))

    // Times: the VOB's, from the title's start (its first picture) on.
    let probe = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=start_time", "-of",
        "default=nk=1:nw=1", vob,
      ])
    let start = try #require(Double(probe.text.trimmingCharacters(in: .whitespacesAndNewlines)))
    let decoded = try Self.decodedSubtitles(out)
    let expected = try Self.decodedSubtitles(vob)
    let lead = try MatroskaOracle.lead(out)
    #expect(expected.count == 2)
    #expect(decoded.map(\.rects) == expected.map(\.rects))
    for (a, b) in zip(decoded, expected) {
      #expect(
        abs(a.time - (b.time - start) - lead) <= 0.001, "subtitle at \(a.time) s, VOB \(b.time) s")
    }
    #expect(try MatroskaOracle.timestampWarnings(out) == [])
  }
}
