/// A DVD-Video disc read from a ``DiscFileSystem`` (an image's UDF/ISO9660 side or a folder).
///
/// Opening reads VIDEO_TS.IFO and every title set's VTS_nn_0.IFO, each with a fallback to its
/// .BUP copy when the IFO is missing or does not parse. A title set that cannot be read does not
/// fail the disc: its titles carry the error (see ``titles``).
///
/// Most users open it through ``Disc``, which lists its titles and picks the main one the same
/// way on both kinds:
///
/// ```swift
/// let disc = try Disc.open(path: "movie.iso")
/// let main = try disc.mainTitle()          // TitleSelection.lsdvd for lsdvd's choice
/// let stream = try main.byteSource()
/// ```
@_spi(Formats)
public struct DVDDisc: Sendable {
  /// An IFO that was read, with whether its .BUP copy had to be used.
  public struct Loaded<Info: Sendable>: Sendable {
    /// The parsed information, or why neither the IFO nor the BUP could be read.
    public var info: Result<Info, DiscKitError>
    /// Whether the .BUP copy was used.
    public var fromBackup: Bool
  }

  /// The file system holding VIDEO_TS.
  public let fileSystem: any DiscFileSystem
  /// The video manager (VIDEO_TS.IFO).
  public let videoManager: DVDVideoManagerInfo
  /// Whether VIDEO_TS.BUP was used.
  public let videoManagerFromBackup: Bool
  /// The title sets, keyed by VTS number (1 through the VTS_ATRT count, plus any number a title refers to).
  public let titleSets: [Int: Loaded<DVDTitleSetInfo>]
  /// Every title of the title search table, or why it cannot be used.
  public let titles: [Result<DVDTitle, DiscKitError>]
  /// The VM program and the menu buttons read, shared by the navigation's runs on this disc.
  package let navigationShared = DVDNavigationShared()

  /// Reads the disc in `fileSystem`.
  ///
  /// - Throws: the error of VIDEO_TS.IFO (or of the .BUP when the IFO is missing) when neither
  ///   copy of the video manager can be read.
  public init(fileSystem: any DiscFileSystem, limits: ParsingLimits = .default) throws(DiscKitError)
  {
    self.fileSystem = fileSystem
    let vmg = DVDDisc.load(fileSystem, "VIDEO_TS", limits: limits) {
      (bytes, name) throws(DiscKitError) in
      try DVDVideoManagerInfo(bytes: bytes, fileName: name)
    }
    videoManager = try vmg.info.get()
    videoManagerFromBackup = vmg.fromBackup
    var numbers = Set(1...max(1, min(99, videoManager.titleSetAttributes.titleSets.count)))
    for entry in videoManager.titles.titles where (1...99).contains(entry.titleSet) {
      numbers.insert(entry.titleSet)
    }
    if videoManager.titleSetAttributes.titleSets.isEmpty { numbers.remove(1) }
    var sets: [Int: Loaded<DVDTitleSetInfo>] = [:]
    for n in numbers.sorted() {
      let base = "VTS_" + (n < 10 ? "0" : "") + String(n) + "_0"
      sets[n] = DVDDisc.load(fileSystem, base, limits: limits) {
        (bytes, name) throws(DiscKitError) in
        try DVDTitleSetInfo(bytes: bytes, fileName: name)
      }
    }
    titleSets = sets
    var built: [Result<DVDTitle, DiscKitError>] = []
    let manager = videoManager
    for (index, entry) in manager.titles.titles.enumerated() {
      built.append(
        Result { () throws(DiscKitError) -> DVDTitle in
          guard let loaded = sets[entry.titleSet] else {
            throw DiscKitError(
              .malformed, manager.fileName + " TT_SRPT", at: entry.offset,
              "title \(index + 1) refers to title set \(entry.titleSet), which does not exist")
          }
          return try DVDTitle(number: index + 1, entry: entry, titleSet: try loaded.info.get())
        })
    }
    self.titles = built
  }

  /// Opens an image file or a folder holding VIDEO_TS.
  public static func open(path: String, limits: ParsingLimits = .default) throws(DiscKitError)
    -> DVDDisc
  {
    try DVDDisc(
      fileSystem: try DiscImage.open(path: path, limits: limits).fileSystem, limits: limits)
  }

  /// Reads `/VIDEO_TS/<base>.IFO`, falling back to `<base>.BUP`.
  static func load<Info: Sendable>(
    _ fs: any DiscFileSystem, _ base: String, limits: ParsingLimits,
    parse: ([UInt8], String) throws(DiscKitError) -> Info
  ) -> Loaded<Info> {
    var firstError: DiscKitError?
    for (ext, backup) in [("IFO", false), ("BUP", true)] {
      let name = base + "." + ext
      do {
        let bytes = try fs.readFile(atPath: "/VIDEO_TS/" + name, limit: limits.maxMetadataFileBytes)
        return Loaded(info: .success(try parse(bytes, name)), fromBackup: backup)
      } catch {
        // A missing IFO yields to the BUP's error; a broken IFO's error is the one reported.
        if firstError == nil || firstError?.code == .notFound { firstError = error }
      }
    }
    return Loaded(
      info: .failure(
        firstError ?? DiscKitError(.notFound, base, at: nil, "neither .IFO nor .BUP found")),
      fromBackup: true)
  }

  /// The title set `number`.
  public func titleSet(_ number: Int) throws(DiscKitError) -> DVDTitleSetInfo {
    guard let loaded = titleSets[number] else {
      throw DiscKitError(.notFound, "VTS \(number)", at: nil, "the disc has no title set \(number)")
    }
    return try loaded.info.get()
  }

  /// Title `number` (1-based).
  public func title(_ number: Int) throws(DiscKitError) -> DVDTitle {
    guard number >= 1, number <= titles.count else {
      throw DiscKitError(
        .notFound, "title \(number)", at: nil, "the disc has \(titles.count) titles")
    }
    return try titles[number - 1].get()
  }

  /// The title VOBs of title set `number` (VTS_nn_1.VOB … VTS_nn_9.VOB, up to the first missing
  /// part) as one source, each part cut to whole 2048-byte sectors like libdvdread.
  public func titleVOBs(titleSet number: Int) throws(DiscKitError) -> ConcatenatedByteSource {
    var extents: [ConcatenatedByteSource.Extent] = []
    let prefix = "/VIDEO_TS/VTS_" + (number < 10 ? "0" : "") + String(number) + "_"
    for part in 1...9 {
      let file: any ByteSource
      do {
        file = try fileSystem.openFile(atPath: prefix + String(part) + ".VOB")
      } catch  where error.code == .notFound {
        break
      }
      extents.append(.init(source: file, offset: 0, length: file.size / 2048 * 2048))
    }
    return try ConcatenatedByteSource(extents, structure: "VTS_\(number) title VOBs")
  }

  /// Title `number`'s MPEG program stream for `angle`, optionally limited to `chapters`.
  ///
  /// - Throws: the title's error, ``DiscKitError/Code/invalidArgument`` for a missing angle or
  ///   chapter, ``DiscKitError/Code/malformed`` when a cell lies past the end of the title VOBs
  ///   (naming the cell's entry in the IFO), and for cells of an interleaved angle block the
  ///   navigation pack errors of ``DVDInterleavedCellWalk``.
  public func byteSource(title number: Int, angle: Int = 1, chapters: ClosedRange<Int>? = nil)
    throws(DiscKitError) -> DVDTitleByteSource
  {
    try byteSource(title: try title(number), angle: angle, chapters: chapters)
  }

  /// ``byteSource(title:angle:chapters:)-(Int,_,_)`` of a title value: one of the disc's
  /// titles, or a chapter range of one cut as a title of its own (`DVDTitle.cut(chapters:)`,
  /// an episode).
  public func byteSource(title: DVDTitle, angle: Int = 1, chapters: ClosedRange<Int>? = nil)
    throws(DiscKitError) -> DVDTitleByteSource
  {
    let cells = try title.cells(angle: angle, chapters: chapters)
    let vts = try titleSet(title.titleSet)
    let number = title.titleSet
    return try DVDTitleByteSource(
      cells: cells, vobs: try titleVOBs(titleSet: number), ifoName: vts.fileName,
      vobsName: "VTS_" + (number < 10 ? "0" : "") + String(number) + " title VOBs")
  }
}
