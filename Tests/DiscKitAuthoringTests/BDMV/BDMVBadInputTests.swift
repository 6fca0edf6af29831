@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// Malformed BDMV input gives typed errors or documented degradations, never a crash.
@Suite("BDMV bad input", .toolThreads)
struct BDMVBadInputTests {
  static let items = [
    SyntheticBluray.item("00001", from: 0, to: 60), SyntheticBluray.item("00002", from: 5, to: 50),
  ]
  static let playlist = MoviePlaylist(
    playItems: items, marks: SyntheticBluray.marks(every: 20, items: items))
  static let clip = SyntheticBluray.clipInfo(seconds: 70)

  @Test func unknownVersionIsUnsupported() {
    var bytes = Self.playlist.serialize()
    bytes.replaceSubrange(4..<8, with: Array("0500".utf8))
    #expect(throws: DiscKitError(.unsupported, "MPLS", at: 4, "")) {
      try MoviePlaylist(bytes: bytes)
    }
    var clpi = Self.clip.serialize()
    clpi.replaceSubrange(4..<8, with: Array("0999".utf8))
    #expect(throws: DiscKitError(.unsupported, "CLPI", at: 4, "")) {
      try ClipInformation(bytes: clpi)
    }
  }

  @Test func allVersionsParse() throws {
    for version in BDMVVersion.allCases {
      var pl = Self.playlist
      pl.version = version
      #expect(try MoviePlaylist(bytes: pl.serialize()).version == version)
    }
  }

  /// Every prefix of a valid file either parses or throws a DiscKitError (no trap), and a cut
  /// inside the play items is reported as truncated.
  @Test func truncatedFilesThrowTypedErrors() throws {
    let mpls = Self.playlist.serialize()
    for n in 0..<mpls.count {
      do { _ = try MoviePlaylist(bytes: Array(mpls.prefix(n))) } catch {}
    }
    #expect(throws: DiscKitError.self) { try MoviePlaylist(bytes: Array(mpls.prefix(70))) }
    let clpi = Self.clip.serialize()
    for n in 0..<clpi.count {
      do { _ = try ClipInformation(bytes: Array(clpi.prefix(n))) } catch {}
    }
    do {
      _ = try ClipInformation(bytes: Array(clpi.prefix(clpi.count - 10)))
      Issue.record("a CLPI cut inside its EP map parsed")
    } catch {
      #expect(error.code == .truncated)
    }
    for n in 0..<12 {
      #expect(throws: DiscKitError.self) {
        try BDMVIndex(bytes: Array([UInt8](Array("INDX0200".utf8) + [0, 0, 0, 78]).prefix(n)))
      }
    }
  }

  @Test func absurdCountsAreRejectedBeforeAllocating() throws {
    var bytes = Self.playlist.serialize()
    let listPos = Int(bytes[8]) << 24 | Int(bytes[9]) << 16 | Int(bytes[10]) << 8 | Int(bytes[11])
    bytes[listPos + 6] = 0xFF
    bytes[listPos + 7] = 0xFF
    #expect(throws: DiscKitError.self) { try MoviePlaylist(bytes: bytes) }
    var marks = Self.playlist.serialize()
    let markPos = Int(marks[12]) << 24 | Int(marks[13]) << 16 | Int(marks[14]) << 8 | Int(marks[15])
    marks[markPos + 4] = 0xFF
    marks[markPos + 5] = 0xFF
    do {
      _ = try MoviePlaylist(bytes: marks)
      Issue.record("65535 marks in a small file parsed")
    } catch {
      #expect(error.code == .malformed && error.offset != nil)
    }
    // An EP map claiming 65535 coarse entries.
    var clpi = Self.clip.serialize()
    let cpi = Int(clpi[16]) << 24 | Int(clpi[17]) << 16 | Int(clpi[18]) << 8 | Int(clpi[19])
    // CPI: length(4) type(2) reserved(1) count(1) pid(2) then the word holding the coarse count.
    let word = cpi + 10
    clpi[word + 1] |= 0x3F
    clpi[word + 2] = 0xFF
    clpi[word + 3] |= 0xFC
    #expect(throws: DiscKitError.self) { try ClipInformation(bytes: clpi) }
  }

  @Test func epFineIndexOutOfRange() throws {
    var info = Self.clip
    // The synthetic clip the test builds has an EP map: the test cannot pass without one.
    var stream = try #require(info.epMap?.streams.first)
    stream.coarse[stream.coarse.count - 1].refFineID = UInt32(stream.fine.count + 5)
    info.epMap = EPMap(streams: [stream])
    do {
      _ = try ClipInformation(bytes: info.serialize())
      Issue.record("an out-of-range fine reference parsed")
    } catch {
      #expect(error.code == .malformed)
      #expect(error.structure == "CLPI EP map stream 0")
      #expect(error.offset != nil)
    }
  }

  @Test func markReferringToMissingPlayItem() throws {
    let disc = try SyntheticBluray()
    try disc.clip("00001", Self.clip)
    try disc.clip("00002", Self.clip)
    var pl = Self.playlist
    pl.marks.append(PlaylistMark(playItemRef: 7, time: 27000))
    try disc.playlist(1, pl)
    let bluray = try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path))
    #expect(
      throws: DiscKitError(
        .malformed, "MPLS PlayListMark \(pl.marks.count - 1) of 00001.mpls", at: nil, "")
    ) {
      try bluray.title(playlist: "00001.mpls")
    }
  }

  @Test func inTimeAfterOutTimeWrapsLikeLibblurayAndWarns() throws {
    let disc = try SyntheticBluray()
    try disc.clip("00001", Self.clip)
    let item = SyntheticBluray.item("00001", from: 30, to: 10)
    try disc.playlist(1, MoviePlaylist(playItems: [item]))
    let bluray = try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path))
    let title = try bluray.title(playlist: "00001.mpls")
    #expect(title.duration45k == item.outTime &- item.inTime)
    #expect(title.warnings.contains { $0.description.contains("in-time") })
  }

  @Test func missingClipInformationMissingAndTruncatedStreams() throws {
    let disc = try SyntheticBluray()
    try disc.clip("00001", Self.clip)
    try disc.playlist(1, Self.playlist)  // 00002.clpi is missing
    var bluray = try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path))
    var title = try bluray.title(playlist: "00001.mpls")
    #expect(title.clips[1].packetCount == 0 && !title.clips[1].hasClipInformation)
    #expect(title.warnings.contains { $0.description.contains("00002") })
    // Missing M2TS.
    #expect(throws: DiscKitError.self) { try title.byteSource() }
    // Truncated M2TS: shorter than the clip range.
    try disc.write("BDMV/STREAM/00001.m2ts", [UInt8](repeating: 0, count: 192 * 100))
    do {
      _ = try title.byteSource()
      Issue.record("a truncated stream file was accepted")
    } catch {
      #expect(error.code == .truncated)
    }
    // The BACKUP copy replaces a broken clip information file.
    try disc.write("BDMV/CLIPINF/00002.clpi", Array("HDMV0200 broken".utf8))
    try disc.write("BDMV/BACKUP/CLIPINF/00002.clpi", Self.clip.serialize())
    bluray = try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path))
    title = try bluray.title(playlist: "00001.mpls")
    #expect(title.clips[1].hasClipInformation)
    #expect(!bluray.warnings.isEmpty)
  }

  @Test func backupPlaylistIsUsedWhenMainIsBroken() throws {
    let disc = try SyntheticBluray()
    try disc.write("BDMV/PLAYLIST/00005.mpls", Array(Self.playlist.serialize().prefix(30)))
    try disc.write("BDMV/BACKUP/PLAYLIST/00005.mpls", Self.playlist.serialize())
    try disc.write("BDMV/PLAYLIST/00006.mpls", Array("garbage".utf8))
    let bluray = try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path))
    let five = try #require(bluray.playlistFile(named: "00005.mpls"))
    #expect(five.fromBackup && five.playlist == Self.playlist.withOffsets(of: five.playlist))
    let six = try #require(bluray.playlistFile(named: "00006.mpls"))
    #expect(six.playlist == nil && six.error != nil)
  }

  @Test func movieObjectWithTooManyCommands() {
    var bytes = MovieObjectFile(objects: [.init(commands: [.playPlaylist(800)])]).serialize()
    bytes[48] = 0xFF  // command count high byte of object 0
    #expect(throws: DiscKitError.self) { try MovieObjectFile(bytes: bytes) }
  }
}

extension MoviePlaylist {
  /// This playlist with the file offsets of `other` (offsets are not part of the content).
  func withOffsets(of other: MoviePlaylist?) -> MoviePlaylist {
    var copy = self
    guard let other else { return copy }
    for i in copy.playItems.indices where i < other.playItems.count {
      copy.playItems[i].fileOffset = other.playItems[i].fileOffset
    }
    return copy
  }
}
