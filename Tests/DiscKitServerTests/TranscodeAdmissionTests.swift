import DiscKitServer
import DiscKitStreaming
import DiscKitTestSupport
import DiscKitTranscode
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// The admission of transcoding requests (issue 28: 64 FLAC clients at once held 64 encoders,
/// 229 MiB): with `maxTranscodes` N, the transcoder's own count of live encoder contexts never
/// passes N while many AAC and FLAC segments are asked for at once, no request fails (the others
/// wait), and every segment is byte for byte the one a server admitting one request at a time
/// serves, requested one after the other.
@Suite(
  "Transcode admission", .toolThreads,
  .enabled(
    if: FileManager.default.fileExists(atPath: Fixtures.generated("codecs/audio-long/BDMV")),
    "needs the make-codecs.sh output"))
struct TranscodeAdmissionTests {
  static func app(_ root: String, _ transcoder: LibAVAudioTranscoder, limit: Int) throws
    -> some ApplicationProtocol
  {
    var configuration = DiscServerConfiguration()
    configuration.audioTranscoder = transcoder
    configuration.maxTranscodes = limit
    let router = Router(context: BasicRequestContext.self)
    router.addRoutes(
      try DiscRoutes<BasicRequestContext>(root: root, configuration: configuration).collection())
    return Application(router: router)
  }

  static func text(_ client: some TestClientProtocol, _ uri: String) async throws -> String {
    let response = try await client.execute(uri: uri, method: .get)
    #expect(response.status == .ok, "\(uri)")
    return String(decoding: response.body.readableBytesView, as: UTF8.self)
  }

  /// The URIs of a playlist's segment lines and `URI="…"` attributes.
  static func uris(_ playlist: String) -> [String] {
    ServerLibraryLoadingTests.uris(playlist)
  }

  /// Every AAC and FLAC media segment of the title, by URI, fetched one after the other.
  static func segments(_ client: some TestClientProtocol, base: String) async throws -> [String] {
    let master = try await text(client, base + "master.m3u8")
    var out: [String] = []
    for rendition in uris(master)
    where rendition.hasPrefix("fmp4/aac-") || rendition.hasPrefix("fmp4/flac-") {
      let playlist = try await text(client, base + rendition)
      out += uris(playlist).filter { $0.hasSuffix(".m4s") }.map { base + "fmp4/" + $0 }
    }
    return out
  }

  @Test func atMostNEncodersAndTheSameBytes() async throws {
    let directory = try TemporaryDirectory("disckit-admission")
    try FileManager.default.copyItem(
      atPath: Fixtures.generated("codecs/audio-long"), toPath: directory.path + "/audio-long")
    // One request at a time, one after the other.
    let serial = LibAVAudioTranscoder()
    let (uris, expected) = try await Self.app(directory.path, serial, limit: 1).test(.router) {
      client in
      let id = try #require(try await InProcessRouteTests.ids(client)["audio-long"])
      let base = "/discs/\(id)/titles/00000/"
      let uris = try await Self.segments(client, base: base)
      var expected: [String: [UInt8]] = [:]
      for uri in uris {
        let response = try await client.execute(uri: uri, method: .get)
        #expect(response.status == .ok, "\(uri)")
        expected[uri] = Array(response.body.readableBytesView)
      }
      return (uris, expected)
    }
    #expect(uris.contains { $0.contains("/flac-") } && uris.contains { $0.contains("/aac-") })
    #expect(uris.count >= 6, "\(uris)")
    #expect(serial.encoders.peak == 1)
    // Two at a time: every segment asked for by four clients at once.
    let limit = 2
    let concurrent = LibAVAudioTranscoder()
    try await Self.app(directory.path, concurrent, limit: limit).test(.router) { client in
      let id = try #require(try await InProcessRouteTests.ids(client)["audio-long"])
      let base = "/discs/\(id)/titles/00000/"
      #expect(try await Self.segments(client, base: base) == uris)
      try await withThrowingTaskGroup(of: (String, Int, [UInt8]).self) { group in
        for _ in 0..<4 {
          for uri in uris.shuffled() {
            group.addTask {
              let response = try await client.execute(uri: uri, method: .get)
              return (uri, Int(response.status.code), Array(response.body.readableBytesView))
            }
          }
        }
        var answered = 0
        for try await (uri, status, bytes) in group {
          #expect(status == 200, "\(uri)")
          #expect(bytes == expected[uri], "\(uri) differs from the serial run's")
          answered += 1
        }
        #expect(answered == 4 * uris.count)
      }
    }
    #expect(concurrent.encoders.peak >= 1)
    #expect(concurrent.encoders.peak <= limit, "\(concurrent.encoders.peak) encoders at once")
    #expect(concurrent.encoders.live == 0)
  }

  /// The admission alone: 24 tasks through a limit of 3, each holding its ticket across a few
  /// suspensions; never more than 3 inside, every one admitted.
  @Test func waitersAreAdmittedInTurn() async {
    final class Inside: Sendable {
      let counts = Mutex((now: 0, most: 0))
    }
    let admission = TranscodeAdmission(limit: 3)
    let inside = Inside()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<24 {
        group.addTask {
          let ticket = await admission.enter()
          inside.counts.withLock {
            $0.now += 1
            $0.most = max($0.most, $0.now)
          }
          for _ in 0..<5 { await Task.yield() }
          inside.counts.withLock { $0.now -= 1 }
          withExtendedLifetime(ticket) {}
        }
      }
    }
    #expect(inside.counts.withLock { $0.most } <= 3)
    #expect(admission.admitted == 24)
    #expect(admission.peak <= 3)
    #expect(admission.active == 0 && admission.waiting == 0)
  }
}
