import DiscKitTestSupport
import Foundation
import Testing

/// The seamless-branching feature disc with angles (issue 20) over HTTP: `?angle=N` serves the
/// bytes of `disckit extract --angle N` for both cuts, and ffmpeg reads `stream`, `stream.ts` and
/// `index.m3u8` of every angle without a warning.
@Suite(
  "disckit serve: seamless branching with angles", .serialized,
  .enabled(
    if: ServerProcess.haveBinary && Curl.available && Tool.has("ffmpeg")
      && FileManager.default.fileExists(atPath: Fixtures.generated("bluray/feature.iso")),
    "needs disckit-serve, curl, ffmpeg and TestImages/scripts/make-bluray.sh output"), .toolThreads)
struct ServerBranchingAngleTests {
  @Test func everyAngleOfBothCuts() throws {
    let dir = try TemporaryDirectory("disckit-serve-feature")
    let iso = dir.path + "/feature.iso"
    try FileManager.default.copyItem(atPath: Fixtures.generated("bluray/feature.iso"), toPath: iso)
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    let id = try ServerFixture.id(server, "feature.iso")
    for key in ["00000", "00001"] {
      var bodies: [Data] = []
      for angle in [1, 2] {
        let base = server.base + "/discs/\(id)/titles/\(key)"
        let reply = try Curl.get(base + "/stream?angle=\(angle)")
        let extract = try ServerFixture.disckit(
          ["extract", iso, "--playlist", key, "--angle", String(angle), "-o", "-"])
        #expect(extract.status == 0, "\(extract.stderr)")
        #expect(reply.status == 200)
        #expect(!reply.body.isEmpty && reply.body == extract.stdout, "\(key) angle \(angle)")
        bodies.append(reply.body)
        for url in ["/stream", "/stream.ts", "/index.m3u8"] {
          let run = try Tool.run(
            "ffmpeg",
            [
              "-nostdin", "-hide_banner", "-v", "warning", "-i", base + url + "?angle=\(angle)",
              "-f", "null", "-",
            ])
          #expect(run.status == 0, "\(key)\(url) angle \(angle)")
          #expect(
            run.stderr.trimmingCharacters(in: .whitespacesAndNewlines) == "",
            "\(key)\(url) angle \(angle)")
        }
      }
      #expect(bodies[0] != bodies[1], "\(key): the angles differ")
      let third = try Curl.get(server.base + "/discs/\(id)/titles/\(key)/stream?angle=3")
      #expect(third.status == 400)
    }
  }
}
