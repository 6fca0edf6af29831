@_spi(Formats) import DiscKit
import DiscKitMedia
import DiscKitTestSupport
import Foundation
import Testing

/// A TrueHD stream with its AC-3 core interleaved on one PID (as Blu-ray discs carry it; made by
/// TestImages/scripts/make-truehd-core.py from ffmpeg's TrueHD and AC-3 encodings of the same
/// sine): DiscKit's Matroska file has both as tracks, as mkvmerge reads the playlist, and each
/// track's frames are the source encoder's.
@Suite("Matroska TrueHD core", .toolThreads)
struct MatroskaTrueHDCoreTests {
  static let root = Fixtures.generated("codecs")
  static let folder = root + "/truehd-core"
  /// ffmpeg's output with TrueHD (audio 0) and AC-3 (audio 2; audio 1 is the empty core
  /// libavformat adds to every TrueHD PID) on their own PIDs.
  static let separate = root + "/truehd-ac3-separate.m2ts"

  struct Track: Equatable, CustomStringConvertible {
    var type: String
    var codec: String
    var language: String
    var description: String { "\(type) \(codec) \(language)" }
  }

  static func mkvmergeTracks(_ path: String) throws -> [Track] {
    let run = try Tool.run("mkvmerge", ["-J", path])
    let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    return (json["tracks"] as? [[String: Any]] ?? []).map { t in
      let p = t["properties"] as? [String: Any] ?? [:]
      return Track(
        type: t["type"] as? String ?? "?", codec: t["codec"] as? String ?? "?",
        language: p["language"] as? String ?? "und")
    }
  }

  /// The MD5 column of `ffmpeg -f framemd5` for one stream (`copy`: of the packets; else of the
  /// decoded frames).
  static func frameHashes(_ path: String, _ map: String, copy: Bool, format: String? = nil)
    throws -> [String]
  {
    var arguments = ["-nostdin", "-v", "error"]
    if let format { arguments += ["-f", format] }
    arguments += ["-i", path, "-map", map]
    if copy { arguments += ["-c", "copy"] }
    arguments += ["-f", "framemd5", "-"]
    let run = try Tool.run("ffmpeg", arguments)
    #expect(run.status == 0, "ffmpeg framemd5 \(path) \(map): \(run.stderr)")
    // "stream, dts, pts, duration, size, hash[, side data...]": the sixth field.
    return run.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
      let fields = $0.split(separator: ",")
      return fields.count >= 6 ? fields[5].trimmingCharacters(in: .whitespaces) : nil
    }
  }

  @Test(
    "two tracks as mkvmerge reads the playlist; every frame of each is the source's",
    .enabled(
      if: Tool.has("mkvmerge") && Tool.has("ffmpeg") && Tool.has("ffprobe"),
      "mkvmerge, ffmpeg or ffprobe missing"))
  func trueHDAndCore() throws {
    try #require(
      FileManager.default.fileExists(atPath: Self.folder + "/BDMV/PLAYLIST/00000.mpls")
        && FileManager.default.fileExists(atPath: Self.separate),
      "run TestImages/scripts/make-all.sh")
    let dir = try TemporaryDirectory()
    let out = dir.file("truehd-core.mkv")
    let disc = try BlurayDisc(disc: try DiscImage.open(path: Self.folder))
    let report = try MatroskaWriter.write(
      try MatroskaTitle(bluray: try disc.title(playlist: "00000.mpls")), toPath: out,
      overwrite: false)
    #expect(report.missingTracks.isEmpty)

    // Tracks, codecs and languages: mkvmerge on the playlist and on DiscKit's file.
    let playlist = try Self.mkvmergeTracks(Self.folder + "/BDMV/PLAYLIST/00000.mpls")
    let ours = try Self.mkvmergeTracks(out)
    #expect(playlist.filter { $0.type == "audio" }.map(\.codec) == ["TrueHD", "AC-3"])
    #expect(ours == playlist)

    // The core's Matroska name says what it is; the TrueHD track is the default one.
    let json = try #require(
      try JSONSerialization.jsonObject(with: try Tool.run("mkvmerge", ["-J", out]).stdout)
        as? [String: Any])
    let audio = (json["tracks"] as? [[String: Any]] ?? []).filter {
      $0["type"] as? String == "audio"
    }.map { $0["properties"] as? [String: Any] ?? [:] }
    #expect(audio.map { $0["track_name"] as? String } == [nil, "AC-3 core"])
    #expect(audio.map { $0["default_track"] as? Bool } == [true, false])

    // Decodes without a warning.
    let decode = try Tool.run(
      "ffmpeg", ["-nostdin", "-v", "warning", "-i", out, "-map", "0", "-f", "null", "-"])
    #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")

    // TrueHD: every access unit, and every decoded frame, is the encoder's.
    let sourceTrueHD = try Self.frameHashes(Self.separate, "0:a:0", copy: true)
    #expect(try Self.frameHashes(out, "0:a:0", copy: true) == sourceTrueHD)
    #expect(
      try Self.frameHashes(out, "0:a:0", copy: false)
        == Self.frameHashes(Self.separate, "0:a:0", copy: false))

    // AC-3: the frames from the clip's IN time on (the playlist starts at the first video
    // picture; audio before it is not part of the title), byte for byte; decoded, the same
    // samples as decoding the encoder's elementary stream from that frame.
    let sourceAC3 = try Self.frameHashes(Self.separate, "0:a:2", copy: true)
    let coreAC3 = try Self.frameHashes(out, "0:a:1", copy: true)
    #expect(!coreAC3.isEmpty && coreAC3.count <= sourceAC3.count)
    let skipped = sourceAC3.count - coreAC3.count
    #expect(Array(sourceAC3.dropFirst(skipped)) == coreAC3, "the core is a suffix of the source")
    let raw = dir.file("source.ac3")
    let extract = try Tool.run(
      "ffmpeg",
      [
        "-nostdin", "-v", "error", "-i", Self.separate, "-map", "0:a:2", "-c", "copy", "-f", "ac3",
        raw,
      ])
    #expect(extract.status == 0, "\(extract.stderr)")
    // Cut the elementary stream's first `skipped` frames by their sizes (ffprobe's packets).
    let sizes = try Tool.run(
      "ffprobe",
      ["-v", "error", "-show_entries", "packet=size", "-of", "csv=p=0", raw]
    ).text.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
    let cut = sizes.prefix(skipped).reduce(0, +)
    let trimmed = dir.file("trimmed.ac3")
    try bytes.dropFirst(cut).write(to: URL(fileURLWithPath: trimmed))
    #expect(
      try Self.frameHashes(out, "0:a:1", copy: false)
        == Self.frameHashes(trimmed, "0:a:0", copy: false, format: "ac3"))
  }
}
