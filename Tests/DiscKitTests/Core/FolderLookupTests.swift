import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The folder reader's direct lookups (one `stat` for `entry(atPath:)`, the whole path first in
/// `resolve`) and the disc-kind probe gated on one root listing (issue 11) must answer exactly
/// as the plain way does: listing each parent directory and probing every marker path.
@Suite("Folder lookups and disc kind", .toolThreads)
struct FolderLookupTests {
  /// The entry as the protocol's listing-based lookup finds it: exact name first, then a
  /// case-insensitive match, in the parent's listing order.
  static func listedEntry(_ fs: any DiscFileSystem, _ path: String) -> DiscFileEntry? {
    let components = DiscPath.components(path)
    guard let last = components.last else {
      return DiscFileEntry(name: "", path: "/", size: 0, isDirectory: true)
    }
    guard let siblings = try? fs.contentsOfDirectory(atPath: DiscPath.join(components.dropLast()))
    else { return nil }
    return siblings.first { $0.name == last }
      ?? siblings.first { $0.name.lowercased() == last.lowercased() }
  }

  /// The disc kind by probing every marker path in order (the implementation before the
  /// root-listing gate), with existence decided by parent listings.
  static func probedKind(_ fs: any DiscFileSystem) -> DiscKind {
    func exists(_ path: String) -> Bool { listedEntry(fs, path) != nil }
    if let index = try? fs.openFile(atPath: "/BDMV/index.bdmv"),
      let header = try? index.bytes(at: 0, count: 8, structure: "index.bdmv")
    {
      return header[4...7] == [0x30, 0x33, 0x30, 0x30] ? .uhdBluray : .bluray
    }
    if exists("/PRIVATE/AVCHD/BDMV/INDEX.BDM") || exists("/PRIVATE/AVCHD/BDMV/index.bdmv")
      || exists("/BDMV/INDEX.BDM")
    {
      return .avchd
    }
    if exists("/VIDEO_TS/VIDEO_TS.IFO") || exists("/VIDEO_TS/VIDEO_TS.BUP") { return .dvd }
    if let playlists = try? fs.contentsOfDirectory(atPath: "/BDMV/PLAYLIST"),
      playlists.contains(where: { $0.name.lowercased().hasSuffix(".mpls") })
    {
      return .bluray
    }
    return .data
  }

  static func write(_ root: String, _ relative: String, _ bytes: [UInt8]) throws {
    let url = URL(fileURLWithPath: root).appendingPathComponent(relative)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
  }

  /// Every combination of the marker files (384 trees, some with lower-case names and decoys):
  /// the gated probe gives the kind the plain probe gives, and each kind occurs.
  @Test func kindEqualsThePlainProbeOnEveryMarkerCombination() throws {
    let markers = [
      "PRIVATE/AVCHD/BDMV/INDEX.BDM", "private/avchd/bdmv/index.bdmv", "BDMV/INDEX.BDM",
      "VIDEO_TS/VIDEO_TS.IFO", "video_ts/video_ts.bup", "BDMV/PLAYLIST/00000.mpls",
      "BDMV/PLAYLIST/readme.txt",
    ]
    let indexes: [[UInt8]?] = [nil, Array("INDX0200".utf8), Array("INDX0300".utf8)]
    let directory = try TemporaryDirectory("disckit-kind")
    var seen: Set<DiscKind> = []
    var trees = 0
    for (i, index) in indexes.enumerated() {
      for mask in 0..<(1 << markers.count) {
        let root = directory.file("t\(i)-\(mask)")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        if let index { try Self.write(root, "BDMV/index.bdmv", index) }
        for (bit, marker) in markers.enumerated() where mask & (1 << bit) != 0 {
          try Self.write(root, marker, [0])
        }
        let image = try DiscImage.open(path: root)
        let expected = Self.probedKind(image.fileSystem)
        #expect(image.kind == expected, "tree \(i)-\(mask)")
        seen.insert(image.kind)
        trees += 1
      }
    }
    #expect(trees == 384)
    #expect(seen == [.bluray, .uhdBluray, .avchd, .dvd, .data])
  }

  /// `entry(atPath:)` on a folder equals the entry its parent's listing gives, for every path in
  /// the tree, the same paths with their case flipped, and missing paths.
  @Test func entryEqualsTheParentListing() throws {
    let directory = try TemporaryDirectory("disckit-folder-entry")
    let root = directory.path
    try Self.write(root, "VIDEO_TS/VIDEO_TS.IFO", Array(repeating: 1, count: 2048))
    try Self.write(root, "VIDEO_TS/vts_01_0.ifo", Array(repeating: 2, count: 4096))
    try Self.write(root, "VIDEO_TS/VTS_01_1.VOB", Array(repeating: 3, count: 10_000))
    try Self.write(root, "BDMV/PLAYLIST/00000.mpls", [1, 2, 3])
    try Self.write(root, "BDMV/playlist/00001.mpls", [4, 5])  // a case twin of PLAYLIST
    try FileManager.default.createDirectory(
      atPath: root + "/EMPTY", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: root + "/VIDEO_TS/LINK.VOB", withDestinationPath: root + "/VIDEO_TS/VTS_01_1.VOB")
    var folders = [root]
    if FileManager.default.fileExists(atPath: Fixtures.generated("dvd-ntsc")) {
      folders.append(Fixtures.generated("dvd-ntsc"))
    }
    var checked = 0
    for folder in folders {
      let fs = try FolderFileSystem(root: folder)
      var paths = ["/", "/missing", "/VIDEO_TS/missing.ifo", "/VIDEO_TS/VIDEO_TS.IFO/below"]
      for entry in try fs.recursiveContents() {
        paths += [entry.path, entry.path.lowercased(), entry.path.uppercased(), entry.path + "/x"]
      }
      for path in paths {
        let direct = try? fs.entry(atPath: path)
        #expect(direct == Self.listedEntry(fs, path), "\(folder): \(path)")
        checked += 1
      }
      // `exists` agrees with the listing too.
      for path in paths {
        #expect(fs.exists(path) == (Self.listedEntry(fs, path) != nil), "\(path)")
      }
    }
    #expect(checked > 40)
  }

  /// Paths spelled every way a caller may spell them (doubled, `.`, leading, trailing and back
  /// slashes, another case, a root given with trailing slashes) resolve as their canonical spelling does: the
  /// canonical fast path (no splitting, issue 29) and the general one agree.
  @Test func spellingsResolveAsTheCanonicalPath() throws {
    let directory = try TemporaryDirectory("disckit-folder-spelling")
    let root = directory.path
    try Self.write(root, "BDMV/PLAYLIST/00000.mpls", [1, 2, 3])
    try Self.write(root, "BDMV/STREAM/00001.m2ts", Array(repeating: 7, count: 1000))
    try Self.write(root, "BDMV/...", [9])
    for base in [root, root + "/", root + "//"] {
      let fs = try FolderFileSystem(root: base)
      for canonical in ["/BDMV/PLAYLIST/00000.mpls", "/BDMV/STREAM/00001.m2ts", "/BDMV/..."] {
        let parts = DiscPath.components(canonical)
        let spellings = [
          canonical, "/" + canonical, canonical.replacingOccurrences(of: "/", with: "//"),
          canonical.replacingOccurrences(of: "/", with: "/./"),
          canonical.replacingOccurrences(of: "/", with: "\\"), String(canonical.dropFirst()),
          canonical.lowercased(), parts.joined(separator: "/") + "/",
        ]
        let expected = try fs.entry(atPath: canonical)
        let bytes = try fs.readFile(atPath: canonical, limit: 1 << 20)
        for path in spellings {
          #expect(try fs.entry(atPath: path) == expected, "\(base): \(path)")
          #expect(try fs.readFile(atPath: path, limit: 1 << 20) == bytes, "\(base): \(path)")
        }
      }
    }
  }

  /// What the fast path takes as canonical is exactly what splitting and joining leaves as it
  /// is (`DiscPath.join(DiscPath.components(path)) == path`), over generated paths.
  @Test func canonicalMeansJoiningTheComponentsGivesThePathBack() {
    let pieces = ["/", "//", "a", "BDMV", ".", "..", "...", "\\", "é", "x.mpls", ".hidden"]
    var generator = SystemRandomNumberGenerator()
    var canonical = 0
    for _ in 0..<20_000 {
      var path = ""
      for _ in 0..<Int.random(in: 0...6, using: &generator) {
        path += pieces.randomElement(using: &generator) ?? ""
      }
      let isCanonical = FolderFileSystem.isCanonical(path)
      if isCanonical {
        #expect(DiscPath.join(DiscPath.components(path)) == path, "\(path)")
        canonical += 1
      }
    }
    #expect(canonical > 100)
    #expect(FolderFileSystem.isCanonical("/BDMV/PLAYLIST/00800.mpls"))
    #expect(!FolderFileSystem.isCanonical("/"))
    #expect(!FolderFileSystem.isCanonical("/BDMV/"))
    #expect(!FolderFileSystem.isCanonical("/BDMV/../x"))
  }

  /// `DiscPath.components` splits an ASCII path at its bytes (issue 29): the same components as
  /// splitting it at its characters, over generated paths (CR LF, non-ASCII and combining
  /// characters included, which take the character path).
  @Test func componentsAsSplittingCharacters() {
    let pieces = [
      "/", "\\", "a", ".", "..", "\r\n", "\r", "é", "e\u{301}", "/\u{301}", "00800.mpls",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      var path = ""
      for _ in 0..<Int.random(in: 0...7, using: &generator) {
        path += pieces.randomElement(using: &generator) ?? ""
      }
      let byCharacters = path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).map(String.init)
        .filter { $0 != "." }
      #expect(DiscPath.components(path) == byCharacters, "\(path.debugDescription)")
    }
  }
}
