@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Generated images (TestImages/scripts/make-iso9660.sh) read by DiscKit and by xorriso.
@Suite("ISO9660 generated images against xorriso", .toolThreads)
struct ISO9660GeneratedImageTests {
  static func image(_ name: String) throws -> String {
    let path = Fixtures.generated(name)
    try #require(
      FileManager.default.fileExists(atPath: path), "\(path) is missing: run `make images`")
    return path
  }

  /// (image, DiscKit's names, xorriso reads the Joliet tree, names DiscKit picks by default)
  static let cases: [(String, ISO9660FileSystem.NamePreference, Bool, ISO9660FileSystem.Names)] = [
    ("iso9660-plain.iso", .automatic, false, .plain),
    ("iso9660-joliet.iso", .automatic, true, .joliet),
    ("iso9660-rockridge.iso", .automatic, false, .rockRidge),
    ("iso9660-joliet-rr.iso", .automatic, false, .rockRidge),
    ("iso9660-joliet-rr.iso", .joliet, true, .joliet),
    ("iso9660-deep.iso", .automatic, true, .joliet),
    ("iso9660-deep.iso", .plain, false, .plain),
  ]

  @Test(.enabled(if: Tool.has("xorriso"), "xorriso not installed"), arguments: 0..<cases.count)
  func listingAndBytesEqualXorriso(index: Int) throws {
    let (name, preference, norock, expectedNames) = Self.cases[index]
    let path = try Self.image(name)
    let fs = try ISO9660FileSystem(source: try FileByteSource(path: path), names: preference)
    #expect(fs.names == expectedNames)
    let theirs = try Xorriso.listing(path, norock: norock)
    #expect(theirs.count > 3)
    expectSameListing(try diskitListing(fs), theirs)
    let scratch = try TemporaryDirectory("iso9660-extract")
    try Xorriso.extract(path, norock: norock, to: scratch.file("x"))
    try expectSameBytes(fs, theirs, extractedTo: scratch.file("x"))
  }

  @Test(.enabled(if: Tool.has("isoinfo"), "isoinfo not installed"))
  func volumeFieldsEqualIsoinfo() throws {
    for name in ["iso9660-plain.iso", "iso9660-joliet.iso", "iso9660-rockridge.iso"] {
      let path = try Self.image(name)
      let fs = try ISO9660FileSystem(source: try FileByteSource(path: path))
      let text = try Tool.run("isoinfo", ["-d", "-i", path]).text
      let fields = Dictionary(
        text.split(separator: "\n").compactMap { line -> (String, String)? in
          guard let colon = line.firstIndex(of: ":") else { return nil }
          return (
            String(line[..<colon]),
            line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
          )
        }, uniquingKeysWith: { first, _ in first })
      #expect(fs.volumeLabel == fields["Volume id"], "\(name)")
      #expect(String(fs.primary.volumeSpaceSize) == fields["Volume size is"], "\(name)")
      #expect(String(fs.logicalBlockSize) == fields["Logical block size is"], "\(name)")
      #expect((fs.joliet != nil) == text.contains("Joliet with UCS level"), "\(name)")
      #expect(fs.hasRockRidge == text.contains("Rock Ridge signatures version"), "\(name)")
    }
  }

  /// isoinfo as a second oracle on the plain image: `isoinfo -f` paths (with `;1` and the
  /// trailing `.` removed, as DiscKit shows plain names) and `isoinfo -x` bytes.
  @Test(.enabled(if: Tool.has("isoinfo"), "isoinfo not installed"))
  func plainListingAndBytesEqualIsoinfo() throws {
    let path = try Self.image("iso9660-plain.iso")
    let fs = try ISO9660FileSystem(source: try FileByteSource(path: path))
    let isoPaths = try Tool.run("isoinfo", ["-f", "-i", path]).text.split(separator: "\n").map(
      String.init)
    var theirs: [String: String] = [:]
    for isoPath in isoPaths {
      var shown = isoPath.hasSuffix(";1") ? String(isoPath.dropLast(2)) : isoPath
      if shown.hasSuffix(".") { shown.removeLast() }
      theirs[shown] = isoPath
    }
    let ours = try fs.recursiveContents()
    #expect(Set(ours.map(\.path)) == Set(theirs.keys))
    var compared = 0
    for entry in ours where !entry.isDirectory && !entry.path.hasPrefix("/MANY/F3") {
      let isoPath = try #require(theirs[entry.path])
      let result = try Tool.run("isoinfo", ["-i", path, "-x", isoPath])
      #expect(try fs.readFile(atPath: entry.path) == [UInt8](result.stdout), "\(entry.path)")
      compared += 1
    }
    #expect(compared > 100)
  }

  /// The file over 4 GiB: two extents in one directory record chain; size and bytes at the
  /// marker offsets (and across the extent boundary) equal what xorriso extracts.
  @Test(.enabled(if: Tool.has("xorriso"), "xorriso not installed"))
  func multiExtentFileOver4GiB() throws {
    let path = try Self.image("iso9660-multiextent.iso")
    let fs = try ISO9660FileSystem(source: try FileByteSource(path: path))
    let theirs = try Xorriso.listing(path)
    expectSameListing(try diskitListing(fs), theirs)
    let big = try fs.openFile(atPath: "/big.bin")
    #expect(big.size == 4500 * 1024 * 1024)
    #expect(big.size == theirs["/big.bin"]?.size)
    let concatenated = try #require(big as? ConcatenatedByteSource)
    #expect(concatenated.extents.count == 2)
    let scratch = try TemporaryDirectory("iso9660-cut")
    let probes: [(Int64, String)] = [
      (0, "HEAD-OF-BIG-FILE"), (1_048_576, "one MiB"),
      (4_294_963_190, "ACROSS-THE-FIRST-EXTENT-BOUNDARY"),
      (4_294_967_296, "four GiB"), (4500 * 1024 * 1024 - 8, "BIG-TAIL"),
    ]
    for (offset, marker) in probes {
      let length = 4096
      let start = max(0, min(offset - 1000, big.size - Int64(length)))
      let expected = try Xorriso.cut(
        path, path: "/big.bin", offset: start, length: length, scratch: scratch)
      let ours = try big.bytes(at: start, count: length)
      #expect(ours == expected, "bytes at \(start)")
      #expect(try big.bytes(at: offset, count: marker.utf8.count) == Array(marker.utf8))
    }
    #expect(try fs.readFile(atPath: "/small.txt") == Array("small file\n".utf8))
  }

  @Test func concurrentReadsAgree() async throws {
    let path = try Self.image("iso9660-plain.iso")
    let fs = try ISO9660FileSystem(source: try FileByteSource(path: path))
    let files = try fs.recursiveContents().filter { !$0.isDirectory }
    let serial = try files.map { try fs.readFile(atPath: $0.path) }
    let parallel = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
      for (i, file) in files.enumerated() {
        group.addTask { (i, try fs.readFile(atPath: file.path)) }
      }
      var result = [[UInt8]](repeating: [], count: files.count)
      for try await (i, bytes) in group { result[i] = bytes }
      return result
    }
    #expect(parallel == serial)
  }

  @Test func discImageDetectsISO9660() throws {
    let image = try DiscImage.open(path: try Self.image("iso9660-joliet.iso"))
    #expect(image.fileSystem.kind == .iso9660)
    #expect(image.fileSystem.volumeLabel == "JOLIET_ISO")
    #expect(image.kind == .data)
    #expect(image.fileSystem.exists("/ordner mit ümlauten"))
  }
}
