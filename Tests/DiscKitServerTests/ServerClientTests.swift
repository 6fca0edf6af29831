import DiscKitTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Real clients against `disckit-serve`: ffprobe and GStreamer over HTTP, a 64-client range load,
/// a client that disconnects mid-stream, hostile requests, the bearer token, and `disckit serve`.
@Suite("disckit serve with real clients", .serialized, .enabled(if: ServerFixture.ready, ServerFixture.notReady), .toolThreads)
struct ServerClientTests {
  static let gstReady =
    FileManager.default.fileExists(atPath: "/usr/bin/python3")
    && (try? Tool.run(
      "/usr/bin/python3",
      ["-c", "import gi; gi.require_version('Gst','1.0'); from gi.repository import Gst; Gst.init(None); assert Gst.ElementFactory.find('souphttpsrc') and Gst.ElementFactory.find('tsdemux')"]
    ).status) == 0
  static let oracles = Fixtures.packageRoot.appendingPathComponent("Tests/oracles").path

  static func jsonObject(_ data: Data) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  /// The 40 MB benchmark stream (`TestImages/scripts/make-all.sh` output).
  static let bigClip = Fixtures.generated("ts/bench-h264.m2ts")
  static let haveBigClip = FileManager.default.fileExists(atPath: bigClip)

  /// A Blu-ray authored by DiscKit from the 40 MB benchmark stream, in its own root.
  /// Tests that call it are enabled on ``haveBigClip``.
  static func bigDisc(_ directory: TemporaryDirectory) throws -> String {
    let clip = try #require(haveBigClip ? bigClip : nil, "\(bigClip) is missing")
    try FileManager.default.createDirectory(atPath: directory.path + "/big", withIntermediateDirectories: true)
    let image = directory.path + "/big/big.iso"
    let result = try ServerFixture.disckit(
      ["author", "--clips", clip, "--title", "bench-h264.m2ts", "-o", image, "--force"])
    #expect(result.status == 0, "\(result.stderr)")
    return image
  }

  @Test(.enabled(if: Tool.has("ffprobe"), "needs ffprobe"))
  func ffprobeFindsTheSameStreamsAndDurationOverHTTP() throws {
    let fixture = try ServerFixture()
    let server = try fixture.start()
    for path in ["movies/simple.iso", "dvd/dvd-pal.iso", "folders/seamless"] {
      let (id, key) = try ServerEndToEndTests.mainKey(server, path)
      let file = fixture.directory.file("title-\(id)")
      try ServerEndToEndTests.extracted(fixture, path, key: key).write(to: URL(fileURLWithPath: file))
      func probe(_ input: String) throws -> [String: Any] {
        let result = try Tool.run(
          "ffprobe",
          ["-v", "error", "-show_entries", "stream=index,codec_type,codec_name,width,height,sample_rate,channels:format=duration,format_name",
           "-of", "json", input])
        #expect(result.status == 0, "\(result.stderr)")
        return try Self.jsonObject(result.stdout)
      }
      let overHTTP = try probe(server.base + "/discs/\(id)/titles/\(key)/stream")
      let fromFile = try probe(file)
      #expect(NSDictionary(dictionary: overHTTP) == NSDictionary(dictionary: fromFile), "\(path)")
      #expect(((overHTTP["streams"] as? [Any])?.count ?? 0) >= 2, "\(path)")
    }
  }

  @Test(.enabled(if: gstReady, "needs python3-gst-1.0 with souphttpsrc and tsdemux"))
  func gstreamerStartsAtTheScannedPTS() throws {
    let fixture = try ServerFixture()
    let server = try fixture.start()
    for (path, seconds) in [("movies/simple.iso", 5), ("folders/seamless", 4), ("movies/simple.iso", 0)] {
      let (id, key) = try ServerEndToEndTests.mainKey(server, path)
      let base = server.base + "/discs/\(id)/titles/\(key)"
      let scan = try Self.jsonObject(try Curl.get(base + "/scan?start=\(seconds)").body)
      let result = try Tool.run(
        "/usr/bin/python3", [Self.oracles + "/gst_first_pts.py", base + "/stream?start=\(seconds)"])
      let gst = try Self.jsonObject(result.stdout)
      let video = try #require((scan["video"] as? [[String: Any]])?.first)
      let audio = try #require((scan["audio"] as? [[String: Any]])?.first)
      let videoPTS = try #require(gst["video"] as? Int, "\(result.stdout) \(result.stderr)")
      let audioPTS = try #require(gst["audio"] as? Int)
      // tsdemux drops PES before the PAT; served PAT first, the first video buffer is the scanned
      // first PES, which is the random access point (IDR).
      #expect(video["firstPTS"] as? Int == video["firstIDRPTS"] as? Int, "\(path)")
      #expect(scan["pesBeforePAT"] as? Int == 0)
      // GStreamer's first video/audio buffers are as far apart as the scan's first PTS.
      let scanned = (video["firstPTS"] as? Int ?? 0) - (audio["firstPTS"] as? Int ?? 0)
      let scannedNS = Double(scanned) * 1e9 / 90_000
      #expect(abs(Double(videoPTS - audioPTS) - scannedNS) <= 11_112, "\(path) at \(seconds) s")
    }
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/python3"), "needs python3"))
  func sixtyFourClientsReadRandomRangesByteExact() throws {
    let fixture = try ServerFixture()
    let server = try fixture.start(["--max-streams", "128", "--quiet"])
    let (id, key) = try ServerEndToEndTests.mainKey(server, "movies/simple.iso")
    let file = fixture.directory.file("title.m2ts")
    try ServerEndToEndTests.extracted(fixture, "movies/simple.iso", key: key).write(to: URL(fileURLWithPath: file))
    let before = server.residentKiB ?? 0
    let result = try Tool.run(
      "/usr/bin/python3",
      [Self.oracles + "/http_range_load.py", server.base + "/discs/\(id)/titles/\(key)/stream", file,
       "64", "16", "11", String(256 << 10)])
    let totals = try Self.jsonObject(result.stdout)
    let after = server.residentKiB ?? 0
    print("load: 64 clients x 16 ranges: \(result.text.trimmingCharacters(in: .whitespacesAndNewlines)); server RSS \(before) KiB before, \(after) KiB after")
    #expect(totals["requests"] as? Int == 64 * 16)
    #expect(totals["wrong"] as? Int == 0, "\(result.text)")
    #expect((totals["statuses"] as? [String: Int]) == ["206": 64 * 16])
    #expect(server.isRunning)
    // Bounded memory: far below the bytes served (64 x 16 ranges of up to 256 KiB).
    #expect(after < 512 << 10)
  }

  @Test(.enabled(if: haveBigClip, "run TestImages/scripts/make-all.sh"))
  func aClientThatDisconnectsMidStreamFreesItsStream() throws {
    let directory = try TemporaryDirectory("disckit-big")
    let image = try Self.bigDisc(directory)
    let server = try ServerProcess(root: directory.path + "/big", ["--max-streams", "1", "--quiet"])
    let discs = try Self.jsonObject(try Curl.get(server.base + "/discs").body)["discs"] as? [[String: Any]]
    let disc = try #require(discs?.first)
    let url = server.base + "/discs/\(disc["id"] as? String ?? "")/titles/\(disc["mainTitle"] as? String ?? "")/stream"
    #expect(FileManager.default.fileExists(atPath: image))
    // A raw client that reads 64 KiB of the 40 MB stream, then stops reading and hangs on.
    let port = try #require(Int(server.base.split(separator: ":").last ?? ""))
    let socket = try RawClient(port: port, path: String(url.dropFirst(server.base.count)))
    _ = try socket.read(atLeast: 64 << 10)
    func status() throws -> [String: Any] { try Self.jsonObject(try Curl.get(server.base + "/status").body) }
    #expect(try status()["activeStreams"] as? Int == 1)
    // The one slot is taken: another stream is refused with 503 (not queued, not a crash).
    let refused = try Curl.get(url, ["-H", "Range: bytes=0-99"])
    #expect(refused.status == 503)
    #expect(refused.headers["retry-after"] != nil)
    socket.close()
    var active = 1
    for _ in 0..<200 where active != 0 {
      usleep(50_000)
      active = try status()["activeStreams"] as? Int ?? -1
    }
    #expect(active == 0)
    #expect(try Curl.get(url, ["-H", "Range: bytes=0-99"]).status == 206)
  }

  @Test func hostileRequestsAreAll4xxAndTheServerStaysUp() throws {
    let fixture = try ServerFixture()
    let server = try fixture.start(["--quiet"])
    let (id, key) = try ServerEndToEndTests.mainKey(server, "movies/simple.iso")
    let stream = "/discs/\(id)/titles/\(key)/stream"
    let long = String(repeating: "a", count: 10_000)
    let cases: [(String, [String])] = [
      ("/discs/../../etc/passwd", []),
      ("/discs/%2e%2e/%2e%2e/etc/passwd", []),
      ("/discs/\(id)/titles/..%2f..%2f..%2fetc%2fpasswd/stream", []),
      ("/discs/\(id)%00/titles", []),
      ("/discs/%00", []),
      ("/discs/\(long)", []),
      ("/discs/0123456789abcdef", []),
      ("/discs/ZZZZ", []),
      ("/discs/\(id)/titles/99999/stream", []),
      ("/discs/\(id)/titles/abc/stream", []),
      ("/discs/\(id)/titles/\(key)/stream?start=-1", []),
      ("/discs/\(id)/titles/\(key)/stream?start=nan", []),
      ("/discs/\(id)/titles/\(key)/stream?angle=0", []),
      ("/discs/\(id)/titles/\(key)/stream?timeline=sideways", []),
      ("/discs/\(id)/titles/\(key)/scan?bytes=999999999999", []),
      (stream, ["-H", "Range: bytes=99999999999999999999999-"]),
      (stream, ["-X", "POST"]),
      (stream, ["-X", "PUT", "--data", "x"]),
      (stream, ["-X", "DELETE"]),
      ("/discs", ["-X", "PATCH"]),
      ("/discs", ["-H", "X-Big: " + String(repeating: "b", count: 64 << 10)]),
      ("/nothing-here", []),
    ]
    for (path, arguments) in cases {
      let reply = try Curl.get(server.base + path, arguments)
      #expect((400...499).contains(reply.status), "\(path.prefix(80)) \(arguments.prefix(2)): \(reply.status)")
      if arguments.contains("POST") || arguments.contains("DELETE") {
        #expect(reply.status == 405)
        #expect(reply.headers["allow"] == "GET, HEAD")
      }
    }
    #expect(server.isRunning)
    #expect(try Curl.get(server.base + "/discs").status == 200)
  }

  @Test func theTokenIsRequiredWhenSet() throws {
    let fixture = try ServerFixture()
    let server = try fixture.start(["--token", "s3cret"])
    #expect(try Curl.get(server.base + "/discs").status == 401)
    #expect(try Curl.get(server.base + "/discs", ["-H", "Authorization: Bearer wrong"]).status == 401)
    #expect(try Curl.get(server.base + "/discs", ["-H", "Authorization: Bearer s3cret"]).status == 200)
    #expect(try Curl.get(server.base + "/discs?token=s3cret").status == 200)
    #expect(!server.errorLog.contains("s3cret"))
  }

  @Test func disckitServeRunsTheHelperAndDisckitLinksNoServerCode() throws {
    let fixture = try ServerFixture()
    let server = try ServerProcess(root: fixture.root, ["--quiet"], via: true)
    #expect(try Curl.get(server.base + "/discs").status == 200)
    if Tool.has("nm") {
      let symbols = try Tool.run("nm", ["--defined-only", ServerProcess.disckit])
      #expect(symbols.status == 0)
      for module in ["11Hummingbird", "8NIOPosix", "7NIOCore"] {
        #expect(!symbols.text.contains(module), "disckit links \(module)")
      }
    }
  }
}

/// A blocking TCP client that sends one GET and reads what it is told to.
final class RawClient {
  let descriptor: Int32

  init(port: Int, path: String) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var small: Int32 = 16 << 10
    setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw DiscKitTestError("connect failed") }
    let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    _ = request.withCString { send(descriptor, $0, strlen($0), 0) }
  }

  func read(atLeast count: Int) throws -> Int {
    var total = 0
    var buffer = [UInt8](repeating: 0, count: 16 << 10)
    while total < count {
      let n = recv(descriptor, &buffer, buffer.count, 0)
      guard n > 0 else { throw DiscKitTestError("connection closed after \(total) bytes") }
      total += n
    }
    return total
  }

  func close() { _ = Glibc.close(descriptor) }
}
