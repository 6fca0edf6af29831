/// A BD-J object (`BDMV/BDJO/xxxxx.bdjo`): what a BD-J title starts. An index title whose object
/// is ``BDMVIndex/Object/bdj(name:playbackType:)`` names one of these.
///
/// Holds the terminal information, the application cache (which JARs to load), the **table of
/// accessible playlists** (the playlists the title's applications may play, and whether the first
/// one starts by itself), the application management table (the Xlets, which of them start
/// automatically, their base directory in the JAR and their initial class), the key interest
/// table and the file access information. Field for field what libbluray's `bd_read_bdjo` reads.
@_spi(Formats)
public struct BDJObject: Sendable, Hashable {
  /// Terminal information: the default font and the initial graphics configuration.
  public struct TerminalInfo: Sendable, Hashable {
    /// The default font file (`AUXDATA/xxxxx.otf`), `*****` for none.
    public var defaultFont: String
    /// `initial_HAVi_configuration_id` (4 bits).
    public var initialHaviConfiguration: UInt8
    /// Whether the menu call user operation is masked.
    public var menuCallMask: Bool
    /// Whether title search is masked.
    public var titleSearchMask: Bool

    /// Creates terminal information.
    package init(
      defaultFont: String = "*****", initialHaviConfiguration: UInt8 = 0,
      menuCallMask: Bool = false, titleSearchMask: Bool = false
    ) {
      self.defaultFont = defaultFont
      self.initialHaviConfiguration = initialHaviConfiguration
      self.menuCallMask = menuCallMask
      self.titleSearchMask = titleSearchMask
    }
  }

  /// An application cache entry: a JAR file or directory to load.
  public struct CacheEntry: Sendable, Hashable {
    /// 1: a JAR file (`BDMV/JAR/<name>.jar`), 2: a directory (`BDMV/JAR/<name>/`).
    public var type: UInt8
    /// The five-character name.
    public var name: String
    /// The language code it is loaded for (`*.*` always, `%%%` as a fallback).
    public var language: String

    /// Creates a cache entry.
    package init(type: UInt8 = 1, name: String, language: String = "*.*") {
      self.type = type
      self.name = name
      self.language = language
    }
  }

  /// The table of accessible playlists.
  public struct AccessiblePlaylists: Sendable, Hashable {
    /// Whether the title may play every playlist on the disc.
    public var accessToAll: Bool
    /// Whether the first listed playlist starts playing when the title starts.
    public var autostartFirstPlaylist: Bool
    /// The playlist names (five digits, `00800`), in table order.
    public var playlists: [String]

    /// Creates a table of accessible playlists.
    package init(accessToAll: Bool, autostartFirstPlaylist: Bool, playlists: [String]) {
      self.accessToAll = accessToAll
      self.autostartFirstPlaylist = autostartFirstPlaylist
      self.playlists = playlists
    }
  }

  /// The version (`0100`, `0200`, `0240`, `0300`).
  public var version: String
  /// The terminal information.
  public var terminalInfo: TerminalInfo
  /// The application cache.
  public var cache: [CacheEntry]
  /// The table of accessible playlists.
  public var accessiblePlaylists: AccessiblePlaylists
  /// The application management table.
  public var applications: [BDJApplication]
  /// The key interest table (32 bits; bit 31 is the play key).
  public var keyInterestTable: UInt32
  /// The file access information (`;`-separated paths).
  public var fileAccessInfo: String

  /// Parses a whole BDJO file.
  ///
  /// - Throws: ``DiscKitError/Code/malformed`` for a wrong type indicator, version or section
  ///   address; ``DiscKitError/Code/truncated`` when a section runs past the end of the file.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    guard try reader.readASCII(4) == "BDJO" else {
      throw reader.malformed("type indicator is not BDJO", atRelative: 0)
    }
    version = try reader.readASCII(4)
    guard ["0100", "0200", "0240", "0300"].contains(version) else {
      throw reader.malformed("unknown version \(version)", atRelative: 4)
    }
    var starts: [Int] = []
    for _ in 0..<6 { starts.append(Int(try reader.readUInt32BE())) }
    for (i, start) in starts.enumerated() where start < 48 || start > reader.count {
      throw reader.malformed(
        "section \(i) start address \(start) lies outside the \(reader.count)-byte file",
        atRelative: 8 + 4 * i)
    }

    func section(_ i: Int, _ name: String) throws(DiscKitError) -> BinaryReader {
      var r = reader
      r.structure = reader.structure + " " + name
      try r.seek(toRelative: starts[i])
      return r
    }
    func lengthPrefixed(_ i: Int, _ name: String) throws(DiscKitError) -> BinaryReader {
      var r = try section(i, name)
      let length = Int(try r.readUInt32BE())
      return try r.slice(length)
    }

    var t = try lengthPrefixed(0, "TerminalInfo")
    let font = try t.readBytes(5)
    let bits = try t.readUInt8()
    terminalInfo = TerminalInfo(
      defaultFont: Self.text(font), initialHaviConfiguration: bits >> 4,
      menuCallMask: bits & 0x08 != 0, titleSearchMask: bits & 0x04 != 0)

    var c = try lengthPrefixed(1, "AppCacheInfo")
    let cacheCount = Int(try c.readUInt8())
    try c.skip(1)
    guard cacheCount * 12 <= c.remaining else {
      throw c.malformed("\(cacheCount) cache entries need \(cacheCount * 12) bytes")
    }
    cache = []
    for _ in 0..<cacheCount {
      let type = try c.readUInt8()
      let name = Self.text(try c.readBytes(5))
      let language = Self.text(try c.readBytes(3))
      try c.skip(3)
      cache.append(CacheEntry(type: type, name: name, language: language))
    }

    var p = try lengthPrefixed(2, "TableOfAccessiblePlayLists")
    let head = try p.readUInt32BE()
    let playlistCount = Int(head >> 21)
    guard playlistCount * 6 <= p.remaining else {
      throw p.malformed("\(playlistCount) playlists need \(playlistCount * 6) bytes")
    }
    var names: [String] = []
    for _ in 0..<playlistCount {
      names.append(Self.text(try p.readBytes(5)))
      try p.skip(1)
    }
    accessiblePlaylists = AccessiblePlaylists(
      accessToAll: head & 1 << 20 != 0, autostartFirstPlaylist: head & 1 << 19 != 0,
      playlists: names)

    var a = try lengthPrefixed(3, "ApplicationManagementTable")
    let appCount = Int(try a.readUInt8())
    try a.skip(1)
    applications = []
    for _ in 0..<appCount { applications.append(try BDJApplication(parsing: &a)) }

    var k = try section(4, "KeyInterestTable")
    keyInterestTable = try k.readUInt32BE()

    var f = try section(5, "FileAccessInfo")
    let pathLength = Int(try f.readUInt16BE())
    fileAccessInfo = Self.text(try f.readBytes(pathLength))
  }

  /// Parses a BDJO file from its bytes.
  public init(bytes: [UInt8], name: String = "BDJO") throws(DiscKitError) {
    var reader = BinaryReader(bytes, structure: name)
    try self.init(parsing: &reader)
  }

  /// Text up to the first NUL, as UTF-8 (invalid sequences become U+FFFD).
  static func text<C: Collection<UInt8>>(_ bytes: C) -> String {
    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
  }
}

extension BDJObject {
  /// Creates a BD-J object (for authoring, tests and the reference bridge).
  package init(
    version: String = "0200", terminalInfo: TerminalInfo, cache: [CacheEntry],
    accessiblePlaylists: AccessiblePlaylists, applications: [BDJApplication],
    keyInterestTable: UInt32 = 0, fileAccessInfo: String = "."
  ) {
    self.version = version
    self.terminalInfo = terminalInfo
    self.cache = cache
    self.accessiblePlaylists = accessiblePlaylists
    self.applications = applications
    self.keyInterestTable = keyInterestTable
    self.fileAccessInfo = fileAccessInfo
  }

  /// The applications that start when the title starts (control code 1, autostart).
  public var autostartApplications: [BDJApplication] {
    applications.filter { $0.controlCode == 1 }
  }
}
