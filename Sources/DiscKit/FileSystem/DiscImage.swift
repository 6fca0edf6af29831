/// What kind of disc a file system holds.
public enum DiscKind: String, Sendable, Codable {
  /// A Blu-ray (BDMV with index.bdmv version 0100/0200).
  case bluray
  /// An Ultra HD Blu-ray (index.bdmv version 0300).
  case uhdBluray = "uhd-bluray"
  /// AVCHD (BDMV under PRIVATE/AVCHD).
  case avchd
  /// DVD-Video (VIDEO_TS/VIDEO_TS.IFO).
  case dvd
  /// Anything else.
  case data
}

/// An opened disc: an image file read through UDF or ISO9660, or a folder.
///
/// `DiscImage.open(path:)` picks the file system: a directory is read as a folder; an image with
/// a UDF volume is read through UDF (on Blu-ray images the ISO9660 bridge shows wrong 32-bit
/// sizes); otherwise ISO9660.
public struct DiscImage: Sendable {
  /// The path that was opened.
  public let path: String
  /// The image's bytes (`nil` for a folder).
  public let source: (any ByteSource)?
  /// The file system read from the image or folder.
  public let fileSystem: any DiscFileSystem
  /// What went wrong but did not stop the disc from opening (e.g. a damaged UDF volume read
  /// through the ISO9660 bridge instead).
  public let notes: [String]
  /// The limits the image was opened with; ``Disc/init(image:)`` parses the navigation files
  /// (MPLS, CLPI, index, MovieObject, IFO) under the same limits.
  public let limits: ParsingLimits

  /// Creates a disc over an already opened file system.
  public init(
    path: String, source: (any ByteSource)?, fileSystem: any DiscFileSystem, notes: [String] = [],
    limits: ParsingLimits = .default
  ) {
    self.path = path
    self.source = source
    self.fileSystem = fileSystem
    self.notes = notes
    self.limits = limits
  }

  /// Opens an image file or a folder. A path to a disc's own `BDMV` or `VIDEO_TS` folder (any
  /// case) opens the disc that holds it, as lsdvd, libdvdread and VLC accept it.
  ///
  /// - Throws: ``DiscKitError/Code/cannotOpen`` when the path cannot be read,
  ///   ``DiscKitError/Code/unsupported`` when the file holds neither UDF nor ISO9660, or the
  ///   reader's error when the file system is damaged.
  public static func open(path: String, limits: ParsingLimits = .default) throws(DiscKitError)
    -> DiscImage
  {
    if LocalFile.isDirectory(path) {
      return DiscImage(
        path: path, source: nil, fileSystem: try FolderFileSystem(root: discRoot(ofFolder: path)),
        limits: limits)
    }
    let file = try FileByteSource(path: path)
    return try open(source: file, path: path, limits: limits)
  }

  /// The folder read as the disc for the directory `path`: its parent when `path` names a `BDMV`
  /// or `VIDEO_TS` folder (any case) that holds no disc tree itself, else `path`.
  static func discRoot(ofFolder path: String) -> String {
    var trimmed = path
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
    let slash = trimmed.lastIndex(of: "/")
    let name = (slash.map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed).lowercased()
    let discFolders: Set<String> = ["bdmv", "video_ts"]
    guard discFolders.contains(name),
      !(LocalFile.listDirectory(trimmed) ?? []).contains(where: {
        discFolders.contains($0.lowercased())
      })
    else { return path }
    guard let slash else { return "." }
    return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
  }

  /// Opens an image held by any byte source.
  public static func open(
    source: any ByteSource, path: String = "image", limits: ParsingLimits = .default
  )
    throws(DiscKitError) -> DiscImage
  {
    if try UDFFileSystem.hasVolumeRecognitionSequence(source) {
      do throws(DiscKitError) {
        return DiscImage(
          path: path, source: source, fileSystem: try UDFFileSystem(source: source, limits: limits),
          limits: limits)
      } catch {
        // A damaged UDF volume on a bridge disc (DVDs, data discs): the ISO9660 side may still be
        // whole. Blu-ray images have no ISO9660 side worth reading (32-bit sizes), so there the
        // error stands unless ISO9660 opens.
        guard (try? ISO9660FileSystem.hasPrimaryVolumeDescriptor(source)) == true,
          let iso = try? ISO9660FileSystem(source: source, limits: limits)
        else { throw error }
        return DiscImage(
          path: path, source: source, fileSystem: iso,
          notes: ["the UDF volume is unreadable (\(error)); read through the ISO9660 bridge"],
          limits: limits)
      }
    }
    if try ISO9660FileSystem.hasPrimaryVolumeDescriptor(source) {
      return DiscImage(
        path: path, source: source,
        fileSystem: try ISO9660FileSystem(source: source, limits: limits), limits: limits)
    }
    throw DiscKitError(
      .unsupported, "image", at: 0x8000,
      "neither a UDF volume recognition sequence nor an ISO9660 primary volume descriptor was found"
    )
  }

  /// The kind of disc, from the layout of its file system.
  public var kind: DiscKind {
    let fs = fileSystem
    // One listing of the root decides which trees to look into (each probe of a missing path
    // costs a directory listing on a folder).
    let root = Set(((try? fs.contentsOfDirectory(atPath: "/")) ?? []).map { $0.name.lowercased() })
    let hasBDMV = root.contains("bdmv")
    if hasBDMV, let index = try? fs.openFile(atPath: "/BDMV/index.bdmv"),
      let header = try? index.bytes(at: 0, count: 8, structure: "index.bdmv")
    {
      return header[4...7] == [0x30, 0x33, 0x30, 0x30] ? .uhdBluray : .bluray
    }
    if root.contains("private")
      && (fs.exists("/PRIVATE/AVCHD/BDMV/INDEX.BDM") || fs.exists("/PRIVATE/AVCHD/BDMV/index.bdmv"))
      || hasBDMV && fs.exists("/BDMV/INDEX.BDM")
    {
      return .avchd
    }
    if root.contains("video_ts")
      && (fs.exists("/VIDEO_TS/VIDEO_TS.IFO") || fs.exists("/VIDEO_TS/VIDEO_TS.BUP"))
    {
      return .dvd
    }
    // A BDMV tree without index.bdmv (metadata copies, partial rips): libbluray still opens it.
    if hasBDMV, let playlists = try? fs.contentsOfDirectory(atPath: "/BDMV/PLAYLIST"),
      playlists.contains(where: { $0.name.lowercased().hasSuffix(".mpls") })
    {
      return .bluray
    }
    return .data
  }
}
