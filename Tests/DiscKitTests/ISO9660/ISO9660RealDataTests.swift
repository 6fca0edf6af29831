@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Third-party images in ../shared/realdata/iso9660 against their expected outputs (libcdio's
/// iso-info `.right` listings, exiftool's PVD fields, the kdomanski source manifest) and xorriso.
@Suite(
  "ISO9660 real images",
  .enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)), .toolThreads)
struct ISO9660RealDataTests {
  static func open(_ name: String, names: ISO9660FileSystem.NamePreference = .automatic) throws
    -> ISO9660FileSystem
  {
    try ISO9660FileSystem(
      source: try FileByteSource(path: Fixtures.real("iso9660/" + name)), names: names)
  }

  /// Parses a libcdio `.right` file (iso-info -l output): path → (type, size), `.`/`..` skipped.
  static func libcdioListing(_ name: String) throws -> [String: OracleEntry] {
    let text = try String(contentsOfFile: Fixtures.real("iso9660/" + name), encoding: .utf8)
    var directory = "/"
    var entries: [String: OracleEntry] = [:]
    for line in text.split(separator: "\n") {
      if line.hasPrefix("/") && line.hasSuffix(":") {
        directory = String(line.dropLast())
        continue
      }
      let trimmed = line.drop(while: { $0 == " " })
      guard let type = trimmed.first, "-dlbc".contains(type), let bracket = line.firstIndex(of: "]")
      else { continue }
      // "]      2048 Oct 22 2004 02:21:14  name"
      let rest = line[line.index(after: bracket)...]
      let fields = rest.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
      guard fields.count == 6, let size = Int64(fields[0]) else { continue }
      var name = String(fields[5].drop(while: { $0 == " " }))
      if let arrow = name.range(of: " -> ") { name = String(name[..<arrow.lowerBound]) }
      if name == "." || name == ".." { continue }
      let path = directory == "/" ? "/" + name : directory + name
      entries[path] = OracleEntry(path: path, type: type, size: size)
    }
    return entries
  }

  static let rightFiles:
    [(right: String, image: String, names: ISO9660FileSystem.NamePreference, caseInsensitive: Bool)] =
      [
        ("libcdio_expected_copying.right", "libcdio_copying.iso", .automatic, true),
        ("libcdio_expected_copying-rr.right", "libcdio_copying-rr.iso", .automatic, false),
        ("libcdio_expected_joliet.right", "libcdio_joliet.iso", .automatic, false),
        ("libcdio_expected_joliet-nojoliet.right", "libcdio_joliet.iso", .plain, true),
        ("libcdio_expected_deep_directory.right", "libcdio_deep-directory.iso", .automatic, false),
        ("libcdio_expected_multiextent.right", "libcdio_multi_extent_8k.iso", .automatic, false),
        (
          "libcdio_expected_multiextent_joliet.right", "libcdio_multi_extent_8k_joliet.iso",
          .automatic, false
        ),
      ]

  /// libcdio lower-cases plain ISO 9660 names and turns `-` into `_`-free forms of its own; for
  /// those images the comparison is case-insensitive. Symbolic-link sizes differ by design
  /// (libcdio shows the target's length, DiscKit and xorriso the record's 0), so they are not
  /// compared.
  @Test(arguments: 0..<rightFiles.count)
  func listingEqualsLibcdio(index: Int) throws {
    let (right, image, names, caseInsensitive) = Self.rightFiles[index]
    let theirs = try Self.libcdioListing(right)
    #expect(!theirs.isEmpty)
    let fs = try Self.open(image, names: names)
    let fold: (String) -> String = { caseInsensitive ? $0.lowercased() : $0 }
    var ours: [String: DiscFileEntry] = [:]
    for entry in try fs.recursiveContents() { ours[fold(entry.path)] = entry }
    var expected: [String: OracleEntry] = [:]
    for (path, entry) in theirs { expected[fold(path)] = entry }
    #expect(Set(ours.keys) == Set(expected.keys), "\(right)")
    for (path, oracle) in expected {
      guard let entry = ours[path] else { continue }
      #expect(entry.isDirectory == (oracle.type == "d"), "\(right) \(path)")
      if oracle.type == "-" { #expect(entry.size == oracle.size, "\(right) \(path)") }
    }
  }

  /// The multi-extent images: the 54305-byte file made of seven 8 KiB extents reads as one
  /// file whose bytes equal what xorriso extracts (Rock Ridge tree, and Joliet tree).
  @Test(.enabled(if: Tool.has("xorriso"), "xorriso not installed"))
  func multiExtentBytesEqualXorriso() throws {
    for (image, norock) in [
      ("libcdio_multi_extent_8k.iso", false), ("libcdio_multi_extent_8k_joliet.iso", true),
    ] {
      let path = Fixtures.real("iso9660/" + image)
      let fs = try Self.open(image)
      let file = try fs.openFile(atPath: "/multi_extent_file")
      #expect(file.size == 54305)
      #expect((file as? ConcatenatedByteSource)?.extents.count == 7)
      let theirs = try Xorriso.listing(path, norock: norock)
      expectSameListing(try diskitListing(fs), theirs)
      let scratch = try TemporaryDirectory("iso9660-real")
      try Xorriso.extract(path, norock: norock, to: scratch.file("x"))
      try expectSameBytes(fs, theirs, extractedTo: scratch.file("x"))
    }
  }

  /// Every readable real image: listing and bytes equal xorriso's (Rock Ridge or plain names,
  /// and the Joliet tree when there is one).
  @Test(
    .enabled(if: Tool.has("xorriso"), "xorriso not installed"),
    arguments: [
      "libcdio_copying.iso", "libcdio_copying-rr.iso", "libcdio_joliet.iso",
      "libcdio_deep-directory.iso",
      "kdomanski_test.iso", "kdomanski_test_rockridge.iso",
    ])
  func listingAndBytesEqualXorriso(image: String) throws {
    let path = Fixtures.real("iso9660/" + image)
    // xorriso picks Rock Ridge, else Joliet, else plain names: DiscKit's automatic choice.
    let fs = try Self.open(image)
    let theirs = try Xorriso.listing(path)
    expectSameListing(try diskitListing(fs), theirs)
    let scratch = try TemporaryDirectory("iso9660-real")
    try Xorriso.extract(path, to: scratch.file("x"))
    try expectSameBytes(fs, theirs, extractedTo: scratch.file("x"))
    if fs.joliet != nil && fs.names != .joliet {
      let joliet = try Self.open(image, names: .joliet)
      let jolietListing = try Xorriso.listing(path, norock: true)
      expectSameListing(try diskitListing(joliet), jolietListing)
    }
  }

  /// The kdomanski Rock Ridge image against the manifest of the tree it was built from (size
  /// and SHA-256 of each of the 1004 files, checked by `sha256sum -c`).
  @Test(.enabled(if: Tool.has("sha256sum"), "sha256sum not installed"))
  func kdomanskiRockRidgeEqualsSourceManifest() throws {
    let fs = try Self.open("kdomanski_test_rockridge.iso")
    let manifest = try String(
      contentsOfFile: Fixtures.real("iso9660/kdomanski_test.iso_source.manifest"), encoding: .utf8)
    let scratch = try TemporaryDirectory("iso9660-manifest")
    var checks = ""
    var expectedPaths: Set<String> = []
    for line in manifest.split(separator: "\n") {
      let fields = line.split(separator: " ", maxSplits: 2)
      guard fields.count == 3, let size = Int64(fields[0]) else { continue }
      let path = "/" + fields[2]
      expectedPaths.insert(path)
      let entry = try fs.entry(atPath: path)
      #expect(entry.size == size, "\(path)")
      let bytes = try fs.readFile(atPath: path)
      let local = scratch.file("f\(expectedPaths.count)")
      try Data(bytes).write(to: URL(fileURLWithPath: local))
      checks += "\(fields[1])  \(local)\n"
    }
    #expect(expectedPaths.count == 1004)
    let result = try Tool.run("sha256sum", ["-c", "--quiet", "-"], stdin: Data(checks.utf8))
    #expect(result.status == 0, "sha256sum: \(result.text) \(result.stderr)")
    let ourFiles = Set(try fs.recursiveContents().filter { !$0.isDirectory }.map(\.path))
    #expect(ourFiles == expectedPaths.union(["/this-is-a-symlink"]))
  }

  /// exiftool's image is the first 40 KiB of a 391 MB volume: the descriptor fields equal
  /// exiftool's expected output, and listing the root gives a typed truncation error.
  @Test func exiftoolTruncatedImage() throws {
    let fs = try Self.open("exiftool_ISO.iso")
    let expected = try String(
      contentsOfFile: Fixtures.real("iso9660/exiftool_ISO_expected.out"), encoding: .utf8)
    #expect(expected.contains("Volume Name: \(fs.volumeLabel)"))
    #expect(expected.contains("Volume Block Count: \(fs.primary.volumeSpaceSize)"))
    #expect(expected.contains("Volume Block Size: \(fs.logicalBlockSize)"))
    #expect(expected.contains("Volume Set Name: \(fs.primary.volumeSetIdentifier)"))
    #expect(expected.contains("Publisher: \(fs.primary.publisherIdentifier)"))
    #expect(expected.contains("Data Preparer: \(fs.primary.dataPreparerIdentifier)"))
    #expect(fs.descriptors.contains { $0.kind == .bootRecord })
    let error = try #require(throws: DiscKitError.self) { try fs.contentsOfDirectory(atPath: "/") }
    #expect(error.code == .truncated)
    // hdiutil wrote a Joliet descriptor: the Joliet root directory record is the one named.
    #expect(fs.names == .joliet)
    #expect(error.offset == (fs.joliet?.offset ?? -1) + 156)
  }

  /// libcdio's negative-test images: each gives a typed error or a documented degradation.
  @Test(arguments: ["libcdio_malformed.iso", "libcdio_malformed2.iso", "libcdio_bad-dir.iso"])
  func malformedImagesGiveTypedErrors(image: String) throws {
    let outcome = Result { () throws(DiscKitError) -> Int in
      let disc = try DiscImage.open(path: Fixtures.real("iso9660/" + image))
      var read = 0
      for entry in try disc.fileSystem.recursiveContents() where !entry.isDirectory {
        read += try disc.fileSystem.readFile(atPath: entry.path).count
      }
      return read
    }
    switch (image, outcome) {
    case ("libcdio_malformed.iso", .failure(let error)):
      // The image is 47229 bytes, not a whole number of sectors: the descriptor set is cut.
      #expect(error.code == .truncated || error.code == .malformed || error.code == .unsupported)
    case ("libcdio_malformed2.iso", .failure(let error)):
      #expect(error.offset != nil, "\(error)")
    case ("libcdio_bad-dir.iso", .failure(let error)):
      #expect(error.offset != nil, "\(error)")
    case (_, .success):
      Issue.record("\(image) was read without an error; libisofs rejects it")
    case (_, .failure(let error)):
      Issue.record("\(image): \(error)")
    }
  }
}
