@_spi(Formats) import DiscKit
import DiscKitMedia
import DiscKitTestSupport
import Foundation
import Testing

/// Forced captions on Blu-ray are a property of each PG composition object (`forced_on_flag`),
/// not of the stream: the STN has no forced attribute. mkvmerge does not turn them into the
/// Matroska FlagForced of the track, even when every caption is forced, and neither does DiscKit
/// (the flags stay in the PGS display sets, where players honour them). Disc from
/// TestImages/scripts/make-codecs.sh (`pg-forced`: every composition object forced).
@Suite("Matroska forced PG", .toolThreads)
struct MatroskaForcedPGTests {
  static let folder = Fixtures.generated("codecs") + "/pg-forced"

  static func flags(_ path: String) throws -> [String] {
    let run = try Tool.run("mkvmerge", ["-J", path])
    let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    return (json["tracks"] as? [[String: Any]] ?? []).map { t in
      let p = t["properties"] as? [String: Any] ?? [:]
      return "\(t["type"] ?? "?") forced=\(p["forced_track"] as? Bool ?? false)"
        + " \(p["language"] as? String ?? "und")"
    }
  }

  @Test(
    "FlagForced of a PG track whose captions are all forced: as mkvmerge (not set)",
    .enabled(if: Tool.has("mkvmerge"), "mkvmerge missing"))
  func forcedFlagAsMkvmerge() throws {
    let mpls = Self.folder + "/BDMV/PLAYLIST/00000.mpls"
    try #require(FileManager.default.fileExists(atPath: mpls), "run TestImages/scripts/make-all.sh")
    let dir = try TemporaryDirectory()
    let out = dir.file("ours.mkv")
    let reference = dir.file("mkvmerge.mkv")
    let title = try BlurayDisc(disc: try DiscImage.open(path: Self.folder)).title(
      playlist: "00000.mpls")
    try MatroskaWriter.write(try MatroskaTitle(bluray: title), toPath: out, overwrite: false)
    let merge = try Tool.run("mkvmerge", ["-q", "-o", reference, mpls])
    #expect(merge.status == 0, "\(merge.stderr)")
    let ours = try Self.flags(out)
    let theirs = try Self.flags(reference)
    #expect(ours == theirs)
    #expect(ours.contains("subtitles forced=false ger"), "\(ours)")
  }
}
