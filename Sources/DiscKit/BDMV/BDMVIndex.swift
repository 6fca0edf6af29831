/// The disc's index table (`BDMV/index.bdmv`): first play, top menu and the titles, each pointing
/// at an HDMV movie object or a BD-J object.
@_spi(Formats)
public struct BDMVIndex: Sendable, Hashable, Codable {
  /// What an index entry starts.
  public enum Object: Sendable, Hashable, Codable {
    /// An HDMV movie object (index into MovieObject.bdmv); `playbackType` 0 movie, 1 interactive.
    case hdmv(movieObject: UInt16, playbackType: UInt8)
    /// A BD-J object (`BDMV/BDJO/<name>.bdjo`).
    case bdj(name: String, playbackType: UInt8)
    /// No object (object type 0 or unknown).
    case none

    /// The movie object number, for HDMV entries that have one (`0xFFFF` means none).
    public var movieObject: Int? {
      if case .hdmv(let id, _) = self, id != 0xFFFF { return Int(id) }
      return nil
    }
  }

  /// A title entry.
  public struct Title: Sendable, Hashable, Codable {
    /// What the title starts.
    public var object: Object
    /// `title_access_type` (2 bits).
    public var accessType: UInt8

    /// Creates a title entry.
    public init(object: Object, accessType: UInt8 = 0) {
      self.object = object
      self.accessType = accessType
    }
  }

  /// The header version.
  public var version: BDMVVersion
  /// First play object.
  public var firstPlay: Object
  /// Top menu object.
  public var topMenu: Object
  /// Titles 1...n.
  public var titles: [Title]

  /// Parses a whole `index.bdmv`.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    version = try BDMVVersion.readHeader(&reader, type: "INDX")
    let indexesStart = Int(try reader.readUInt32BE())
    guard indexesStart <= reader.count else {
      throw reader.malformed(
        "Indexes start \(indexesStart) lies past the end of the file", atRelative: 8)
    }
    try reader.seek(toRelative: indexesStart)
    let length = Int(try reader.readUInt32BE())
    guard length <= reader.remaining else {
      throw DiscKitError.truncated(
        reader.structure, at: reader.absoluteOffset, needed: Int64(length))
    }
    func object(_ r: inout BinaryReader, type: UInt8) throws(DiscKitError) -> Object {
      switch type {
      case 1:
        let playback = UInt8(try r.readUInt16BE() >> 14)
        let id = try r.readUInt16BE()
        try r.skip(4)
        return .hdmv(movieObject: id, playbackType: playback)
      case 2:
        let playback = UInt8(try r.readUInt16BE() >> 14)
        let name = try r.readIdentifier(5)
        try r.skip(1)
        return .bdj(name: name, playbackType: playback)
      default:
        try r.skip(8)
        return .none
      }
    }
    let fpType = UInt8(try reader.readUInt32BE() >> 30)
    firstPlay = try object(&reader, type: fpType)
    let tmType = UInt8(try reader.readUInt32BE() >> 30)
    topMenu = try object(&reader, type: tmType)
    let count = Int(try reader.readUInt16BE())
    guard count * 12 <= reader.remaining else {
      throw reader.malformed(
        "\(count) titles need \(count * 12) bytes, only \(reader.remaining) remain")
    }
    titles = []
    for _ in 0..<count {
      let head = try reader.readUInt32BE()
      let type = UInt8(head >> 30)
      let access = UInt8((head >> 28) & 3)
      titles.append(Title(object: try object(&reader, type: type), accessType: access))
    }
  }

  /// Parses `index.bdmv` from its bytes.
  public init(bytes: [UInt8], name: String = "index.bdmv") throws(DiscKitError) {
    var reader = BinaryReader(bytes, structure: name)
    try self.init(parsing: &reader)
  }
}

extension BDMVIndex {
  /// Creates an index table (for authoring and tests).
  public init(version: BDMVVersion = .v0200, firstPlay: Object, topMenu: Object, titles: [Title]) {
    self.version = version
    self.firstPlay = firstPlay
    self.topMenu = topMenu
    self.titles = titles
  }
}
