import DiscKitTestSupport
import Foundation
import Testing

/// Clip joins over HTTP (issue 20): ffmpeg reads `stream`, `stream.ts` and `index.m3u8` of
/// multi-clip titles without a warning, and mpv plays them and seeks.
@Suite(
  "disckit serve clip joins", .serialized,
  .enabled(
    if: ServerProcess.haveBinary && Curl.available && Tool.has("ffmpeg")
      && FileManager.default.fileExists(atPath: Fixtures.generated("bluray/branching.iso"))
      && FileManager.default.fileExists(atPath: Fixtures.generated("epochs/bd-epochs.iso")),
    "needs disckit-serve, curl, ffmpeg and TestImages/scripts/make-all.sh output"), .toolThreads)
struct ServerClipJoinTests {
  /// A root with the 25-clip branching disc and the three-epoch disc.
  static func root() throws -> TemporaryDirectory {
    let dir = try TemporaryDirectory("disckit-serve-joins")
    for name in ["bluray/branching.iso", "epochs/bd-epochs.iso"] {
      try FileManager.default.copyItem(
        atPath: Fixtures.generated(name),
        toPath: dir.path + "/" + URL(fileURLWithPath: name).lastPathComponent)
    }
    return dir
  }

  static let urls = ["/stream", "/stream.ts", "/index.m3u8"]
  static let titles = [
    ("branching.iso", "00000"), ("branching.iso", "00001"), ("bd-epochs.iso", "00000"),
  ]

  @Test func ffmpegReadsEveryOutputWithoutAWarning() throws {
    let dir = try Self.root()
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    for (disc, key) in Self.titles {
      let id = try ServerFixture.id(server, disc)
      for url in Self.urls {
        let address = server.base + "/discs/\(id)/titles/\(key)" + url
        let run = try Tool.run(
          "ffmpeg", ["-nostdin", "-hide_banner", "-v", "warning", "-i", address, "-f", "null", "-"])
        #expect(run.status == 0, "\(disc) \(key)\(url)")
        #expect(
          run.stderr.trimmingCharacters(in: .whitespacesAndNewlines) == "", "\(disc) \(key)\(url)")
      }
    }
  }

  /// mpv plays the titles whose clips carry their own audio (the 25 seamless clips, the three
  /// epochs) from the start and from 5.3 s, as fast as it decodes (`--untimed`), and complains
  /// of nothing but what its own byte seeks cause on any served transport stream (the H.264
  /// decoder starting after a seek: also on a one-clip title), and its A/V-sync warning that
  /// `--untimed` makes meaningless.
  @Test(.enabled(if: Tool.has("mpv"), "needs mpv"))
  func mpvPlaysAndSeeks() throws {
    let dir = try Self.root()
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    let unrelated = [
      "h264: co located POCs unavailable", "h264: mmco: unref short failure",
      "Audio/Video desynchronisation detected", "Possible reasons include too slow",
      "hardware, temporary CPU spikes", "position will not match to the video",
    ]
    for (disc, key) in [("branching.iso", "00000"), ("bd-epochs.iso", "00000")] {
      let id = try ServerFixture.id(server, disc)
      for url in Self.urls {
        for start in ["0", "5.3"] {
          let address = server.base + "/discs/\(id)/titles/\(key)" + url
          let run = try Tool.run(
            "mpv",
            [
              "--no-config", "--vo=null", "--ao=null", "--untimed", "--ao-null-untimed",
              "--framedrop=no", "--really-quiet", "--msg-level=all=warn", "--start=\(start)",
              address,
            ])
          #expect(run.status == 0, "\(disc) \(key)\(url) from \(start): \(run.stderr)")
          let complaints = (run.text + "\n" + run.stderr).split(separator: "\n").filter { line in
            !line.trimmingCharacters(in: .whitespaces).isEmpty
              && !unrelated.contains { line.contains($0) }
          }
          #expect(complaints == [], "\(disc) \(key)\(url) from \(start)")
        }
      }
    }
  }
}
