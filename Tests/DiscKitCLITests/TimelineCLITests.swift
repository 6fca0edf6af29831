import DiscKitTestSupport
import Foundation
import Testing

/// `disckit extract --timeline continuous|original` on the multi-epoch discs of
/// TestImages/scripts/make-epochs.sh, judged by ffprobe.
@Suite("extract --timeline", .toolThreads)
struct TimelineCLITests {
  static let disc = Fixtures.generated("epochs/bd-epochs.iso")
  static let dvd = Fixtures.generated("epochs/dvd-epochs.iso")
  static let ready =
    EndToEndTests.haveBinary && FileManager.default.fileExists(atPath: disc) && Tool.has("ffprobe")

  /// Whether some stream's DTS (else PTS) go back, or forward by more than a second, in the file
  /// as ffprobe reads it (ffprobe reads a big step back as a step forward across the wrap).
  static func jumps(_ path: String) throws -> Bool {
    let r = try Tool.run(
      "ffprobe",
      ["-v", "error", "-show_entries", "packet=stream_index,pts,dts", "-of", "csv=p=0", path])
    #expect(r.status == 0, "\(r.stderr)")
    var last: [String: Int64] = [:]
    var back = false
    for line in r.text.split(separator: "\n") {
      let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard f.count >= 3, let t = Int64(f[2]) ?? Int64(f[1]) else { continue }
      if let l = last[f[0]], t < l || t - l > 90_000 { back = true }
      last[f[0]] = t
    }
    return back
  }

  @Test(
    .enabled(if: ready, "needs the built disckit, ffprobe and make-epochs.sh output"),
    arguments: [
      (disc, "--playlist", "00000"), (disc, "--playlist", "00001"), (dvd, "--title", "1"),
    ])
  func continuousIsTheDefaultAndOriginalKeepsTheDiscBytes(
    _ source: String, _ option: String, _ value: String
  ) throws {
    let dir = try TemporaryDirectory("timeline-cli")
    let byDefault = dir.file("default")
    let continuous = dir.file("continuous")
    let original = dir.file("original")
    for (path, extra) in [
      (byDefault, [String]()), (continuous, ["--timeline", "continuous"]),
      (original, ["--timeline", "original"]),
    ] {
      let r = try EndToEndTests.disckit(["extract", source, option, value, "-o", path] + extra)
      #expect(r.status == 0, "\(r.stderr)")
    }
    let a = try Data(contentsOf: URL(fileURLWithPath: byDefault))
    let b = try Data(contentsOf: URL(fileURLWithPath: continuous))
    let c = try Data(contentsOf: URL(fileURLWithPath: original))
    #expect(a == b)
    #expect(a.count == c.count)
    #expect(a != c)
    #expect(try !Self.jumps(continuous))
    #expect(try Self.jumps(original))
  }

  @Test(.enabled(if: ready, "needs the built disckit and make-epochs.sh output"))
  func unknownTimelineIsAUsageError() throws {
    let dir = try TemporaryDirectory("timeline-cli")
    let r = try EndToEndTests.disckit([
      "extract", Self.disc, "--timeline", "sideways", "-o", dir.file("x"),
    ])
    #expect(r.status == 64)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }
}
