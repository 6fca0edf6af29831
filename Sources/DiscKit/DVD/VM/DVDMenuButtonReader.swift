/// Reads the buttons of menu cells from the menu VOBs (VIDEO_TS.VOB, VTS_nn_0.VOB), and of title
/// cells from the title VOBs (VTS_nn_1.VOB onwards, one sector space): the highlight information
/// of the navigation pack at the start of the cell's first VOBU (or of its last VOBU when the
/// first has none). Reads are cached; a read error is a warning.
struct DVDMenuButtonReader {
  let fileSystem: any DiscFileSystem
  /// Opens title set N's title VOBs as one source (nil: absent).
  let openTitleVOBs: (Int) -> (any ByteSource)?
  var files: [Int: (any ByteSource)?] = [:]
  var titleFiles: [Int: (any ByteSource)?] = [:]
  var cache: [Int64: [DVDHighlightInformation.ButtonGroup]] = [:]
  var warnings: [String] = []
  var reads = 0
  /// Navigation packs read at most (the menus of a disc need a few hundred).
  let maxReads = 4096
  /// The packs read on this disc by any reader (each read once per opened disc).
  let shared: DVDNavigationShared

  /// A reader of `disc`'s menu and title VOBs.
  init(disc: DVDDisc) {
    self.fileSystem = disc.fileSystem
    self.openTitleVOBs = { try? disc.titleVOBs(titleSet: $0) }
    shared = disc.navigationShared
  }

  /// The buttons of `cell`'s first button group (libdvdnav's), in the VMGM (`titleSet` 0) or
  /// title set `titleSet`'s menus, or with `title`, in its titles.
  mutating func buttons(titleSet: Int, title: Bool = false, cell: DVDCellPlayback) -> [DVDButton] {
    groups(titleSet: titleSet, title: title, cell: cell).first?.buttons ?? []
  }

  /// The button groups of `cell` (empty when it has no buttons): a cell of the VMGM (`titleSet`
  /// 0) or title set `titleSet`'s menus, or with `title`, of title set `titleSet`'s titles.
  mutating func groups(titleSet: Int, title: Bool = false, cell: DVDCellPlayback)
    -> [DVDHighlightInformation.ButtonGroup]
  {
    let first = lookup(titleSet: titleSet, title: title, sector: cell.firstSector)
    if !first.isEmpty || cell.lastVOBUStartSector == cell.firstSector { return first }
    return lookup(titleSet: titleSet, title: title, sector: cell.lastVOBUStartSector)
  }

  mutating func lookup(titleSet: Int, title: Bool = false, sector: UInt32)
    -> [DVDHighlightInformation.ButtonGroup]
  {
    let key = (title ? 1 << 50 : 0) | Int64(titleSet) << 40 | Int64(sector)
    if let known = cache[key] { return known }
    if let read = shared.buttons(key) {
      if let warning = read.warning { warnings.append(warning) }
      cache[key] = read.groups
      return read.groups
    }
    var result: [DVDHighlightInformation.ButtonGroup] = []
    if reads < maxReads, let source = title ? titleVOBs(titleSet) : file(titleSet) {
      reads += 1
      let number = "\(titleSet < 10 ? "0" : "")\(titleSet)"
      let name =
        title ? "VTS_\(number) title VOBs" : titleSet == 0 ? "VIDEO_TS.VOB" : "VTS_\(number)_0.VOB"
      var warning: String?
      do {
        let offset = Int64(sector) * 2048
        let bytes = try source.bytes(at: offset, count: 2048, structure: name)
        let pack = try DVDNavigationPack(sector: bytes, at: offset)
        result = pack.highlight?.groups ?? []
      } catch {
        warning = "\(name) sector \(sector): \(error.detail)"
        warnings.append("\(name) sector \(sector): \(error.detail)")
      }
      shared.store(key, .init(groups: result, warning: warning))
    }
    cache[key] = result
    return result
  }

  mutating func titleVOBs(_ titleSet: Int) -> (any ByteSource)? {
    if let known = titleFiles[titleSet] { return known }
    let opened = openTitleVOBs(titleSet)
    titleFiles[titleSet] = opened
    return opened
  }

  mutating func file(_ titleSet: Int) -> (any ByteSource)? {
    if let known = files[titleSet] { return known }
    let name = titleSet == 0 ? "VIDEO_TS.VOB" : "VTS_\(titleSet < 10 ? "0" : "")\(titleSet)_0.VOB"
    let opened = try? fileSystem.openFile(atPath: "/VIDEO_TS/" + name)
    files[titleSet] = opened
    return opened
  }
}
