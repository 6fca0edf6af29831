import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitServer

/// What `disckit-serve` maps (issue 29: its resident memory under 64 streams): libavcodec, its
/// ~100 libraries and libswresample only once a title's fMP4 HLS probes its audio for the AAC
/// and FLAC renditions (loaded with dlopen by CDiscKitLibAV), never libavformat, and no
/// Foundation, CoreFoundation or ICU (FoundationEssentials only). The oracle is the kernel's list
/// of the process's mappings (`/proc/PID/maps`); the debug build links the Swift libraries
/// dynamically, so a linked Foundation would be listed there as `libFoundation.so`.
@Suite(
  "disckit serve maps libavcodec only for transcoded audio", .toolThreads,
  .enabled(
    if: ServerProcess.haveBinary && Curl.available
      && FileManager.default.fileExists(atPath: "/proc/self/maps")
      && FileManager.default.fileExists(atPath: Fixtures.generated("codecs/ac3/BDMV")),
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

  @Test func libavcodecLoadsWithTheFirstHLSPlan() throws {
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
    for library in ["libavcodec", "libavutil", "libswresample", "libavformat"] {
      #expect(!Self.has(before, library), "\(library) mapped before any transcoding: \(before)")
    }
    for library in ["libFoundation", "lib_FoundationICU", "libFoundationInternationalization"] {
      #expect(!Self.has(before, library), "\(library) linked: \(before.sorted())")
    }
    // The fMP4 master playlist probes the AC-3 stream with libavcodec for its AAC rendition.
    let master = try Curl.get(base + "master.m3u8")
    #expect(master.status == 200)
    #expect(String(decoding: master.body, as: UTF8.self).contains("URI=\"fmp4/aac-"))
    let after = try Self.mapped(server)
    for library in ["libavcodec", "libavutil", "libswresample"] {
      #expect(Self.has(after, library), "\(library) not mapped after the AAC rendition's probe")
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
