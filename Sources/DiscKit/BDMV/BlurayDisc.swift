/// A Blu-ray disc's navigation data, read from a ``DiscFileSystem`` (an image or a BDMV folder).
///
/// Opening reads `index.bdmv`, `MovieObject.bdmv`, every playlist and every clip information file
/// the playlists refer to; a file that is missing or fails to parse is read from `BDMV/BACKUP/`
/// instead (as libbluray does). The value is immutable and `Sendable`: build titles and their byte
/// sources from any task.
@_spi(Formats)
public struct BlurayDisc: Sendable {
  /// A playlist file and what became of it.
  public struct PlaylistFile: Sendable {
    /// The file name as listed, e.g. `00800.mpls`.
    public var name: String
    /// The playlist number (`atoi` of the name, as libbluray computes it).
    public var number: Int
    /// The parsed playlist, or `nil` when neither the file nor its backup parse.
    public var playlist: MoviePlaylist?
    /// Whether the playlist came from `BDMV/BACKUP/PLAYLIST`.
    public var fromBackup: Bool
    /// Why the playlist could not be read.
    public var error: DiscKitError?
  }

  /// The file system.
  public let fileSystem: any DiscFileSystem
  /// `index.bdmv` (`nil` if missing or broken in both copies).
  public let index: BDMVIndex?
  /// `MovieObject.bdmv` (`nil` if missing or broken in both copies).
  public let movieObjects: MovieObjectFile?
  /// Every entry of `BDMV/PLAYLIST` (not starting with `.`), in the file system's order.
  public let playlists: [PlaylistFile]
  /// Clip information by clip id; a failed clip maps to its error.
  public let clips: [String: Result<ClipInformation, DiscKitError>]
  /// Problems found while opening (broken files that were replaced by their backups, ...).
  public let warnings: [DiscWarning]
  /// The limits the disc's files were parsed with (and the BD-J analysis inflates with).
  public let limits: ParsingLimits
  /// The clips' menus read so far (each clip's at most once).
  package let menus = IGMenuCache()
  /// The navigation and menu-button runs, once computed (each at most once per opened disc).
  package let navigationCache = HDMVNavigationCache()

  /// Opens the navigation data of `fileSystem`.
  ///
  /// - Parameter playlistOrder: list the playlists in this order instead of the file system's
  ///   (names not present are ignored). Used to reproduce libbluray's title numbering on a
  ///   folder, where libbluray uses `readdir()` order.
  /// - Throws: ``DiscKitError/Code/notFound`` when there is neither `BDMV/PLAYLIST` nor
  ///   `BDMV/BACKUP/PLAYLIST`.
  public init(
    fileSystem: any DiscFileSystem, playlistOrder: [String]? = nil, limits: ParsingLimits = .default
  )
    throws(DiscKitError)
  {
    self.fileSystem = fileSystem
    self.limits = limits
    var warnings: [DiscWarning] = []

    func load<T>(_ name: String, _ parse: ([UInt8], String) throws(DiscKitError) -> T) -> (
      T?, Bool, DiscKitError?
    ) {
      var firstError: DiscKitError?
      for (path, backup) in [("/BDMV/" + name, false), ("/BDMV/BACKUP/" + name, true)] {
        do {
          let bytes = try fileSystem.readFile(atPath: path, limit: limits.maxMetadataFileBytes)
          let value = try parse(bytes, path)
          if backup, let firstError { warnings.append(.usedBackup(firstError)) }
          return (value, backup, nil)
        } catch {
          if firstError == nil { firstError = error }
        }
      }
      return (nil, false, firstError)
    }

    index = load("index.bdmv") { (b, n) throws(DiscKitError) in try BDMVIndex(bytes: b, name: n) }.0
    movieObjects =
      load("MovieObject.bdmv") { (b, n) throws(DiscKitError) in
        try MovieObjectFile(bytes: b, name: n)
      }.0

    var names: [String]
    if let entries = try? fileSystem.contentsOfDirectory(atPath: "/BDMV/PLAYLIST") {
      names = entries.filter { !$0.isDirectory }.map(\.name)
    } else {
      names = try fileSystem.contentsOfDirectory(atPath: "/BDMV/BACKUP/PLAYLIST").filter {
        !$0.isDirectory
      }.map(\.name)
      warnings.append(.playlistFolderMissing)
    }
    names = names.filter { !$0.hasPrefix(".") }
    guard names.count <= limits.maxDirectoryEntries else {
      throw DiscKitError.limit(
        "/BDMV/PLAYLIST", at: nil, "more than \(limits.maxDirectoryEntries) playlists")
    }
    if let playlistOrder {
      let present = Set(names)
      names =
        playlistOrder.filter { present.contains($0) } + names.filter { !playlistOrder.contains($0) }
    }
    var files: [PlaylistFile] = []
    var clipIDs: [String] = []
    var seenClips = Set<String>()
    for name in names {
      let (playlist, backup, error) = load("PLAYLIST/" + name) { (b, n) throws(DiscKitError) in
        try MoviePlaylist(bytes: b, name: n)
      }
      files.append(
        PlaylistFile(
          name: name, number: Self.atoi(name), playlist: playlist, fromBackup: backup, error: error)
      )
      for item in playlist?.playItems ?? [] {
        for clip in item.clips where seenClips.insert(clip.clipID).inserted {
          clipIDs.append(clip.clipID)
        }
      }
    }
    playlists = files
    var clips: [String: Result<ClipInformation, DiscKitError>] = [:]
    for id in clipIDs {
      let (info, _, error) = load("CLIPINF/\(id).clpi") { (b, n) throws(DiscKitError) in
        try ClipInformation(bytes: b, name: n)
      }
      if let info {
        clips[id] = .success(info)
      } else {
        clips[id] = .failure(
          error ?? DiscKitError(.notFound, "/BDMV/CLIPINF/\(id).clpi", at: nil, "missing"))
      }
    }
    self.clips = clips
    self.warnings = warnings
  }

  /// Opens the Blu-ray navigation of an opened disc image or folder, under its
  /// ``DiscImage/limits``.
  public init(disc: DiscImage, playlistOrder: [String]? = nil) throws(DiscKitError) {
    try self.init(fileSystem: disc.fileSystem, playlistOrder: playlistOrder, limits: disc.limits)
  }

  /// The clip information of `clipID`, if it was read.
  public func clipInformation(_ clipID: String) -> ClipInformation? {
    if case .success(let info)? = clips[clipID] { return info }
    return nil
  }

  /// The playlist file named `name` (`00800.mpls`) or numbered `number`.
  public func playlistFile(named name: String) -> PlaylistFile? {
    playlists.first { $0.name == name }
      ?? playlists.first { $0.name.lowercased() == name.lowercased() }
  }

  /// The playlist file with number `number` (the first one in list order).
  public func playlistFile(number: Int) -> PlaylistFile? {
    playlists.first { $0.number == number && $0.playlist != nil }
  }

  /// A title: the playlist `name` read with angle `angle` (0-based; out of range → angle 0).
  public func title(playlist name: String, angle: Int = 0) throws(DiscKitError) -> BlurayTitle {
    guard let file = playlistFile(named: name) else {
      throw DiscKitError(.notFound, "/BDMV/PLAYLIST/\(name)", at: nil, "no such playlist")
    }
    guard let playlist = file.playlist else {
      throw file.error
        ?? DiscKitError(.malformed, "/BDMV/PLAYLIST/\(name)", at: nil, "cannot be parsed")
    }
    return try BlurayTitle(disc: self, name: file.name, playlist: playlist, angle: angle)
  }

  /// Playlist numbers played by each index title's movie object (following object jumps).
  public func navigationPlaylists() -> [(title: Int, reach: MovieObjectFile.Reach)] {
    guard let index, let movieObjects else { return [] }
    var result: [(Int, MovieObjectFile.Reach)] = []
    for (number, title) in index.titles.enumerated() {
      guard let object = title.object.movieObject else { continue }
      result.append((number + 1, movieObjects.playlists(reachableFrom: object)))
    }
    if let fp = index.firstPlay.movieObject {
      result.append((0, movieObjects.playlists(reachableFrom: fp)))
    }
    return result
  }

  /// C `atoi`: leading decimal digits (after optional spaces and sign), 0 if none.
  static func atoi(_ text: String) -> Int {
    var value = 0
    var digits = text.utf8.drop(while: { $0 == 0x20 })
    var negative = false
    if let first = digits.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
      negative = first == UInt8(ascii: "-")
      digits = digits.dropFirst()
    }
    for byte in digits {
      guard byte >= 0x30, byte <= 0x39, value < 1 << 40 else { break }
      value = value * 10 + Int(byte - 0x30)
    }
    return negative ? -value : value
  }
}
