import DiscKitTestSupport
import Foundation
import Testing

/// The memory a stream holds, whatever the client's speed: slow clients must not make the server
/// queue the title in memory ahead of their sockets.
@Suite("disckit serve memory under slow clients", .toolThreads)
struct ServerMemoryTests {
  static let clip = Fixtures.generated("ts/bench-h264.m2ts")
  static let ready =
    ServerFixture.ready && FileManager.default.fileExists(atPath: clip)
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")

  /// 16 clients read a 40 MB stream at 1 MB/s each. The server's resident memory grows by the
  /// streams' chunks in flight (at most three 128 KiB chunks a stream, see
  /// `ConnectionEventLoopContext`), not by what the clients have yet to read: the test allows
  /// 2 MiB a stream. (Before the bound, the same load grew the server by about 10 MiB a stream:
  /// chunks queued on the connection faster than its event loop could say it was full.)
  @Test(
    .enabled(
      if: ready, "needs the built disckit-serve, curl and TestImages/scripts/make-all.sh output"))
  func slowClientsHoldAFewChunksEach() throws {
    let directory = try TemporaryDirectory("disckit-memory")
    let image = try #require(try ServerClientTests.bigDisc(directory))
    #expect(FileManager.default.fileExists(atPath: image))
    let server = try ServerProcess(
      root: directory.path + "/big", ["--max-streams", "64", "--quiet"])
    let discs =
      try ServerClientTests.jsonObject(try Curl.get(server.base + "/discs").body)["discs"]
      as? [[String: Any]]
    let disc = try #require(discs?.first)
    let url =
      server.base
      + "/discs/\(disc["id"] as? String ?? "")/titles/\(disc["mainTitle"] as? String ?? "")/stream"
    // Warm up: one whole request, so that thread pools and caches exist before the baseline.
    #expect(try Curl.get(url, ["-H", "Range: bytes=0-1048575"]).status == 206)
    let before = try #require(server.residentKiB)
    let clients = 16
    var curls: [Process] = []
    defer {
      for curl in curls where curl.isRunning {
        curl.terminate()
        curl.waitUntilExit()
      }
    }
    for _ in 0..<clients {
      let curl = Process()
      curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
      curl.arguments = ["-s", "-o", "/dev/null", "--limit-rate", "1M", url]
      try curl.run()
      curls.append(curl)
    }
    var peak = before
    for _ in 0..<30 {
      usleep(100_000)
      peak = max(peak, server.residentKiB ?? 0)
    }
    let status = try ServerClientTests.jsonObject(try Curl.get(server.base + "/status").body)
    #expect(status["activeStreams"] as? Int == clients)
    let perStream = (peak - before) / clients
    print(
      "memory: \(clients) clients at 1 MB/s: RSS \(before) KiB before, peak \(peak) KiB, \(perStream) KiB a stream"
    )
    #expect(perStream < 2048, "\(perStream) KiB a stream")
  }
}
