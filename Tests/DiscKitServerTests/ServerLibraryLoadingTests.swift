import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitServer

/// What `disckit-serve` maps (issues 29 and 28: its resident memory under 64 clients):
/// libavcodec, its ~100 libraries and libswresample only once a client asks for a transcoded
/// (AAC or FLAC) segment or media playlist, never for listing, streams, the fMP4 master playlist,
/// init segments, video or copied-audio segments (the AAC and FLAC renditions are described from
/// the streams' headers, not by decoding); never libavformat; and no Foundation, CoreFoundation or
/// ICU (FoundationEssentials only). The oracle is the kernel's list of the process's mappings
/// (`/proc/PID/maps`); the debug build links the Swift libraries dynamically, so a linked
/// Foundation would be listed there as `libFoundation.so`.
@Suite(
  "disckit serve maps libavcodec only for transcoded audio", .toolThreads,
  .enabled(
    if: ServerProcess.haveBinary && Curl.available
      && FileManager.default.fileExists(atPath: "/proc/self/maps")
      && FileManager.default.fileExists(atPath: Fixtures.generated("codecs/ac3/BDMV"))
      && FileManager.default.fileExists(atPath: Fixtures.generated("codecs/truehd-core/BDMV"))
      && FileManager.default.fileExists(atPath: Fixtures.generated("codecs/dts/BDMV")),
    "needs disckit-serve, curl, /proc and the make-codecs.sh output"))
struct ServerLibraryLoadingTests {
  /// The file names of the libraries the server has mapped.
  static func mapped(_ server: ServerProcess) throws -> Set<String> {
    // cat: Foundation's String(contentsOfFile:) stops early on a /proc file (size 0).
    let maps = try Tool.run("cat", ["/proc/\(server.process.processIdentifier)/maps"]).text
    var names: Set<String> = []
    for line in maps.split(separator: "\n") {
      guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last,
        path.hasPrefix("/")
      else { continue }
      names.insert(String(path.split(separator: "/").last ?? ""))
    }
    return names
  }

  static func has(_ names: Set<String>, _ library: String) -> Bool {
    names.contains { $0.hasPrefix(library + ".so") || $0.hasPrefix(library + ".") }
  }

  static let codecLibraries = ["libavcodec", "libavutil", "libswresample"]

  static func expectNoCodecLibrary(_ server: ServerProcess, _ after: String) throws {
    let names = try mapped(server)
    for library in codecLibraries + ["libavformat"] {
      #expect(!has(names, library), "\(library) mapped after \(after)")
    }
  }

  static func text(_ url: String) throws -> String {
    let reply = try Curl.get(url)
    #expect(reply.status == 200, "\(url)")
    return String(decoding: reply.body, as: UTF8.self)
  }

  /// The URIs a playlist names (tags' `URI="…"` and segment lines), relative to it.
  static func uris(_ playlist: String) -> [String] {
    var out: [String] = []
    for line in playlist.split(separator: "\n") {
      if line.hasPrefix("#") {
        guard let range = line.range(of: "URI=\"") else { continue }
        out.append(String(line[range.upperBound...].prefix { $0 != "\"" }))
      } else if !line.isEmpty {
        out.append(String(line))
      }
    }
    return out
  }

  @Test func libavcodecLoadsWithTheFirstTranscodedSegment() throws {
    let dir = try TemporaryDirectory("disckit-serve-loading")
    try FileManager.default.copyItem(
      atPath: Fixtures.generated("codecs/ac3"), toPath: dir.path + "/ac3")
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    let base = server.base + "/discs/\(try ServerFixture.id(server, "ac3"))/titles/00000/"
    // Listing and streaming: no codec library, no Foundation.
    #expect(try Curl.get(server.base + "/discs").status == 200)
    #expect(try Curl.get(base + "stream", ["-r", "0-1048575"]).status == 206)
    #expect(try Curl.get(base + "index.m3u8").status == 200)
    let before = try Self.mapped(server)
    for library in Self.codecLibraries + ["libavformat"] {
      #expect(!Self.has(before, library), "\(library) mapped before any transcoding: \(before)")
    }
    for library in ["libFoundation", "lib_FoundationICU", "libFoundationInternationalization"] {
      #expect(!Self.has(before, library), "\(library) linked: \(before.sorted())")
    }
    // The fMP4 master playlist lists the AC-3 stream's AAC rendition from its syncframe header.
    let master = try Self.text(base + "master.m3u8")
    let aac = try #require(Self.uris(master).first { $0.hasPrefix("fmp4/aac-") })
    #expect(master.contains("AAC 2.0 ("), "\(master)")
    try Self.expectNoCodecLibrary(server, "master.m3u8")
    // Its first segment is encoded: libavcodec and libswresample, never libavformat.
    let segment = try #require(Self.uris(try Self.text(base + aac)).first { $0.hasSuffix(".m4s") })
    #expect(try Curl.get(base + "fmp4/" + segment).status == 200)
    let after = try Self.mapped(server)
    for library in Self.codecLibraries {
      #expect(Self.has(after, library), "\(library) not mapped after an AAC segment")
    }
    #expect(!Self.has(after, "libavformat"), "libavformat mapped: the transcoder needs none")
  }

  /// A TrueHD title with its AC-3 core and a DTS title: the master playlist (AAC and FLAC renditions with the
  /// streams' channels), the video's and copied AC-3 core's playlists, init segments and first
  /// segments, and the transcoded renditions' init segments map no codec library; the first FLAC
  /// segment does.
  @Test func copiedAudioMapsNoCodecLibrary() throws {
    let dir = try TemporaryDirectory("disckit-serve-loading-hd")
    for name in ["truehd-core", "dts"] {
      try FileManager.default.copyItem(
        atPath: Fixtures.generated("codecs/" + name), toPath: dir.path + "/" + name)
    }
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    var flacSegments: [String] = []
    for name in ["truehd-core", "dts"] {
      let base = server.base + "/discs/\(try ServerFixture.id(server, name))/titles/00000/"
      let master = try Self.text(base + "master.m3u8")
      let uris = Self.uris(master)
      let flac = try #require(uris.first { $0.hasPrefix("fmp4/flac-") }, "\(name): \(master)")
      #expect(uris.contains { $0.hasPrefix("fmp4/aac-") }, "\(name): \(master)")
      // The copied renditions (TrueHD's AC-3 core) and the video.
      for playlist in uris
      where playlist.hasPrefix("fmp4/video") || playlist.hasPrefix("fmp4/audio-") {
        let files = Self.uris(try Self.text(base + playlist))
        for file in files.filter({ $0.hasSuffix("-init.mp4") })
          + files.filter({ $0.hasSuffix(".m4s") }).prefix(2)
        {
          #expect(try Curl.get(base + "fmp4/" + file).status == 200, "\(name) \(file)")
        }
      }
      if name == "truehd-core" {
        #expect(uris.contains { $0.hasPrefix("fmp4/audio-") }, "no copied AC-3 core: \(master)")
      }
      // The transcoded renditions' init segments: their sample entries come from the headers.
      for transcoded in uris
      where transcoded.hasPrefix("fmp4/aac-") || transcoded.hasPrefix("fmp4/flac-") {
        let stem = transcoded.dropFirst(5).dropLast(5)
        #expect(try Curl.get(base + "fmp4/" + stem + "-init.mp4").status == 200, "\(stem)")
      }
      try Self.expectNoCodecLibrary(server, "\(name)'s master, init and copied segments")
      flacSegments.append(base + "fmp4/" + flac.dropFirst(5).dropLast(5) + "-0.m4s")
    }
    #expect(try Curl.get(flacSegments[0]).status == 200)
    let after = try Self.mapped(server)
    for library in Self.codecLibraries {
      #expect(Self.has(after, library), "\(library) not mapped after a FLAC segment")
    }
    #expect(!Self.has(after, "libavformat"), "libavformat mapped: the transcoder needs none")
  }
}

/// The request target's percent decoding, done without Foundation, against Foundation's
/// `removingPercentEncoding` (the oracle, linked by the tests only) on valid and malformed
/// escapes. Escapes of bytes that are not UTF-8 decode to U+FFFD (Foundation gives that or nil
/// depending on the bytes; the middleware checks the raw target when nil, so the decoded text
/// is the stricter check).
@Suite("Request target percent decoding", .toolThreads)
struct PercentDecodingTests {
  static func decoded(_ target: String) -> String? {
    RequestTargetMiddleware<DiscRequestContext>.percentDecoded(target)
  }

  @Test func decodesAsFoundationDoes() {
    var targets = [
      "/discs/abc/titles/00001/stream", "/a%20b", "/%41%42%43", "/%e2%82%AC", "/%", "/%4", "/%zz",
      "/%4g", "/%00", "/%C3%A9t%C3%A9?x=%2F", "%25%32%35", "/ä%20ö", "", "/%2e%2E/x",
    ]
    var generator = SystemRandomNumberGenerator()
    let pieces = [
      "a", "/", "%", "%2", "%20", "%C3%A9", "%e2%82%ac", "%zz", "é", "?", "%00", "%2e", "0", "F",
    ]
    for _ in 0..<2000 {
      targets.append(
        (0..<Int.random(in: 0...8, using: &generator)).map { _ in
          pieces.randomElement(using: &generator) ?? ""
        }.joined())
    }
    for target in targets {
      // Escapes of bytes that are not UTF-8: see above.
      if Self.decoded(target)?.contains("\u{FFFD}") == true { continue }
      #expect(Self.decoded(target) == target.removingPercentEncoding, "\(target)")
    }
    #expect(Self.decoded("/%ff%C3") == "/\u{FFFD}\u{FFFD}")
  }
}
