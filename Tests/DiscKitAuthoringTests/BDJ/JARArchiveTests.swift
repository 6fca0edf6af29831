@_spi(Formats) import DiscKit
import DiscKitAuthoring
import DiscKitTestSupport
import Foundation
import Testing

/// Python's zipfile and zlib (independent DEFLATE encoders) make the archives and streams; every
/// member must come back byte for byte as the test wrote it.
@Suite("JAR archives and inflate", .enabled(if: PythonZip.available, "python3 is not installed"), .toolThreads)
struct JARArchiveTests {
  /// Members of several kinds: empty, text, incompressible, runs (long matches), one larger.
  static func members() -> [(String, [UInt8])] {
    var random = SeededRandom(seed: 0x21B)
    var out: [(String, [UInt8])] = [("empty.txt", [])]
    out.append(
      ("a/text.properties", Array(String(repeating: "featurePlaylist=00800\n", count: 200).utf8)))
    out.append(("noise.bin", (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &random) }))
    var runs: [UInt8] = []
    while runs.count < 300_000 {
      let b = UInt8.random(in: 0...3, using: &random)
      runs += [UInt8](repeating: b, count: Int.random(in: 1...400, using: &random))
    }
    out.append(("runs.bin", runs))
    var words: [UInt8] = []
    let vocabulary = ["bd://0.PLAYLIST:", "00800", ".mpls", "Menu", "Xlet", " ", "\n", "éß"]
    while words.count < 500_000 {
      words += Array(vocabulary[Int.random(in: 0..<vocabulary.count, using: &random)].utf8)
    }
    out.append(("com/studio/Words.txt", words))
    for i in 0..<300 {
      out.append(("many/\(i).txt", Array("entry \(i) ".utf8) + runs.prefix(i * 7)))
    }
    return out
  }

  @Test(arguments: ["stored", "deflated1", "deflated6", "deflated9", "zip64"])
  func readsEveryMemberPythonWrote(mode: String) throws {
    let dir = try TemporaryDirectory("disckit-jar")
    let members = Self.members()
    let jar = try PythonZip.archive(members, mode: mode, in: dir)
    let archive = try JARArchive(bytes: jar)
    #expect(archive.entries.map(\.path) == members.map(\.0))
    for (entry, member) in zip(archive.entries, members) {
      #expect(try archive.contents(of: entry) == member.1, "\(mode) \(member.0)")
    }
  }

  @Test(arguments: [
    "zlib.Z_DEFAULT_STRATEGY", "zlib.Z_FIXED", "zlib.Z_HUFFMAN_ONLY", "zlib.Z_RLE",
    "zlib.Z_FILTERED",
  ])
  func inflatesRawStreamsOfEveryStrategy(strategy: String) throws {
    let dir = try TemporaryDirectory("disckit-inflate")
    for (_, data) in Self.members().prefix(5) {
      for level in [0, 1, 9] {
        let stream = try PythonZip.deflate(data, level: level, strategy: strategy, in: dir)
        #expect(try Inflater.inflate(stream, limit: 1 << 24) == data, "\(strategy) \(level)")
      }
    }
  }

  /// 512 MiB of zeros in about 500 KB: refused at the limit, quickly, with the member's offset.
  @Test func zipBombStopsAtTheLimit() throws {
    let dir = try TemporaryDirectory("disckit-bomb")
    let jar = try PythonZip.run(
      """
      import zipfile, sys
      with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
          with z.open('bomb.bin', 'w', force_zip64=True) as f:
              block = bytes(1 << 20)
              for _ in range(512):
                  f.write(block)
      """, in: dir)
    var limits = ParsingLimits()
    limits.maxInflatedEntryBytes = 8 << 20
    let archive = try JARArchive(bytes: jar, limits: limits)
    let entry = try #require(archive.entries.first)
    #expect(entry.uncompressedSize == 512 << 20)
    // Declared too large: refused before inflating.
    #expect(throws: DiscKitError(.limitExceeded, "JAR!/bomb.bin", at: 0, "")) {
      try archive.contents(of: entry)
    }
    // Declared small (the central directory lies): the inflater stops at the limit.
    var lying = entry
    lying.uncompressedSize = 100
    let error = #expect(throws: DiscKitError.self) { try archive.contents(of: lying) }
    #expect(error?.code == .limitExceeded)
  }

  @Test func truncatedArchivesAndStreamsAreTypedErrors() throws {
    let dir = try TemporaryDirectory("disckit-jar-cut")
    let members = Array(Self.members().prefix(5))
    let jar = try PythonZip.archive(members, mode: "deflated6", in: dir)
    // Cutting the end loses the directory; cutting a member's data fails that member only.
    #expect(throws: DiscKitError.self) { try JARArchive(bytes: Array(jar.prefix(jar.count - 30))) }
    let stream = try PythonZip.deflate(
      members[4].1, level: 6, strategy: "zlib.Z_DEFAULT_STRATEGY", in: dir)
    for cut in stride(from: 0, to: stream.count, by: max(1, stream.count / 200)) {
      let error = #expect(throws: DiscKitError.self) {
        try Inflater.inflate(Array(stream.prefix(cut)), limit: 1 << 24)
      }
      #expect(error?.code == .truncated || error?.code == .malformed)
    }
  }

  @Test func storedZipWriterIsReadByPython() throws {
    let dir = try TemporaryDirectory("disckit-jar-writer")
    let members = Array(Self.members().prefix(6))
    let jar = StoredZipWriter.archive(members.map { ($0.0, $0.1) })
    let path = dir.file("w.jar")
    try Data(jar).write(to: URL(fileURLWithPath: path))
    let listing = try Tool.run(
      "/usr/bin/python3",
      [
        "-c",
        "import zipfile,sys,hashlib\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\n"
          + "for i in z.infolist(): print(i.filename, hashlib.sha256(z.read(i)).hexdigest())",
        path,
      ])
    #expect(listing.status == 0, "\(listing.stderr)")
    #expect(
      listing.text.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        == members.map(\.0))
  }

  /// Seeded byte flips in an archive and in a raw stream: typed errors, never a trap or a hang.
  @Test func byteFlipsNeverTrap() throws {
    let dir = try TemporaryDirectory("disckit-jar-flip")
    var random = SeededRandom(seed: 0x21F)
    let text = (0..<6000).map { _ in UInt8.random(in: 0x41...0x46, using: &random) }
    let members = [("a.properties", Array("featurePlaylist=00800\n".utf8)), ("b.txt", text)]
    let jar = try PythonZip.archive(members, mode: "deflated6", in: dir)
    for _ in 0..<1000 {
      var bytes = jar
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8.random(
          in: 1...255, using: &random)
      }
      guard let archive = try? JARArchive(bytes: bytes) else { continue }
      for entry in archive.entries { _ = try? archive.contents(of: entry, limit: 1 << 20) }
    }
  }
}

/// Archives and raw DEFLATE streams made by Python's zipfile and zlib.
enum PythonZip {
  static let python = "/usr/bin/python3"
  static let available = FileManager.default.isExecutableFile(atPath: python)

  /// Runs `script` with the output path as its argument and returns the file it wrote.
  static func run(_ script: String, in dir: TemporaryDirectory, inputs: [String] = [])
    throws -> [UInt8]
  {
    let output = dir.file("out-\(UUID().uuidString)")
    let result = try Tool.run(python, ["-c", script, output] + inputs)
    guard result.status == 0 else { throw DiscKitError(.io, "python3", at: nil, result.stderr) }
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
  }

  /// A zip of `members` (written from files, in order).
  static func archive(_ members: [(String, [UInt8])], mode: String, in dir: TemporaryDirectory)
    throws -> [UInt8]
  {
    var inputs: [String] = []
    for (i, member) in members.enumerated() {
      let path = dir.file("member-\(i)")
      try Data(member.1).write(to: URL(fileURLWithPath: path))
      inputs += [member.0, path]
    }
    return try run(
      """
      import zipfile, sys
      mode = '\(mode)'
      method = zipfile.ZIP_STORED if mode == 'stored' else zipfile.ZIP_DEFLATED
      level = {'deflated1': 1, 'deflated6': 6, 'deflated9': 9}.get(mode)
      args = sys.argv[2:]
      with zipfile.ZipFile(sys.argv[1], 'w', method, compresslevel=level) as z:
          for name, path in zip(args[0::2], args[1::2]):
              data = open(path, 'rb').read()
              if mode == 'zip64':
                  with z.open(name, 'w', force_zip64=True) as f:
                      f.write(data)
              else:
                  z.writestr(name, data)
      """, in: dir, inputs: inputs)
  }

  /// A raw DEFLATE stream (no zlib header) of `data`.
  static func deflate(_ data: [UInt8], level: Int, strategy: String, in dir: TemporaryDirectory)
    throws -> [UInt8]
  {
    let input = dir.file("raw-\(UUID().uuidString)")
    try Data(data).write(to: URL(fileURLWithPath: input))
    return try run(
      """
      import zlib, sys
      c = zlib.compressobj(\(level), zlib.DEFLATED, -15, 9, \(strategy))
      data = open(sys.argv[2], 'rb').read()
      open(sys.argv[1], 'wb').write(c.compress(data) + c.flush())
      """, in: dir, inputs: [input])
  }
}
