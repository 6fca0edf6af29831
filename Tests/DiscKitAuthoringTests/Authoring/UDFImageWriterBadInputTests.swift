import DiscKit
import DiscKitAuthoring
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Bad input gives a typed error naming the culprit and leaves no image (and no temporary file).
@Suite("UDF image writer: bad input", .toolThreads)
struct UDFImageWriterBadInputTests {
  /// Runs `body` and checks that it throws `code` and that `dir` then holds only `keep`.
  func expectFailure(
    _ code: DiscKitError.Code, in dir: TemporaryDirectory, keep: [String] = ["source"],
    _ body: () throws -> Void
  ) {
    var caught: DiscKitError?
    do { try body() } catch { caught = error as? DiscKitError }
    #expect(caught?.code == code, "got \(String(describing: caught))")
    #expect(AuthoringFixtures.contents(dir.path) == keep.sorted())
  }

  func smallSource(_ dir: TemporaryDirectory) throws -> String {
    let source = dir.file("source")
    try AuthoringFixtures.write(
      AuthoringFixtures.bytes(10_000, seed: 1), source + "/BDMV/index.bdmv")
    try AuthoringFixtures.write(
      AuthoringFixtures.bytes(300_000, seed: 2), source + "/BDMV/STREAM/00000.m2ts")
    return source
  }

  @Test func nameLongerThan255BytesInCS0() throws {
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    // 255 bytes of UTF-8 (fits the local file system) but 1 + 2 * 254 bytes of CS0: the Greek
    // letter forces 16-bit characters.
    let name = "Ω" + String(repeating: "a", count: 253)
    try AuthoringFixtures.write(Data([1]), source + "/" + name)
    expectFailure(.invalidArgument, in: dir) {
      try UDFImageWriter(folder: source).write(to: dir.file("out.iso"))
    }
  }

  @Test func nameWithAByteOrderMark() throws {
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    try AuthoringFixtures.write(Data([1]), source + "/BDMV/\u{FEFF}index.bdmv")
    expectFailure(.invalidArgument, in: dir) {
      try UDFImageWriter(folder: source).write(to: dir.file("out.iso"))
    }
  }

  @Test func nameThatIsNotUTF8() throws {
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    let raw: [CChar] =
      Array((source + "/bad-").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF), 0]
    let fd = open(raw, O_CREAT | O_WRONLY, 0o644)
    #expect(fd >= 0)
    close(fd)
    expectFailure(.invalidArgument, in: dir) {
      try UDFImageWriter(folder: source).write(to: dir.file("out.iso"))
    }
  }

  @Test func fileVanishesBeforeItIsCopied() throws {
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    let writer = try UDFImageWriter(folder: source)
    try FileManager.default.removeItem(atPath: source + "/BDMV/STREAM/00000.m2ts")
    expectFailure(.cannotOpen, in: dir) { try writer.write(to: dir.file("out.iso")) }
  }

  @Test func fileReplacedByADirectory() throws {
    // Unreadable even for root: the path now names a directory.
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    let writer = try UDFImageWriter(folder: source)
    try FileManager.default.removeItem(atPath: source + "/BDMV/STREAM/00000.m2ts")
    try FileManager.default.createDirectory(
      atPath: source + "/BDMV/STREAM/00000.m2ts", withIntermediateDirectories: true)
    expectFailure(.cannotOpen, in: dir) { try writer.write(to: dir.file("out.iso")) }
  }

  @Test(.enabled(if: getuid() != 0, "root reads files whatever their permissions"))
  func unreadableFile() throws {
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    chmod(source + "/BDMV/index.bdmv", 0)
    defer { chmod(source + "/BDMV/index.bdmv", 0o644) }
    expectFailure(.cannotOpen, in: dir) {
      try UDFImageWriter(folder: source).write(to: dir.file("out.iso"))
    }
  }

  @Test func fileShrinksWhileTheImageIsPlanned() throws {
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    let writer = try UDFImageWriter(folder: source)
    truncate(source + "/BDMV/STREAM/00000.m2ts", 1000)
    expectFailure(.io, in: dir) { try writer.write(to: dir.file("out.iso")) }
  }

  @Test func danglingSymbolicLink() throws {
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    try FileManager.default.createSymbolicLink(
      atPath: source + "/gone", withDestinationPath: "/nonexistent/x")
    expectFailure(.cannotOpen, in: dir) {
      try UDFImageWriter(folder: source).write(to: dir.file("out.iso"))
    }
  }

  @Test func namedPipe() throws {
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    #expect(mkfifo(source + "/pipe", 0o644) == 0)
    expectFailure(.unsupported, in: dir) {
      try UDFImageWriter(folder: source).write(to: dir.file("out.iso"))
    }
  }

  @Test func symbolicLinkLoop() throws {
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    try FileManager.default.createSymbolicLink(
      atPath: source + "/BDMV/loop", withDestinationPath: source)
    expectFailure(.loop, in: dir) {
      try UDFImageWriter(folder: source).write(to: dir.file("out.iso"))
    }
  }

  /// A 9 TiB sparse file needs more blocks than UDF's 32-bit block numbers address.
  @Test func volumePastEightTebibytes() throws {
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    let huge = source + "/BDMV/STREAM/00001.m2ts"
    _ = FileManager.default.createFile(atPath: huge, contents: nil)
    guard truncate(huge, 9 << 40) == 0 else {
      Issue.record("the file system cannot hold a 9 TiB sparse file")
      return
    }
    expectFailure(.limitExceeded, in: dir) {
      try UDFImageWriter(folder: source).write(to: dir.file("out.iso"))
    }
  }

  /// The same limit, lowered, with a failure during the write planning of a small folder.
  @Test func volumePastALoweredLimit() throws {
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    var options = UDFImageWriter.Options()
    options.maxImageBlocks = 300
    expectFailure(.limitExceeded, in: dir) {
      try UDFImageWriter(folder: source, options: options).write(to: dir.file("out.iso"))
    }
  }

  @Test func existingImageIsKeptWithoutOverwrite() throws {
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    let out = dir.file("out.iso")
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: out))
    expectFailure(.alreadyExists, in: dir, keep: ["source", "out.iso"]) {
      try UDFImageWriter(folder: source).write(to: out)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data("keep me".utf8))
    // With overwrite the old file is replaced.
    try UDFImageWriter(folder: source).write(to: out, overwrite: true)
    #expect(AuthoringFixtures.contents(dir.path) == ["out.iso", "source"])
  }

  @Test func outputInsideTheRecordedFolder() throws {
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    let out = source + "/disc.iso"
    try Data("old image".utf8).write(to: URL(fileURLWithPath: out))
    expectFailure(.invalidArgument, in: dir) {
      try UDFImageWriter(folder: source).write(to: out, overwrite: true)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data("old image".utf8))
    #expect(AuthoringFixtures.contents(source) == ["BDMV", "disc.iso"])
  }

  @Test func labelTooLong() throws {
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    expectFailure(.invalidArgument, in: dir) {
      _ = try UDFImageWriter(
        folder: source, options: .init(volumeLabel: String(repeating: "Ж", count: 64)))
    }
  }

  @Test func sourceIsNotAFolder() throws {
    let dir = try TemporaryDirectory()
    let source = try smallSource(dir)
    expectFailure(.cannotOpen, in: dir) {
      _ = try UDFImageWriter(folder: source + "/BDMV/index.bdmv")
    }
    expectFailure(.cannotOpen, in: dir) {
      _ = try UDFImageWriter(folder: dir.file("missing"))
    }
  }
}
