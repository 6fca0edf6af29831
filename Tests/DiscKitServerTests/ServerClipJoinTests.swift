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
    "needs disckit-serve, curl, ffmpeg and TestImages/scripts/make-all.sh output"))
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

  @Test(.enabled(if: Tool.has("mpv"), "needs mpv"))
  func mpvPlaysAndSeeks() throws {
    let dir = try Self.root()
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    for (disc, key) in Self.titles {
      let id = try ServerFixture.id(server, disc)
      for url in ["/stream", "/index.m3u8"] {
        for start in ["0", "5.3"] {
          let address = server.base + "/discs/\(id)/titles/\(key)" + url
          let run = try Tool.run(
            "mpv",
            [
              "--no-config", "--vo=null", "--ao=null", "--really-quiet", "--msg-level=all=warn",
              "--start=\(start)", address,
            ])
          #expect(run.status == 0, "\(disc) \(key)\(url) from \(start): \(run.stderr)")
          let complaints = (run.text + run.stderr).trimmingCharacters(in: .whitespacesAndNewlines)
          #expect(complaints == "", "\(disc) \(key)\(url) from \(start)")
        }
      }
    }
  }
}
