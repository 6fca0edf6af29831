import DiscKitTestSupport
import Foundation
import Testing

/// `disckit-serve` started on a loopback port, driven by curl; the documents and bytes are checked
/// against the `disckit` commands on the same discs (titles --json, info --json, extract -o -,
/// scan --json).
@Suite("disckit serve end to end", .serialized, .enabled(if: ServerFixture.ready, ServerFixture.notReady), .toolThreads)
struct ServerEndToEndTests {
  static func jsonObject(_ data: Data) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func discoveryListsEveryDiscUnderTheRootAndNothingOutside() throws {
    let fixture = try ServerFixture()
    var ids: [String: String] = [:]
    do {
      let server = try fixture.start()
      let discs = try ServerFixture.discs(server)
      #expect(
        Set(discs.keys) == [
          "movies/simple.iso", "movies/angles.iso", "sample-bluray.iso", "dvd/dvd-pal.iso",
          "folders/seamless", "broken/truncated.iso", "broken/noise.iso",
        ])
      #expect(discs["movies/simple.iso"]?["kind"] as? String == "bluray")
      #expect(discs["folders/seamless"]?["kind"] as? String == "bluray")
      #expect(discs["dvd/dvd-pal.iso"]?["kind"] as? String == "dvd")
      for broken in ["broken/truncated.iso", "broken/noise.iso"] {
        #expect(discs[broken]?["error"] is String)
        #expect(discs[broken]?["kind"] == nil)
        let id = try #require(discs[broken]?["id"] as? String)
        let reply = try Curl.json(server.base + "/discs/\(id)")
        #expect(reply.0 == 422)
        #expect((reply.1["error"] as? String)?.isEmpty == false)
      }
      // The main title and its duration are those of `disckit titles --json`.
      for (path, file) in [("movies/simple.iso", "/movies/simple.iso"), ("dvd/dvd-pal.iso", "/dvd/dvd-pal.iso")] {
        let titles = try Self.jsonObject(try ServerFixture.disckit(["titles", fixture.root + file, "--json"]).stdout)
        let entry = try #require(discs[path])
        let main = try #require(titles["main"] as? String)
        #expect(entry["mainTitle"] as? String == main)
        let row = (titles["titles"] as? [[String: Any]])?.first { $0["key"] as? String == main }
        #expect(entry["duration90k"] as? Int == row?["duration90k"] as? Int)
        #expect(entry["label"] as? String == titles["label"] as? String)
      }
      ids = discs.mapValues { $0["id"] as? String ?? "" }
    }
    // Ids are stable across restarts.
    let again = try fixture.start()
    #expect(try ServerFixture.discs(again).mapValues { $0["id"] as? String ?? "" } == ids)
  }

  @Test func titlesAndInfoAreTheDocumentsOfTheCommandLine() throws {
    let fixture = try ServerFixture()
    let server = try fixture.start()
    for path in ["movies/simple.iso", "dvd/dvd-pal.iso", "folders/seamless", "sample-bluray.iso"] {
      let id = try ServerFixture.id(server, path)
      let served = try Curl.get(server.base + "/discs/\(id)/titles")
      #expect(served.status == 200)
      #expect(served.headers["content-type"]?.hasPrefix("application/json") == true)
      var fromServer = try Self.jsonObject(served.body)
      var fromCLI = try Self.jsonObject(
        try ServerFixture.disckit(["titles", fixture.root + "/" + path, "--json"]).stdout)
      // The CLI names the path it was given; the server the path relative to its root.
      #expect(fromServer["source"] as? String == (fromCLI["source"] == nil ? nil : path))
      fromServer["source"] = nil
      fromCLI["source"] = nil
      #expect(NSDictionary(dictionary: fromServer) == NSDictionary(dictionary: fromCLI), "\(path)")

      let info = try Self.jsonObject(try Curl.get(server.base + "/discs/\(id)").body)
      let cliInfo = try Self.jsonObject(
        try ServerFixture.disckit(["info", fixture.root + "/" + path, "--json"]).stdout)
      for key in ["fileSystem", "udfRevision", "volumeLabel", "imageSize", "discKind"] {
        #expect(
          (info[key] as? NSObject) == (cliInfo[key] as? NSObject), "\(path): \(key)")
      }
      #expect(info["path"] as? String == path)
    }
  }

  /// The key of a disc's main title, from `/discs`.
  static func mainKey(_ server: ServerProcess, _ path: String) throws -> (id: String, key: String) {
    let entry = try #require(try ServerFixture.discs(server)[path])
    return (try #require(entry["id"] as? String), try #require(entry["mainTitle"] as? String))
  }

  /// `disckit extract` of the same title to stdout.
  static func extracted(
    _ fixture: ServerFixture, _ path: String, key: String, angle: Int = 1, timeline: String? = nil
  ) throws -> Data {
    let selector = path.contains("dvd") ? ["--title", key] : ["--playlist", key]
    let result = try ServerFixture.disckit(
      ["extract", fixture.root + "/" + path] + selector + ["--angle", String(angle), "-o", "-"]
        + (timeline.map { ["--timeline", $0] } ?? []))
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout
  }

  @Test func wholeStreamsAreTheExtractedBytes() throws {
    let fixture = try ServerFixture()
    let server = try fixture.start()
    for path in ["movies/simple.iso", "dvd/dvd-pal.iso", "folders/seamless", "sample-bluray.iso"] {
      let (id, key) = try Self.mainKey(server, path)
      let reply = try Curl.get(server.base + "/discs/\(id)/titles/\(key)/stream")
      let expected = try Self.extracted(fixture, path, key: key)
      #expect(reply.status == 200)
      #expect(!expected.isEmpty)
      #expect(reply.body == expected, "\(path): \(reply.body.count) vs \(expected.count) bytes")
      #expect(reply.headers["content-length"] == String(expected.count))
      #expect(reply.headers["accept-ranges"] == "bytes")
      #expect(reply.headers["content-type"] == (path.contains("dvd") ? "video/mpeg" : "video/mp2t"))
    }
    // Angle 2 of the two-angle title.
    let (id, key) = try Self.mainKey(server, "movies/angles.iso")
    let second = try Curl.get(server.base + "/discs/\(id)/titles/\(key)/stream?angle=2")
    let first = try Curl.get(server.base + "/discs/\(id)/titles/\(key)/stream?angle=1")
    #expect(second.body == (try Self.extracted(fixture, "movies/angles.iso", key: key, angle: 2)))
    #expect(first.body == (try Self.extracted(fixture, "movies/angles.iso", key: key, angle: 1)))
    #expect(first.body != second.body)
    #expect(first.headers["etag"] != second.headers["etag"])
    #expect(try Curl.get(server.base + "/discs/\(id)/titles/\(key)/stream?angle=3").status == 400)
  }

  @Test func rangesHeadAndConditionalRequests() throws {
    let fixture = try ServerFixture()
    let server = try fixture.start()
    let (id, key) = try Self.mainKey(server, "movies/simple.iso")
    let url = server.base + "/discs/\(id)/titles/\(key)/stream"
    let bytes = try Self.extracted(fixture, "movies/simple.iso", key: key)
    let size = bytes.count
    // HEAD: the headers of GET, no body.
    let head = try Curl.get(url, ["-I"])
    #expect(head.status == 200)
    #expect(head.headers["content-length"] == String(size))
    // With -I curl prints the headers as its output: nothing may follow them.
    let printed = String(decoding: head.body, as: UTF8.self)
    #expect(printed.hasPrefix("HTTP/1.1 200") && printed.hasSuffix("\r\n\r\n"))
    let eTag = try #require(head.headers["etag"])
    let lastModified = try #require(head.headers["last-modified"])
    // Random closed ranges, open ranges and suffixes.
    var random = SeededRandom(seed: 7)
    for _ in 0..<12 {
      let a = Int.random(in: 0..<size, using: &random)
      let b = min(size - 1, a + Int.random(in: 0..<300_000, using: &random))
      let n = Int.random(in: 1...(2 * size), using: &random)
      for (header, range) in [
        ("bytes=\(a)-\(b)", a..<(b + 1)), ("bytes=\(a)-", a..<size),
        ("bytes=-\(n)", max(0, size - n)..<size),
      ] {
        let reply = try Curl.get(url, ["-H", "Range: \(header)"])
        #expect(reply.status == 206, "\(header)")
        #expect(reply.body == bytes.subdata(in: range), "\(header)")
        #expect(reply.headers["content-range"] == "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)")
        #expect(reply.headers["content-length"] == String(range.count))
      }
    }
    // Unsatisfiable and malformed ranges are 416 with the size; other units and lists are ignored.
    for header in ["bytes=\(size)-", "bytes=\(size + 10)-\(size + 20)", "bytes=-0", "bytes=5-2", "bytes=x-"] {
      let reply = try Curl.get(url, ["-H", "Range: \(header)"])
      #expect(reply.status == 416, "\(header)")
      #expect(reply.headers["content-range"] == "bytes */\(size)", "\(header)")
    }
    for header in ["items=0-5", "bytes=0-1,5-9"] {
      let reply = try Curl.get(url, ["-H", "Range: \(header)"])
      #expect(reply.status == 200, "\(header)")
      #expect(reply.body == bytes, "\(header)")
    }
    // Conditional requests.
    #expect(try Curl.get(url, ["-H", "If-None-Match: \(eTag)"]).status == 304)
    #expect(try Curl.get(url, ["-H", "If-None-Match: \"other\", \(eTag)"]).status == 304)
    #expect(try Curl.get(url, ["-H", "If-None-Match: \"other\""]).status == 200)
    let kept = try Curl.get(url, ["-H", "Range: bytes=100-199", "-H", "If-Range: \(eTag)"])
    #expect(kept.status == 206)
    #expect(kept.body == bytes.subdata(in: 100..<200))
    #expect(try Curl.get(url, ["-H", "Range: bytes=100-199", "-H", "If-Range: \(lastModified)"]).status == 206)
    let changed = try Curl.get(url, ["-H", "Range: bytes=100-199", "-H", "If-Range: \"stale\""])
    #expect(changed.status == 200)
    #expect(changed.body == bytes)
    // A start= stream is its own resource.
    let started = try Curl.get(url + "?start=4", ["-I"])
    #expect(started.headers["etag"] != eTag)
  }

  @Test func startServesFromTheRandomAccessPointWithPATFirst() throws {
    let fixture = try ServerFixture()
    let server = try fixture.start()
    for (path, seconds) in [("movies/simple.iso", 5), ("folders/seamless", 4), ("dvd/dvd-pal.iso", 3)] {
      let (id, key) = try Self.mainKey(server, path)
      let base = server.base + "/discs/\(id)/titles/\(key)"
      let scan = try Self.jsonObject(try Curl.get(base + "/scan?start=\(seconds)").body)
      let start = try #require(scan["title"] as? [String: Any])
      let offset = try #require(start["offset"] as? Int)
      // The very document of `disckit scan --at` on the same title.
      let selector = path.contains("dvd") ? ["--title", key] : ["--playlist", key]
      let cli = try Self.jsonObject(
        try ServerFixture.disckit(
          ["scan", fixture.root + "/" + path] + selector + ["--at", String(seconds), "--json"]
        ).stdout)
      #expect(NSDictionary(dictionary: scan) == NSDictionary(dictionary: cli), "\(path)")
      // The stream is the title's bytes from the playback start (after the PSI packets a
      // non-seamless clip needs first, if any).
      let stream = try Curl.get(base + "/stream?start=\(seconds)")
      let whole = try Self.extracted(fixture, path, key: key)
      #expect(offset > 0, "\(path)")
      #expect(stream.status == 200)
      let tail = whole.count - offset
      #expect(stream.body.count >= tail)
      #expect(stream.body.suffix(tail) == whole.subdata(in: offset..<whole.count), "\(path)")
      let prefix = stream.body.count - tail
      #expect(prefix % 192 == 0 && prefix < 6144)
      #expect(stream.headers["content-length"] == String(stream.body.count))
      if !path.contains("dvd") {
        // PAT first: the first source packet carries PID 0, and nothing is dropped by the gate.
        #expect(stream.body.count > 192)
        #expect(stream.body[4] == 0x47)
        #expect((Int(stream.body[5] & 0x1F) << 8 | Int(stream.body[6])) == 0)
        #expect(scan["pesBeforePAT"] as? Int == 0)
        #expect(scan["firstPATOffset"] as? Int == offset - prefix)
        #expect((start["clips"] as? [Any])?.isEmpty == false)
      } else {
        // A VOBU starts with its navigation pack: pack header, then the PCI packet (0xBF).
        #expect(Array(stream.body.prefix(4)) == [0, 0, 1, 0xBA])
      }
    }
  }

  @Test func chaptersMatchTheTitleDocument() throws {
    let fixture = try ServerFixture()
    let server = try fixture.start()
    let (id, key) = try Self.mainKey(server, "movies/simple.iso")
    let base = server.base + "/discs/\(id)/titles/\(key)"
    let chapters = try #require(try Self.jsonObject(try Curl.get(base + "/chapters").body)["chapters"] as? [[String: Any]])
    let titles = try Self.jsonObject(
      try ServerFixture.disckit(["titles", fixture.root + "/movies/simple.iso", "--json"]).stdout)
    let row = try #require(
      (titles["titles"] as? [[String: Any]])?.first { $0["key"] as? String == key })
    let expected = try #require(row["chapters"] as? [[String: Any]])
    #expect(chapters.count == expected.count)
    #expect(chapters.count > 1)
    for (served, cli) in zip(chapters, expected) {
      #expect(served["number"] as? Int == cli["number"] as? Int)
      #expect(served["start90k"] as? Int == cli["start90k"] as? Int)
      #expect(served["duration90k"] as? Int == cli["duration90k"] as? Int)
      #expect(served["offset"] as? Int == cli["offset"] as? Int)
      // Each chapter's stream URL starts at the chapter's own offset.
      let url = try #require(served["stream"] as? String)
      let scan = try Self.jsonObject(try Curl.get(base + "/" + url.replacingOccurrences(of: "stream?", with: "scan?")).body)
      let start = try #require(scan["title"] as? [String: Any])
      // ... at the chapter's random access point, moved back over the PSI packets before it
      // (within its 6144-byte aligned unit).
      let served = try #require(start["offset"] as? Int)
      let chapter = try #require(cli["offset"] as? Int)
      #expect(served <= chapter && chapter - served < 6144 && (chapter - served) % 192 == 0, "\(url)")
    }
    let dvd = try Self.mainKey(server, "dvd/dvd-pal.iso")
    let dvdChapters = try Self.jsonObject(
      try Curl.get(server.base + "/discs/\(dvd.id)/titles/\(dvd.key)/chapters").body)
    #expect((dvdChapters["chapters"] as? [Any])?.isEmpty == false)
  }
}
