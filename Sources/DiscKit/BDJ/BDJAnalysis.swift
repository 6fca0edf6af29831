/// The playlists a disc's BD-J programs and authoring files name, with the evidence for each.
///
/// Reads every BD-J object in `BDMV/BDJO`, every JAR file (`BDMV/JAR/xxxxx.jar`) and JAR
/// directory (`BDMV/JAR/xxxxx/`), the constant-pool strings of their class files, their `.xml`,
/// `.properties` and `.txt` resources, and the authoring project files (`bluray_project.bin`).
/// Nothing is executed. Only playlists present on the disc are reported. Problems (a truncated
/// JAR, a zip bomb, a bad class file) become ``warnings``; the analysis itself never fails.
@_spi(Formats)
public struct BDJAnalysis: Sendable {
  /// The BD-J objects that parsed, by name (`00000`).
  public var objects: [String: BDJObject]
  /// Every piece of evidence, strongest first (then by playlist number).
  public var evidence: [BDJEvidence]
  /// What could not be read.
  public var warnings: [DiscKitError]

  /// The playlists named, each with its evidence, strongest first.
  public var namedPlaylists: [(playlist: Int, evidence: [BDJEvidence])] {
    var order: [Int] = []
    var byPlaylist: [Int: [BDJEvidence]] = [:]
    for item in evidence {
      if byPlaylist[item.playlist] == nil { order.append(item.playlist) }
      byPlaylist[item.playlist, default: []].append(item)
    }
    return order.map { ($0, byPlaylist[$0] ?? []) }
  }

  /// Analyses an opened disc.
  public init(disc: BlurayDisc, limits: ParsingLimits = .default) {
    var durations: [Int: MediaTime] = [:]
    for file in disc.playlists {
      guard let playlist = file.playlist, durations[file.number] == nil else { continue }
      durations[file.number] = MediaTime(ticks45k: playlist.duration45k)
    }
    self.init(
      fileSystem: disc.fileSystem, index: disc.index, playlistDurations: durations, limits: limits)
  }

  /// Analyses the BD-J data of `fileSystem`, given the disc's playlists and their durations.
  public init(
    fileSystem: any DiscFileSystem, index: BDMVIndex?, playlistDurations: [Int: MediaTime],
    limits: ParsingLimits = .default
  ) {
    var scan = Scan(fileSystem: fileSystem, durations: playlistDurations, limits: limits)
    scan.readObjects(index: index)
    scan.readJARs()
    objects = scan.objects
    var perSource: [String: Set<Int>] = [:]
    for item in scan.evidence { perSource[item.sourceKey, default: []].insert(item.playlist) }
    for i in scan.evidence.indices {
      scan.evidence[i].playlistsNamedBySameSource =
        perSource[scan.evidence[i].sourceKey]?.count ?? 1
    }
    evidence = scan.evidence.sorted {
      $0.trust != $1.trust ? $0.trust > $1.trust : $0.playlist < $1.playlist
    }
    warnings = scan.warnings
  }
}

extension BlurayDisc {
  /// The playlists this disc's BD-J programs and authoring project files name (see
  /// ``BDJAnalysis``).
  public func namedEvidence(limits: ParsingLimits? = nil) -> BDJAnalysis {
    BDJAnalysis(disc: self, limits: limits ?? self.limits)
  }
}

extension BDJEvidence {
  /// The file (and member) the evidence comes from.
  fileprivate var sourceKey: String {
    switch source {
    case .accessiblePlaylists(let bdjo): "bdjo:" + bdjo
    case .jar(let path, let member, _, _): path + "!/" + member
    case .projectFile(let path, _): path
    }
  }
}

/// The state of one analysis.
private struct Scan {
  let fileSystem: any DiscFileSystem
  let durations: [Int: MediaTime]
  let limits: ParsingLimits
  var objects: [String: BDJObject] = [:]
  var titlesByObject: [String: [Int]] = [:]
  var evidence: [BDJEvidence] = []
  var warnings: [DiscKitError] = []
  var inflated = 0

  init(fileSystem: any DiscFileSystem, durations: [Int: MediaTime], limits: ParsingLimits) {
    self.fileSystem = fileSystem
    self.durations = durations
    self.limits = limits
  }

  mutating func readObjects(index: BDMVIndex?) {
    if let index {
      func note(_ object: BDMVIndex.Object, _ title: Int) {
        if case .bdj(let name, _) = object { titlesByObject[name, default: []].append(title) }
      }
      note(index.firstPlay, 65535)
      note(index.topMenu, 0)
      for (i, title) in index.titles.enumerated() { note(title.object, i + 1) }
    }
    let listing = (try? fileSystem.contentsOfDirectory(atPath: "/BDMV/BDJO")) ?? []
    for entry in listing.prefix(limits.maxDirectoryEntries)
    where !entry.isDirectory && entry.name.lowercased().hasSuffix(".bdjo") {
      let name = String(entry.name.dropLast(5))
      var result: Result<BDJObject, DiscKitError>?
      for path in ["/BDMV/BDJO/" + entry.name, "/BDMV/BACKUP/BDJO/" + entry.name] {
        do {
          let bytes = try fileSystem.readFile(atPath: path, limit: limits.maxMetadataFileBytes)
          result = .success(try BDJObject(bytes: bytes, name: path))
          break
        } catch {
          if result == nil { result = .failure(error) }
        }
      }
      switch result {
      case .success(let object): objects[name] = object
      case .failure(let error): warnings.append(error)
      case nil: break
      }
    }
    for (name, object) in objects.sorted(by: { $0.key < $1.key }) {
      let table = object.accessiblePlaylists
      guard table.autostartFirstPlaylist, let first = table.playlists.first,
        let number = Int(first), durations[number] != nil
      else { continue }
      evidence.append(
        BDJEvidence(
          playlist: number, source: .accessiblePlaylists(bdjo: name), trust: .listed,
          bdjo: [name], titles: titlesByObject[name] ?? [], autostart: false, accessible: true))
    }
  }

  /// The objects whose applications (autostart or not) or cache load the JAR `jar`.
  func loaders(of jar: String) -> (objects: [String], autostart: Bool) {
    var names: [String] = []
    var autostart = false
    for (name, object) in objects.sorted(by: { $0.key < $1.key }) {
      let apps = object.applications.filter { $0.jarName == jar }
      let cached = object.cache.contains { $0.name == jar }
      if !apps.isEmpty || cached { names.append(name) }
      if apps.contains(where: \.isAutostart) { autostart = true }
    }
    return (names, autostart)
  }

  mutating func readJARs() {
    guard let listing = try? fileSystem.contentsOfDirectory(atPath: "/BDMV/JAR") else { return }
    for entry in listing.prefix(limits.maxDirectoryEntries) {
      let path = "/BDMV/JAR/" + entry.name
      if entry.isDirectory {
        let files: [DiscFileEntry]
        do {
          files = try fileSystem.recursiveContents(atPath: path, limits: limits)
        } catch {
          warnings.append(error)
          continue
        }
        for file in files where !file.isDirectory {
          let member = String(file.path.dropFirst(path.count + 1))
          let fs = fileSystem
          readMember(jar: entry.name, path: path, member: member) { (limit) throws(DiscKitError) in
            try fs.readFile(atPath: file.path, limit: limit)
          }
        }
      } else if entry.name.lowercased().hasSuffix(".jar") {
        let archive: JARArchive
        do {
          archive = try JARArchive(
            source: try fileSystem.openFile(atPath: path), name: path, limits: limits)
        } catch {
          warnings.append(error)
          continue
        }
        for member in archive.entries where !member.isDirectory {
          readMember(jar: String(entry.name.dropLast(4)), path: path, member: member.path) {
            (limit) throws(DiscKitError) in
            try archive.contents(of: member, limit: limit)
          }
        }
      }
    }
  }

  private mutating func readMember(
    jar: String, path: String, member: String, read: (_ limit: Int) throws(DiscKitError) -> [UInt8]
  ) {
    let lower = member.lowercased()
    let isClass = lower.hasSuffix(".class")
    let isText = [".xml", ".properties", ".txt", ".prop", ".csv"].contains { lower.hasSuffix($0) }
    let isProject = lower.hasSuffix("bluray_project.bin")
    guard isClass || isText || isProject else { return }
    guard inflated < limits.maxInflatedTotalBytes else {
      warnings.append(
        DiscKitError.limit(
          "\(path)!/\(member)", at: nil,
          "skipped: the disc's archives already inflated to \(limits.maxInflatedTotalBytes) bytes"))
      return
    }
    let bytes: [UInt8]
    do {
      bytes = try read(min(limits.maxInflatedEntryBytes, limits.maxInflatedTotalBytes - inflated))
    } catch {
      warnings.append(error)
      return
    }
    inflated += bytes.count
    let (loaders, autostart) = loaders(of: jar)
    let titles = Array(Set(loaders.flatMap { titlesByObject[$0] ?? [] })).sorted()
    func accessible(_ playlist: Int) -> Bool {
      loaders.contains { name in
        guard let table = objects[name]?.accessiblePlaylists else { return false }
        return table.accessToAll || table.playlists.contains { Int($0) == playlist }
      }
    }
    if isProject {
      for record in BlurayProjectFile(bytes: bytes).records where record.namesFeature {
        guard let duration = durations[record.playlist], record.matches(duration: duration) else {
          continue
        }
        evidence.append(
          BDJEvidence(
            playlist: record.playlist,
            source: .projectFile(path: member.isEmpty ? path : "\(path)/\(member)", record: record),
            trust: .projectRecord, bdjo: loaders, titles: titles, autostart: autostart,
            accessible: accessible(record.playlist)))
      }
      return
    }
    var mentions: [PlaylistMention] = []
    var className: String?
    if isClass {
      do {
        let file = try JavaClassFile(bytes: bytes, name: "\(path)!/\(member)")
        className = file.className
        for text in file.utf8 {
          for m in PlaylistMention.mentions(in: text) where !mentions.contains(m) {
            mentions.append(m)
          }
        }
      } catch {
        warnings.append(error)
        return
      }
    } else {
      mentions = PlaylistMention.mentions(inText: String(decoding: bytes, as: UTF8.self))
    }
    for mention in mentions where durations[mention.playlist] != nil {
      let trust: BDJEvidence.Trust
      switch mention.form {
      case .featureKey: trust = .featureKey
      case .fileName: trust = .listed
      case .locator: trust = autostart ? .autostartJAR : .otherJAR
      }
      evidence.append(
        BDJEvidence(
          playlist: mention.playlist,
          source: .jar(path: path, member: member, className: className, mention: mention),
          trust: trust, bdjo: loaders, titles: titles, autostart: autostart,
          accessible: accessible(mention.playlist)))
    }
  }
}

extension BDJAnalysis {
  /// The evidence as the main-title selector takes it: kind ``TitleEvidence/Kind/bdj`` or
  /// ``TitleEvidence/Kind/projectFile``, the playlist's five-digit key, and the detail in words
  /// (with the trust level first, e.g. `autostart JAR: locator "bd://0.PLAYLIST:00800" in ...`).
  ///
  /// - Parameter minimumTrust: leave out weaker evidence (by default only bare listings).
  public func titleEvidence(minimumTrust: BDJEvidence.Trust = .otherJAR) -> [TitleEvidence] {
    evidence.filter { $0.trust >= minimumTrust }.map { item in
      let digits = String(item.playlist)
      let key = String(repeating: "0", count: max(0, 5 - digits.count)) + digits
      let kind: TitleEvidence.Kind
      if case .projectFile = item.source { kind = .projectFile } else { kind = .bdj }
      return TitleEvidence(kind: kind, key: key, detail: "\(item.trust.label): \(item.detail)")
    }
  }
}

extension BDJEvidence.Trust {
  /// The trust level in words.
  public var label: String {
    switch self {
    case .listed: "listed"
    case .otherJAR: "JAR no autostart application loads"
    case .autostartJAR: "autostart JAR"
    case .featureKey: "feature key"
    case .projectRecord: "project record with matching duration"
    }
  }
}
