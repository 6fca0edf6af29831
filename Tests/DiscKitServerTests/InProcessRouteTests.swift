@_spi(Formats) import DiscKit
import DiscKitServer
import DiscKitTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// The Hummingbird adapter in process (HummingbirdTesting): the routes mounted in a router, requests
/// sent to it directly (`.router`) or over a live loopback connection (`.live`). The expected bytes
/// are the title's own (``DiscTitle/byteSource(timeline:)``), the expected statuses and fields those
/// RFC 9110 names; no helper program, client tool or generated image is needed.
@Suite("Server routes in process (HummingbirdTesting)", .toolThreads)
struct InProcessRouteTests {
  static let sample = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
  static let dvd = Fixtures.generated("dvd-pal.iso")

  /// A root with the sample Blu-ray, a disc of seeded noise and, when generated, a DVD.
  final class Root: @unchecked Sendable {
    let directory: TemporaryDirectory
    var path: String { directory.path }

    init() throws {
      directory = try TemporaryDirectory("disckit-inprocess")
      let fm = FileManager.default
      try fm.createDirectory(atPath: path + "/broken", withIntermediateDirectories: true)
      try fm.copyItem(atPath: InProcessRouteTests.sample, toPath: path + "/sample-bluray.iso")
      var random = SeededRandom(seed: 21)
      try Data((0..<(64 << 10)).map { _ in UInt8.random(in: 0...255, using: &random) })
        .write(to: URL(fileURLWithPath: path + "/broken/noise.iso"))
      if fm.fileExists(atPath: InProcessRouteTests.dvd) {
        try fm.copyItem(atPath: InProcessRouteTests.dvd, toPath: path + "/dvd-pal.iso")
      }
    }
  }

  /// The title's bytes as the stream route serves them by default.
  static func titleBytes(_ path: String, key: String) throws -> [UInt8] {
    let source = try Disc.open(path: path).title(key: key).byteSource(timeline: .continuous)
    return try source.bytes(at: 0, count: Int(source.size))
  }

  static func app<Context: RequestContext>(
    _ root: Root, context: Context.Type, configuration: DiscServerConfiguration = .init()
  ) throws -> some ApplicationProtocol where Context.Source == ApplicationRequestContextSource {
    let router = Router(context: Context.self)
    router.addRoutes(
      try DiscRoutes<Context>(root: root.path, configuration: configuration).collection())
    return Application(router: router)
  }

  /// `GET /discs` as path → id.
  static func ids(_ client: some TestClientProtocol) async throws -> [String: String] {
    let response = try await client.execute(uri: "/discs", method: .get)
    #expect(response.status == .ok)
    let object =
      try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
      as? [String: Any]
    let discs = object?["discs"] as? [[String: Any]] ?? []
    var ids: [String: String] = [:]
    for disc in discs {
      if let path = disc["path"] as? String, let id = disc["id"] as? String { ids[path] = id }
    }
    return ids
  }

  static func bytes(_ response: TestResponse) -> [UInt8] {
    Array(response.body.readableBytesView)
  }

  @Test func rangesHeadAndValidators() async throws {
    let root = try Root()
    let expected = try Self.titleBytes(Self.sample, key: "00000")
    let size = expected.count
    try await Self.app(root, context: BasicRequestContext.self).test(.router) { client in
      let id = try #require(try await Self.ids(client)["sample-bluray.iso"])
      let uri = "/discs/\(id)/titles/00000/stream"

      let whole = try await client.execute(uri: uri, method: .get)
      #expect(whole.status == .ok)
      #expect(Self.bytes(whole) == expected)
      #expect(whole.headers[.contentLength] == String(size))
      #expect(whole.headers[.contentType] == "video/mp2t")
      #expect(whole.headers[.acceptRanges] == "bytes")
      let eTag = try #require(whole.headers[.eTag])
      let lastModified = try #require(whole.headers[.lastModified])

      let part = try await client.execute(
        uri: uri, method: .get, headers: [.range: "bytes=100-199"])
      #expect(part.status == .partialContent)
      #expect(part.headers[.contentRange] == "bytes 100-199/\(size)")
      #expect(Self.bytes(part) == Array(expected[100..<200]))

      let suffix = try await client.execute(
        uri: uri, method: .get, headers: [.range: "bytes=-1000"])
      #expect(suffix.status == .partialContent)
      #expect(Self.bytes(suffix) == Array(expected[(size - 1000)...]))

      let open = try await client.execute(
        uri: uri, method: .get, headers: [.range: "bytes=\(size - 10)-"])
      #expect(Self.bytes(open) == Array(expected[(size - 10)...]))

      // 416 with `Content-Range: bytes */size`, a JSON error, and the server goes on.
      let beyond = try await client.execute(
        uri: uri, method: .get, headers: [.range: "bytes=\(size)-"])
      #expect(beyond.status == .rangeNotSatisfiable)
      #expect(beyond.headers[.contentRange] == "bytes */\(size)")
      #expect(String(buffer: beyond.body).contains("\"error\""))

      // If-Range: the current ETag or the exact date keeps the range; another ETag gets all.
      for validator in [eTag, lastModified] {
        let kept = try await client.execute(
          uri: uri, method: .get, headers: [.range: "bytes=0-9", .ifRange: validator])
        #expect(kept.status == .partialContent)
        #expect(Self.bytes(kept) == Array(expected[0..<10]))
      }
      let stale = try await client.execute(
        uri: uri, method: .get, headers: [.range: "bytes=0-9", .ifRange: "\"stale\""])
      #expect(stale.status == .ok)
      #expect(stale.body.readableBytes == size)

      let notModified = try await client.execute(
        uri: uri, method: .get, headers: [.ifNoneMatch: eTag])
      #expect(notModified.status == .notModified)
      #expect(notModified.body.readableBytes == 0)
      #expect(notModified.headers[.eTag] == eTag)

      // HEAD: the GET's status and fields, no body.
      let head = try await client.execute(uri: uri, method: .head)
      #expect(head.status == .ok)
      #expect(head.headers[.contentLength] == String(size))
      #expect(head.headers[.eTag] == eTag)
      #expect(head.body.readableBytes == 0)
      let headRange = try await client.execute(
        uri: uri, method: .head, headers: [.range: "bytes=5-14"])
      #expect(headRange.status == .partialContent)
      #expect(headRange.headers[.contentLength] == "10")

      // Read-only: other methods are 405 with `Allow`.
      let post = try await client.execute(uri: uri, method: .post)
      #expect(post.status == .methodNotAllowed)
      #expect(post.headers[.allow] == "GET, HEAD")
    }
  }

  /// The playlist's byte ranges tile `stream.ts` (the title without its 4-byte arrival stamps),
  /// and each segment starts with a transport packet.
  @Test func hlsPlaylistOverStreamTS() async throws {
    let root = try Root()
    let title = try Self.titleBytes(Self.sample, key: "00000")
    // The 188-byte packets, built by the test from the 192-byte ones.
    let plain = stride(from: 0, to: title.count / 192 * 192, by: 192).flatMap {
      title[($0 + 4)..<($0 + 192)]
    }
    try await Self.app(root, context: BasicRequestContext.self).test(.router) { client in
      let id = try #require(try await Self.ids(client)["sample-bluray.iso"])
      let base = "/discs/\(id)/titles/00000"
      let reply = try await client.execute(uri: base + "/index.m3u8", method: .get)
      #expect(reply.status == .ok)
      #expect(reply.headers[.contentType] == "application/vnd.apple.mpegurl")
      let lines = String(buffer: reply.body).split(separator: "\n").map(String.init)
      #expect(lines.first == "#EXTM3U")
      #expect(lines.last == "#EXT-X-ENDLIST")
      var next = 0
      for line in lines where line.hasPrefix("#EXT-X-BYTERANGE:") {
        let spec = line.dropFirst("#EXT-X-BYTERANGE:".count).split(separator: "@")
        let length = try #require(Int(spec[0]))
        let offset = try #require(Int(spec[1]))
        #expect(offset == next)
        next = offset + length
        #expect(plain[offset] == 0x47)
      }
      #expect(next == plain.count)
      let stream = try await client.execute(uri: base + "/stream.ts", method: .get)
      #expect(stream.status == .ok)
      #expect(stream.headers[.contentType] == "video/mp2t")
      #expect(Self.bytes(stream) == plain)
      let range = try await client.execute(
        uri: base + "/stream.ts", method: .get, headers: [.range: "bytes=188-563"])
      #expect(Self.bytes(range) == Array(plain[188..<564]))
    }
  }

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: dvd),
      "run TestImages/scripts/make-all.sh (dvd-pal.iso)"))
  func dvdTitlesHaveNoHLSButStream() async throws {
    let root = try Root()
    try await Self.app(root, context: BasicRequestContext.self).test(.router) { client in
      let id = try #require(try await Self.ids(client)["dvd-pal.iso"])
      let base = "/discs/\(id)/titles/1"
      let hls = try await client.execute(uri: base + "/index.m3u8", method: .get)
      #expect(hls.status == .notFound)
      #expect(String(buffer: hls.body).contains("program stream"))
      #expect(try await client.execute(uri: base + "/stream.ts", method: .head).status == .notFound)
      let head = try await client.execute(uri: base + "/stream", method: .head)
      #expect(head.status == .ok)
      #expect(head.headers[.contentType] == "video/mpeg")
    }
  }

  /// A disc that cannot be read answers 422 with DiscKit's error, and only for itself.
  @Test func aBadImageIs4xxAndTheServerKeepsServing() async throws {
    let root = try Root()
    let expected = try Self.titleBytes(Self.sample, key: "00000")
    try await Self.app(root, context: BasicRequestContext.self).test(.router) { client in
      let ids = try await Self.ids(client)
      let noise = try #require(ids["broken/noise.iso"])
      let good = try #require(ids["sample-bluray.iso"])
      for uri in [
        "/discs/\(noise)", "/discs/\(noise)/titles", "/discs/\(noise)/titles/00000/stream",
      ] {
        let reply = try await client.execute(uri: uri, method: .get)
        #expect(reply.status == .unprocessableContent, "\(uri)")
        #expect(String(buffer: reply.body).hasPrefix("{\"error\":"), "\(uri)")
      }
      #expect(
        try await client.execute(uri: "/discs/0123456789abcdef", method: .get).status == .notFound)
      #expect(
        try await client.execute(uri: "/discs/\(good)/titles/77777/stream", method: .get).status
          == .notFound)
      #expect(
        try await client.execute(uri: "/discs/\(good)/titles/00000/stream?start=-1", method: .get)
          .status == .badRequest)
      let part = try await client.execute(
        uri: "/discs/\(good)/titles/00000/stream", method: .get,
        headers: [.range: "bytes=1000-1999"])
      #expect(part.status == .partialContent)
      #expect(Self.bytes(part) == Array(expected[1000..<2000]))
      let status = try await client.execute(uri: "/status", method: .get)
      #expect(status.status == .ok)
    }
  }

  /// A one-chunk range is read before the answer is sent (in memory: right away; not: on the
  /// thread pool, after its pages were dropped from the page cache): when the disc's bytes are gone
  /// (the image truncated under an open disc, within the library's revalidation window), the
  /// answer is an error status with a JSON message, not a cut connection, and the server goes on.
  @Test func aShortRangeThatCannotBeReadIsAnErrorStatus() async throws {
    let root = try Root()
    let expected = try Self.titleBytes(Self.sample, key: "00000")
    let image = root.path + "/sample-bluray.iso"
    let configuration = DiscServerConfiguration(chunkSize: 64 << 10)
    try await Self.app(root, context: BasicRequestContext.self, configuration: configuration).test(
      .router
    ) { client in
      let id = try #require(try await Self.ids(client)["sample-bluray.iso"])
      let uri = "/discs/\(id)/titles/00000/stream"
      let tail = expected.count - 4096
      let range: HTTPFields = [.range: "bytes=\(tail)-\(expected.count - 1)"]
      let first = try await client.execute(uri: uri, method: .get, headers: range)
      #expect(first.status == .partialContent)
      #expect(Self.bytes(first) == Array(expected[tail...]))
      // Out of the page cache (written back and dropped, where the machine can), the bytes
      // come from the thread pool.
      PageCache.drop(image)
      let cold = try await client.execute(uri: uri, method: .get, headers: range)
      #expect(cold.status == .partialContent)
      #expect(Self.bytes(cold) == Array(expected[tail...]))
      // The image loses its second half; the open disc reads past its new end.
      let size = try #require(
        try FileManager.default.attributesOfItem(atPath: image)[.size] as? Int)
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: image))
      try handle.truncate(atOffset: UInt64(size / 2))
      try handle.close()
      let gone = try await client.execute(uri: uri, method: .get, headers: range)
      #expect(gone.status.code >= 400, "\(gone.status)")
      #expect(String(buffer: gone.body).hasPrefix("{\"error\":"), "\(String(buffer: gone.body))")
      #expect(try await client.execute(uri: "/status", method: .get).status == .ok)
    }
  }

  /// Over a live connection with the server's own context (the connection's event loop known, so
  /// the body waits for it after each chunk): a range of six 16 KiB chunks that starts and ends
  /// inside a chunk, and the title's last bytes (three chunks), arrive byte for byte. The whole
  /// title, byte for byte, is `rangesHeadAndValidators`' (over `.router`).
  ///
  /// Every suite runs with `.toolThreads`: the synchronous tests that wait for child processes
  /// (`Tool.run`: curl, ffprobe, ffmpeg, GStreamer, Chromium) do so on threads of their own, not
  /// on the test process's cooperative pool (as many threads as cores). Before, they held its
  /// threads for tens of seconds at a time while this body needed about two resumptions there
  /// per chunk: beside tests waiting on `sleep 0.2` in a loop, four of them made the whole title
  /// take 8.0 s instead of 0.07 s and ten ran it out of the client's 20 s (`readTimeout`).
  @Test func liveWithTheConnectionContext() async throws {
    let root = try Root()
    let expected = try Self.titleBytes(Self.sample, key: "00000")
    let chunk = 16 << 10
    let app = try Self.app(
      root, context: DiscRequestContext.self, configuration: .init(chunkSize: chunk))
    try await app.test(.live) { client in
      let id = try #require(try await Self.ids(client)["sample-bluray.iso"])
      let uri = "/discs/\(id)/titles/00000/stream"
      let (first, last) = (4096, 4096 + 5 * chunk + 999)
      let part = try await client.execute(
        uri: uri, method: .get, headers: [.range: "bytes=\(first)-\(last)"])
      #expect(part.status == .partialContent)
      #expect(Self.bytes(part) == Array(expected[first...last]))
      let tail = try await client.execute(
        uri: uri, method: .get, headers: [.range: "bytes=-\(2 * chunk + 100)"])
      #expect(tail.status == .partialContent)
      #expect(Self.bytes(tail) == Array(expected[(expected.count - 2 * chunk - 100)...]))
    }
  }

  /// The stream limit: a stream whose body is not consumed holds its slot; the next is 503.
  @Test func theStreamLimitAnswers503WithRetryAfter() async throws {
    let library = try DiscLibrary(root: Self.sample)
    let routes = DiscRoutes<BasicRequestContext>(
      library: library, configuration: .init(maxStreams: 1))
    let disc = try library.open(id: try #require(library.entries().first).id)
    let resource = try TitleResource(disc: disc, key: "00000")
    let ticket = try #require(routes.limiter.acquire())
    let router = Router(context: BasicRequestContext.self)
    router.addRoutes(routes.collection())
    try await Application(router: router).test(.router) { client in
      let uri = "/discs/\(disc.entry.id)/titles/00000/stream"
      let busy = try await client.execute(uri: uri, method: .get)
      #expect(busy.status == .serviceUnavailable)
      #expect(busy.headers[.retryAfter] == "1")
      // HEAD needs no slot.
      let head = try await client.execute(uri: uri, method: .head)
      #expect(head.headers[.contentLength] == String(resource.length))
    }
    withExtendedLifetime(ticket) {}
  }
}
