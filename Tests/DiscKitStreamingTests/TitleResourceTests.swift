@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitStreaming

/// Title resources, their answers to range and conditional requests (RFC 9110 §13, §14) and HLS
/// playlists, on the committed sample Blu-ray and a generated DVD, with no web framework.
@Suite("Title resources, validators and HLS", .toolThreads)
struct TitleResourceTests {
  static let sample = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
  static let dvd = Fixtures.generated("dvd-pal.iso")
  static let haveDVD = FileManager.default.fileExists(atPath: dvd)

  /// The one disc of a library whose root is `path`.
  static func opened(_ path: String) throws -> OpenedDisc {
    let library = try DiscLibrary(root: path)
    let entry = try #require(library.entries().first)
    return try library.open(id: entry.id)
  }

  @Test func aWholeTitleIsTheTitlesBytesOnTheContinuousTimeline() throws {
    let disc = try Self.opened(Self.sample)
    let resource = try TitleResource(disc: disc, key: "00000")
    let expected = try disc.disc.title(key: "00000").byteSource(timeline: .continuous)
    #expect(resource.length == expected.size)
    #expect(try resource.source.bytes(at: 0, count: 4096) == expected.bytes(at: 0, count: 4096))
    #expect(resource.contentType == "video/mp2t")
    #expect(resource.eTag.hasPrefix("\"") && resource.eTag.hasSuffix("\""))
    // Keys that are not a title of the disc are 404.
    for bad in ["abc", "123456", "99999"] {
      let error = #expect(throws: StreamingError.self) { try TitleResource(disc: disc, key: bad) }
      #expect(error?.status == 404, "\(bad)")
    }
  }

  @Test func rangesAndValidatorsFollowRFC9110() throws {
    let resource = try TitleResource(disc: try Self.opened(Self.sample), key: "00000")
    let size = resource.length
    let whole = try TitleResponse(resource: resource, range: nil)
    #expect(whole.status == 200)
    #expect(whole.range == 0..<size)
    #expect(whole.headers["Content-Length"] == String(size))
    #expect(whole.headers["Accept-Ranges"] == "bytes")
    #expect(whole.headers["ETag"] == resource.eTag)
    #expect(whole.headers["Last-Modified"] == resource.lastModified)
    #expect(whole.headers["Content-Range"] == nil)

    let part = try TitleResponse(resource: resource, range: "bytes=100-199")
    #expect(part.status == 206)
    #expect(part.range == 100..<200)
    #expect(part.headers["Content-Range"] == "bytes 100-199/\(size)")
    #expect(part.headers["Content-Length"] == "100")

    let suffix = try TitleResponse(resource: resource, range: "bytes=-500")
    #expect(suffix.range == (size - 500)..<size)

    // If-Range: the current strong ETag or the exact date keeps the range; anything else is 200.
    #expect(
      try TitleResponse(resource: resource, range: "bytes=0-9", ifRange: resource.eTag).status
        == 206)
    #expect(
      try TitleResponse(resource: resource, range: "bytes=0-9", ifRange: resource.lastModified)
        .status == 206)
    let stale = try TitleResponse(resource: resource, range: "bytes=0-9", ifRange: "\"other\"")
    #expect(stale.status == 200 && stale.range == 0..<size)
    #expect(
      try TitleResponse(
        resource: resource, range: "bytes=0-9", ifRange: "Thu, 01 Jan 1970 00:00:00 GMT"
      ).status == 200)

    // If-None-Match: 304 without a body, validators still sent.
    let notModified = try TitleResponse(
      resource: resource, range: "bytes=0-9", ifNoneMatch: "\"x\", " + resource.eTag)
    #expect(notModified.status == 304)
    #expect(notModified.range.isEmpty)
    #expect(notModified.headers["ETag"] == resource.eTag)
    #expect(notModified.headers["Content-Length"] == nil)

    // Unsatisfiable: 416 with `Content-Range: bytes */size` (as nginx answers).
    let error = #expect(throws: StreamingError.self) {
      try TitleResponse(resource: resource, range: "bytes=\(size)-")
    }
    #expect(error == .rangeNotSatisfiable(size: size))
    #expect(error?.status == 416)
    #expect(error?.headers["Content-Range"] == "bytes */\(size)")
  }

  /// Seeded random header values (ranges, lists, validators, junk): never a trap, and every
  /// answer keeps RFC 9110's shape: 200/206 inside the resource with a matching `Content-Length`
  /// (and `Content-Range` for 206), 304 without a body, or 416 naming the size.
  @Test func randomHeadersGetWellFormedAnswers() throws {
    let resource = try TitleResource(disc: try Self.opened(Self.sample), key: "00000")
    let size = resource.length
    let pieces = [
      "bytes", "=", "-", ",", " ", "0", "1", "9", "\(size)", "\(size - 1)", "\(size + 1)",
      "99999999999999999999", "items", "\"", "W/", "*", resource.eTag, resource.lastModified, "\t",
    ]
    var random = SeededRandom(seed: 2121)
    func header() -> String? {
      if Int.random(in: 0..<5, using: &random) == 0 { return nil }
      return (0..<Int.random(in: 0...8, using: &random)).map { _ in
        pieces[Int.random(in: 0..<pieces.count, using: &random)]
      }.joined()
    }
    for _ in 0..<5_000 {
      let (range, ifRange, ifNoneMatch) = (header(), header(), header())
      do {
        let answer = try TitleResponse(
          resource: resource, range: range, ifRange: ifRange, ifNoneMatch: ifNoneMatch)
        #expect([200, 206, 304].contains(answer.status))
        #expect(answer.range.lowerBound >= 0 && answer.range.upperBound <= size)
        #expect(answer.headers["ETag"] == resource.eTag)
        switch answer.status {
        case 304:
          #expect(answer.range.isEmpty && answer.headers["Content-Length"] == nil)
        case 206:
          #expect(!answer.range.isEmpty)
          #expect(answer.headers["Content-Length"] == String(answer.range.count))
          #expect(
            answer.headers["Content-Range"]
              == "bytes \(answer.range.lowerBound)-\(answer.range.upperBound - 1)/\(size)")
        default:
          #expect(answer.range == 0..<size && answer.headers["Content-Range"] == nil)
        }
      } catch {
        #expect(error == .rangeNotSatisfiable(size: size))
        #expect(range != nil)
      }
    }
  }

  /// The playlist's segments tile the 188-byte view (192-byte packets without their 4-byte
  /// arrival stamps), each starting with a PSI packet, and play as long as the title.
  @Test func hlsSegmentsTileTheTransportStreamView() throws {
    let disc = try Self.opened(Self.sample)
    let title = try disc.disc.title(key: "00000")
    let playlist = try HLSPlaylist(title: title)
    let view = TransportStreamView(try title.byteSource(timeline: .continuous))
    #expect(view.size == title.size / 192 * 188)
    var next: Int64 = 0
    for segment in playlist.segments {
      #expect(segment.offset == next)
      #expect(segment.offset % 188 == 0 && segment.length % 188 == 0)
      next = segment.offset + segment.length
      let head = try view.bytes(at: segment.offset, count: 3)
      #expect(head[0] == 0x47)
      #expect((UInt16(head[1] & 0x1F) << 8 | UInt16(head[2])) <= 0x1001)
    }
    #expect(next == view.size)
    #expect(playlist.segments.count >= 2)
    let total = playlist.segments.reduce(MediaTime.zero) { $0 + $1.duration }
    #expect(total == title.duration)
    let text = playlist.text(uri: "stream.ts")
    #expect(text.hasPrefix("#EXTM3U\n#EXT-X-VERSION:4\n"))
    #expect(text.hasSuffix("#EXT-X-ENDLIST\n"))
    #expect(text.components(separatedBy: "#EXTINF:").count == playlist.segments.count + 1)
  }

  /// A DVD title is a program stream: no HLS, no 188-byte view, a 404 that says why; its stream
  /// is served as it is.
  @Test(.enabled(if: haveDVD, "run TestImages/scripts/make-all.sh (dvd-pal.iso)"))
  func dvdTitlesHaveNoHLS() throws {
    let disc = try Self.opened(Self.dvd)
    let title = try disc.disc.title(key: "1")
    let hls = #expect(throws: StreamingError.self) { try HLSPlaylist(title: title) }
    #expect(hls == .needsTransportStream(title: "1"))
    #expect(hls?.status == 404)
    #expect(hls?.description.contains("program stream") == true)
    let view = #expect(throws: StreamingError.self) {
      try TitleResource(disc: disc, key: "1", plainTransportStream: true)
    }
    #expect(view == .needsTransportStream(title: "1"))
    let resource = try TitleResource(disc: disc, key: "1")
    #expect(resource.contentType == "video/mpeg")
    #expect(resource.length == (try title.byteSource(timeline: .continuous)).size)
  }

  /// The statuses are those RFC 9110 names for each case.
  @Test func errorStatuses() {
    let missing = DiscKitError(.notFound, "title 7", at: nil, "no such title")
    #expect(StreamingError.disc(missing).status == 404)
    #expect(
      StreamingError.disc(DiscKitError(.invalidArgument, "angle", at: nil, "9")).status == 400)
    #expect(StreamingError.disc(.truncated("MPLS", at: 40, needed: 4)).status == 422)
    #expect(StreamingError.disc(DiscKitError(.io, "image", at: 0, "EIO")).status == 500)
    #expect(StreamingError.badRequest("start").status == 400)
    #expect(StreamingError.tooManyStreams(maximum: 2).status == 503)
    #expect(StreamingError.tooManyStreams(maximum: 2).headers == ["Retry-After": "1"])
  }
}
