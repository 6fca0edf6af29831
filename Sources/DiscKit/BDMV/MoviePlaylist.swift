/// A movie playlist file (`BDMV/PLAYLIST/xxxxx.mpls`): play items, sub-paths, marks.
///
/// Parsed like libbluray's `mpls_parse`: header (versions 0100/0200/0240/0300), AppInfoPlayList,
/// PlayList (play items with angles and STN tables, sub-paths), PlayListMark, and the extension
/// data entries (only the (2,2) SubPath extension is decoded, the rest is skipped safely; a broken
/// extension block is ignored as libbluray ignores it).
@_spi(Formats)
public struct MoviePlaylist: Sendable, Hashable, Codable {
  /// The header version.
  public var version: BDMVVersion
  /// `playback_type`: 1 sequential, 2 random, 3 shuffle.
  public var playbackType: UInt8
  /// `playback_count` (types 2 and 3).
  public var playbackCount: UInt16
  /// AppInfo flags.
  public var randomAccessFlag: Bool
  /// `audio_mix_app_flag`.
  public var audioMixFlag: Bool
  /// `lossless_may_bypass_mixer_flag`.
  public var losslessBypassFlag: Bool
  /// `MVC_Base_view_R_flag`: the MVC base view is the right-eye view.
  public var mvcBaseViewRightFlag: Bool
  /// The main path.
  public var playItems: [PlayItem]
  /// The sub-paths.
  public var subPaths: [SubPath]
  /// Marks (chapters and link points).
  public var marks: [PlaylistMark]
  /// Sub-paths from the (2,2) extension (3D/MVC).
  public var extensionSubPaths: [SubPath]
  /// The `(id1, id2)` of every extension data entry.
  public var extensionIDs: [ExtensionID]

  /// An extension data entry's identifiers.
  public struct ExtensionID: Sendable, Hashable, Codable {
    /// `ID1` of the entry.
    public var id1: UInt16
    /// `ID2` of the entry.
    public var id2: UInt16
  }

  /// Creates a playlist (for authoring and tests).
  public init(
    version: BDMVVersion = .v0200, playbackType: UInt8 = 1, playItems: [PlayItem],
    subPaths: [SubPath] = [],
    marks: [PlaylistMark] = []
  ) {
    self.version = version
    self.playbackType = playbackType
    self.playbackCount = 0
    self.randomAccessFlag = false
    self.audioMixFlag = false
    self.losslessBypassFlag = false
    self.mvcBaseViewRightFlag = false
    self.playItems = playItems
    self.subPaths = subPaths
    self.marks = marks
    self.extensionSubPaths = []
    self.extensionIDs = []
  }

  /// Parses a whole `.mpls` file held by `reader`.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    version = try BDMVVersion.readHeader(&reader, type: "MPLS")
    guard reader.count >= 40 else {
      throw DiscKitError.truncated(
        reader.structure, at: reader.absoluteOffset(ofRelative: 8), needed: 32)
    }
    let listPos = Int(try reader.readUInt32BE())
    let markPos = Int(try reader.readUInt32BE())
    let extPos = Int(try reader.readUInt32BE())
    try reader.skip(20)

    // AppInfoPlayList (length u32, reserved, type, count, UO mask, flags). libbluray ignores a
    // length that runs past the end of the file (the fields are still read); so does DiscKit.
    _ = try reader.readUInt32BE()
    try reader.skip(1)
    playbackType = try reader.readUInt8()
    let count = try reader.readUInt16BE()
    playbackCount = (playbackType == 2 || playbackType == 3) ? count : 0
    try reader.skip(8)
    let flags = try reader.readUInt8()
    randomAccessFlag = flags & 0x80 != 0
    audioMixFlag = flags & 0x40 != 0
    losslessBypassFlag = flags & 0x20 != 0
    mvcBaseViewRightFlag = flags & 0x10 != 0

    // PlayList.
    guard listPos <= reader.count else {
      throw reader.malformed(
        "PlayList start \(listPos) lies past the end of the file", atRelative: 8)
    }
    try reader.seek(toRelative: listPos)
    let listLength = Int(try reader.readUInt32BE())
    guard listLength <= reader.remaining else {
      throw DiscKitError.truncated(
        reader.structure, at: reader.absoluteOffset, needed: Int64(listLength))
    }
    try reader.skip(2)
    let itemCount = Int(try reader.readUInt16BE())
    let subCount = Int(try reader.readUInt16BE())
    guard itemCount * 20 <= reader.remaining, subCount * 12 <= reader.remaining else {
      throw reader.malformed(
        "\(itemCount) play items and \(subCount) sub-paths do not fit in the file")
    }
    playItems = []
    playItems.reserveCapacity(itemCount)
    for index in 0..<itemCount {
      reader.structure = "MPLS PlayItem \(index)"
      playItems.append(try PlayItem(parsing: &reader))
    }
    subPaths = []
    for index in 0..<subCount {
      reader.structure = "MPLS SubPath \(index)"
      subPaths.append(try SubPath(parsing: &reader))
    }

    // PlayListMark.
    reader.structure = "MPLS PlayListMark"
    guard markPos <= reader.count else {
      throw reader.malformed(
        "PlayListMark start \(markPos) lies past the end of the file", atRelative: 12)
    }
    try reader.seek(toRelative: markPos)
    let markLength = Int(try reader.readUInt32BE())
    guard markLength <= reader.remaining else {
      throw DiscKitError.truncated(
        reader.structure, at: reader.absoluteOffset, needed: Int64(markLength))
    }
    let markCount = Int(try reader.readUInt16BE())
    guard markCount * 14 <= reader.remaining else {
      throw reader.malformed(
        "\(markCount) marks need \(markCount * 14) bytes, only \(reader.remaining) remain")
    }
    marks = []
    marks.reserveCapacity(markCount)
    for _ in 0..<markCount { marks.append(try PlaylistMark(parsing: &reader)) }

    // Extension data: failures are ignored (as in libbluray), the playlist stays valid.
    extensionSubPaths = []
    extensionIDs = []
    if extPos > 0, let parsed = try? Self.parseExtensions(reader, at: extPos) {
      extensionIDs = parsed.ids
      extensionSubPaths = parsed.subPaths
    }
  }

  private static func parseExtensions(_ base: BinaryReader, at start: Int) throws(DiscKitError) -> (
    ids: [ExtensionID], subPaths: [SubPath]
  ) {
    var reader = base
    reader.structure = "MPLS ExtensionData"
    guard start <= reader.count - 12 else {
      throw reader.malformed("extension data start outside the file")
    }
    try reader.seek(toRelative: start)
    let length = try reader.readUInt32BE()
    guard length >= 1 else { return ([], []) }
    try reader.skip(7)
    let entries = Int(try reader.readUInt8())
    guard start + 12 + entries * 12 <= reader.count else {
      throw reader.malformed("extension entries outside the file")
    }
    var ids: [ExtensionID] = []
    var subPaths: [SubPath] = []
    for _ in 0..<entries {
      let id1 = try reader.readUInt16BE()
      let id2 = try reader.readUInt16BE()
      let extStart = Int(try reader.readUInt32BE())
      let extLength = Int(try reader.readUInt32BE())
      guard start + extStart + extLength <= reader.count else {
        throw reader.malformed("extension outside the file")
      }
      ids.append(ExtensionID(id1: id1, id2: id2))
      if id1 == 2 && id2 == 2 {
        var sub = reader
        try sub.seek(toRelative: start + extStart)
        let subLength = try sub.readUInt32BE()
        let count = Int(try sub.readUInt16BE())
        if subLength >= 1 && count >= 1 {
          guard count * 12 <= sub.remaining else {
            throw sub.malformed("\(count) extension sub-paths do not fit")
          }
          var parsed: [SubPath] = []
          for _ in 0..<count { parsed.append(try SubPath(parsing: &sub)) }
          subPaths = parsed
        }
      }
    }
    return (ids, subPaths)
  }

  /// Parses a playlist from its bytes.
  public init(bytes: [UInt8], name: String = "MPLS", baseOffset: Int64 = 0) throws(DiscKitError) {
    var reader = BinaryReader(bytes, baseOffset: baseOffset, structure: name)
    try self.init(parsing: &reader)
  }

  /// The playlist duration as libbluray computes it: `Σ (out - in)` in 45 kHz, wrapping at 2^32.
  public var duration45k: UInt32 {
    playItems.reduce(UInt32(0)) { $0 &+ $1.duration45k }
  }

  /// The number of entry marks (chapters).
  public var chapterCount: Int { marks.count(where: { $0.isEntry }) }

  /// The largest number of angles of any play item (libbluray's `angle_count`).
  public var angleCount: Int { playItems.map(\.angleCount).max() ?? 0 }
}
