import DiscKitTestSupport
import Foundation
import Synchronization
import Testing

/// nginx as a caching proxy in front of `disckit serve` (Scripts/nginx-disckit-cache.conf, run
/// as it is): many clients fetching the same fMP4 HLS files at once and again get the server's
/// bytes, and the server's access log shows each file requested once.
@Suite(
  "disckit serve behind nginx proxy_cache", .serialized,
  .enabled(
    if: ServerProcess.haveBinary && Curl.available && Tool.has("nginx")
      && FileManager.default.fileExists(atPath: Fixtures.generated("bluray/simple/BDMV")),
    "needs disckit-serve, curl, nginx and the make-bluray.sh output"), .toolThreads)
struct ServerProxyCacheTests {
  @Test func repeatedSegmentRequestsReachTheServerOnce() throws {
    let dir = try ServerFMP4HLSTests.root()
    let server = try ServerProcess(root: dir.path)
    let work = try TemporaryDirectory("disckit-nginx")
    try FileManager.default.createDirectory(
      atPath: work.path + "/tmp", withIntermediateDirectories: true)
    let upstream = try #require(server.base.split(separator: ":").last.map(String.init))
    let port = 20_000 + Int(ProcessInfo.processInfo.processIdentifier % 20_000)
    let template = try String(
      contentsOfFile: Fixtures.packageRoot.appendingPathComponent(
        "Scripts/nginx-disckit-cache.conf"
      )
      .path, encoding: .utf8)
    let config = template.replacingOccurrences(of: "@DIR@", with: work.path)
      .replacingOccurrences(of: "@PORT@", with: String(port))
      .replacingOccurrences(of: "@UPSTREAM@", with: upstream)
    try config.write(toFile: work.path + "/nginx.conf", atomically: true, encoding: .utf8)
    let nginx = Process()
    nginx.executableURL = URL(fileURLWithPath: try #require(Tool.find("nginx")))
    nginx.arguments = ["-c", work.path + "/nginx.conf", "-p", work.path]
    nginx.standardError = FileHandle.nullDevice
    try nginx.run()
    defer {
      nginx.terminate()
      nginx.waitUntilExit()
    }
    let proxy = "http://127.0.0.1:\(port)"
    // Wait until nginx answers.
    var ready = false
    for _ in 0..<100 where !ready {
      ready = (try? Curl.get(proxy + "/status"))?.status == 200
      if !ready { Thread.sleep(forTimeInterval: 0.05) }
    }
    #expect(ready, "nginx did not start")

    let id = try ServerFixture.id(server, "simple")
    let path = "/discs/\(id)/titles/00000/fmp4/"
    let master = try ServerFMP4HLSTests.text(server.base + "/discs/\(id)/titles/00000/master.m3u8")
    let audio = try #require(
      master.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MEDIA:") }.flatMap {
        ServerFMP4HLSTests.attributes($0)["URI"]
      }
    ).replacingOccurrences(of: "fmp4/", with: "")
    let files = [
      "video-init.mp4", "video-0.m4s", "video-1.m4s",
      audio.replacingOccurrences(of: ".m3u8", with: "-0.m4s"),
    ]
    let direct = try files.map { try ServerFMP4HLSTests.bytes(server.base + path + $0) }
    let before = server.errorLog

    // 16 clients at once for each file, then each again one by one.
    let clients = 16
    let results = Mutex<[[UInt8]?]>(Array(repeating: nil, count: clients * files.count))
    DispatchQueue.concurrentPerform(iterations: clients * files.count) { k in
      let reply = try? Curl.get(proxy + path + files[k % files.count])
      results.withLock { $0[k] = reply.map { [UInt8]($0.body) } }
    }
    for (k, body) in results.withLock({ $0 }).enumerated() {
      #expect(body == direct[k % files.count], "client \(k)")
    }
    for (k, file) in files.enumerated() {
      let again = try Curl.get(proxy + path + file)
      #expect([UInt8](again.body) == direct[k])
      #expect(again.headers["x-cache-status"] == "HIT", "\(file): \(again.headers)")
    }
    Thread.sleep(forTimeInterval: 0.2)
    let log = String(server.errorLog.dropFirst(before.count))
    for file in files {
      let hits = log.split(separator: "\n").filter { $0.contains(path + file + " ") }.count
      #expect(hits == 1, "\(file) reached disckit serve \(hits) times through nginx")
    }
  }
}
