import Synchronization

/// The UDF side of an image (UDF 1.02 to 2.60, including the UDF 2.50 metadata partition that
/// Blu-ray discs use).
///
/// Opening reads the anchor, the volume descriptor sequence (falling back to the reserve
/// sequence), the partition maps (Type 1, Metadata with mirror fallback, Sparable through its
/// sparing table), the File Set Descriptor and the root ICB. Directories are read on first
/// use and cached; the cache is lock-protected, so one value can be used from many tasks.
/// Files are exposed as ``ConcatenatedByteSource``s of their extents over the image source
/// (unrecorded extents read as zeros).
///
/// Every descriptor's tag checksum, tag location and CRC are verified; see `the FileSystems article (Sources/DiscKit/DiscKit.docc/FileSystems.md)` for
/// what happens when one does not match.
@_spi(Formats)
public struct UDFFileSystem: DiscFileSystem {
  /// Always ``FileSystemKind/udf``.
  public var kind: FileSystemKind { .udf }
  /// The UDF revision from the logical volume's domain identifier, e.g. `"2.50"`.
  public let revision: String?
  /// The logical volume identifier.
  public let volumeLabel: String
  /// The primary volume descriptor's volume identifier (what libudfread reports as volume id).
  public let volumeIdentifier: String

  let volume: UDFVolume
  let cache: DirectoryCache<UInt64, Record>

  /// Whether `source` carries a UDF volume recognition sequence (BEA01 then NSR02/NSR03).
  public static func hasVolumeRecognitionSequence(_ source: any ByteSource) throws(DiscKitError)
    -> Bool
  {
    try UDFVolume.hasRecognitionSequence(source)
  }

  /// Reads the UDF volume of `source`.
  ///
  /// - Throws: a ``DiscKitError`` naming the structure and byte offset when the volume is
  ///   damaged, or ``DiscKitError/Code/unsupported`` for virtual (VAT) partitions and block
  ///   sizes other than 2048.
  public init(source: any ByteSource, limits: ParsingLimits = .default) throws(DiscKitError) {
    volume = try UDFVolume(source: source, limits: limits)
    volumeLabel = volume.logicalVolume.identifier
    volumeIdentifier = volume.primaryVolume?.volumeIdentifier ?? ""
    let rev = volume.logicalVolume.domain.udfRevision ?? volume.fileSetDomain?.udfRevision
    revision = rev.map(Self.revisionString)
    cache = DirectoryCache()
  }

  /// Deviations from the UDF specification read leniently so far, because their meaning is
  /// unambiguous and libudfread reads them the same way (e.g. short allocation descriptors of a
  /// file in the metadata partition that point outside it: read from the physical partition).
  /// Filled as files are opened; see ``checkDeviations()``.
  public var deviations: [String] { volume.deviations.all }

  /// Opens every file's entry (reading no file data) and returns ``deviations``: what
  /// `disckit info` reports as notes. Unreadable directories and files are skipped here; opening
  /// them reports their errors.
  public func checkDeviations() -> [String] {
    for entry in (try? recursiveContents()) ?? [] where !entry.isDirectory {
      _ = try? openFile(atPath: entry.path)
    }
    return deviations
  }

  /// `0x0250` → `"2.50"`.
  static func revisionString(_ value: UInt16) -> String {
    let minor = String(value & 0xFF, radix: 16)
    return String(value >> 8, radix: 16) + "." + (minor.count < 2 ? "0" + minor : minor)
  }

  /// The entries of the directory at `path`; throws ``DiscKitError/Code/invalidArgument`` if `path`
  /// is a file.
  public func contentsOfDirectory(atPath path: String) throws(DiscKitError) -> [DiscFileEntry] {
    let (resolved, record) = try resolve(path)
    guard record.isDirectory else {
      throw DiscKitError(.invalidArgument, resolved, at: nil, "not a directory")
    }
    return try directory(record.icb, from: record.fidOffset).map {
      DiscFileEntry(
        name: $0.name, path: DiscPath.child(resolved, $0.name), size: $0.size,
        isDirectory: $0.isDirectory)
    }
  }

  /// The file at `path` as a ``ConcatenatedByteSource`` of its extents; throws
  /// ``DiscKitError/Code/invalidArgument`` for a directory.
  public func openFile(atPath path: String) throws(DiscKitError) -> any ByteSource {
    let (resolved, record) = try resolve(path)
    guard !record.isDirectory else {
      throw DiscKitError(.invalidArgument, resolved, at: nil, "is a directory")
    }
    return try volume.layout(
      of: record.icb, entry: record.entry, from: record.fidOffset.map { $0 + 20 }
    ).source
  }

  /// The extents of the file at `path` as (offset in the image or `nil` for zeros, length).
  public func extents(ofFileAtPath path: String) throws(DiscKitError) -> [(
    offset: Int64?, length: Int64
  )] {
    let (_, record) = try resolve(path)
    let layout = try volume.layout(
      of: record.icb, entry: record.entry, from: record.fidOffset.map { $0 + 20 })
    return layout.source.extents.map { extent in
      (type(of: extent.source) == ZeroByteSource.self ? nil : extent.offset, extent.length)
    }
  }

  // MARK: Directories

  /// One entry of a directory as cached.
  struct Record: Sendable {
    var name: String
    var isDirectory: Bool
    var icb: UDFLongAD
    var size: Int64
    /// Absolute offset of the File Identifier Descriptor (for errors).
    var fidOffset: Int64?
    /// A file's entry, read for its size when its directory was listed (opening the file
    /// reuses it instead of reading and checking its descriptor again); nil for a directory.
    var entry: UDFFileEntry? = nil
  }

  static func key(_ icb: UDFLongAD) -> UInt64 { UInt64(icb.partition) << 32 | UInt64(icb.block) }

  /// Resolves a path to its record, matching each name exactly, then case-insensitively.
  func resolve(_ path: String) throws(DiscKitError) -> (String, Record) {
    var current = Record(name: "", isDirectory: true, icb: volume.rootICB, size: 0, fidOffset: nil)
    var resolved = "/"
    // The directories walked through (a few: an array, not a set allocated for every path).
    var chain: [UInt64] = [Self.key(volume.rootICB)]
    for component in DiscPath.components(path) {
      guard current.isDirectory else {
        throw DiscKitError(
          .notFound, DiscPath.child(resolved, component), at: nil, "\(resolved) is not a directory")
      }
      let children = try directory(current.icb, from: current.fidOffset)
      guard
        let child = children.first(where: { $0.name == component })
          ?? Self.firstFolded(component, in: children)
      else {
        throw DiscKitError(
          .notFound, DiscPath.child(resolved, component), at: nil, "no such file or directory")
      }
      resolved = DiscPath.child(resolved, child.name)
      if child.isDirectory {
        let key = Self.key(child.icb)
        guard !chain.contains(key) else {
          throw DiscKitError(
            .loop, "UDF File Identifier Descriptor", at: child.fidOffset,
            "directory \(resolved) is its own ancestor (ICB block \(child.icb.block))")
        }
        chain.append(key)
      }
      current = child
    }
    return (resolved, current)
  }

  /// The first of `children` whose name is `component` compared case-insensitively.
  static func firstFolded(_ component: String, in children: [Record]) -> Record? {
    let folded = component.lowercased()
    return children.first { $0.name.lowercased() == folded }
  }

  /// The entries of the directory whose entry is at `icb` (cached).
  func directory(_ icb: UDFLongAD, from reference: Int64? = nil) throws(DiscKitError) -> [Record] {
    let key = Self.key(icb)
    if let cached = cache.get(key) { return cached }
    let records = try readDirectory(icb, from: reference.map { $0 + 20 })
    cache.put(key, records)
    return records
  }

  func readDirectory(_ icb: UDFLongAD, from reference: Int64?) throws(DiscKitError) -> [Record] {
    let limits = volume.limits
    let entry = try volume.fileEntry(at: icb, from: reference)
    guard entry.informationLength <= UInt64(limits.maxDirectoryBytes) else {
      throw DiscKitError.limit(
        "UDF directory", at: entry.offset + 56,
        "directory of \(entry.informationLength) bytes is larger than the limit of \(limits.maxDirectoryBytes)"
      )
    }
    let layout = try volume.layout(of: icb, entry: entry)
    let bytes = try layout.source.bytes(
      at: 0, count: Int(layout.source.size), structure: "UDF directory")
    var records: [Record] = []
    var position = 0
    while position < bytes.count {
      let structure = "UDF File Identifier Descriptor"
      let (absolute, block) = locate(position, in: layout)
      let rest = bytes.count - position
      if rest < 38 {
        if bytes[position...].allSatisfy({ $0 == 0 }) { break }
        throw DiscKitError.truncated(structure, at: absolute ?? entry.offset, needed: 38)
      }
      // The descriptor's padded length, from L_FI (byte 19) and L_IU (bytes 36-37); rest >= 38.
      let implementationUse = Int(bytes[position + 36]) | (Int(bytes[position + 37]) << 8)
      let declared = (38 + implementationUse + Int(bytes[position + 19]) + 3) & ~3
      var head = BinaryReader(
        Array(bytes[position..<position + min(rest, declared)]),
        baseOffset: absolute ?? entry.offset,
        structure: structure)
      let fid = try UDFFileIdentifier(parsing: &head)
      let descriptor = try head.slice(atRelative: 0, count: fid.size)
      _ = try UDFDescriptorTag.verified(
        descriptor, expected: [UDFTagIdentifier.fileIdentifier], location: block)
      position += fid.size
      if fid.isParent || fid.isDeleted { continue }
      guard let name = UDFCharacters.decode(fid.identifier), !name.isEmpty else { continue }
      var size: Int64 = 0
      var fileEntry: UDFFileEntry?
      if !fid.isDirectory {
        let read = try volume.fileEntry(at: fid.icb, from: absolute.map { $0 + 20 })
        size = Int64(clamping: read.informationLength)
        fileEntry = read
      }
      records.append(
        Record(
          name: name, isDirectory: fid.isDirectory, icb: fid.icb, size: size, fidOffset: absolute,
          entry: fileEntry))
      guard records.count <= limits.maxDirectoryEntries else {
        throw DiscKitError.limit(
          structure, at: absolute,
          "more than \(limits.maxDirectoryEntries) entries in one directory")
      }
    }
    return records
  }

  /// The absolute image offset and partition block of byte `position` of a directory.
  func locate(_ position: Int, in layout: UDFVolume.Layout) -> (Int64?, UInt32) {
    if layout.entry.form == .embedded {
      return (layout.entry.offset, layout.icb.block)
    }
    let offset = Int64(position)
    var block = layout.icb.block
    if let found = layout.extents.last(where: { $0.start <= offset }) {
      block =
        found.extent.block
        &+ UInt32(truncatingIfNeeded: (offset - found.start) / UDFVolume.blockSize)
    }
    var absolute: Int64?
    let source = layout.source
    if offset < source.size {
      let index = source.extentIndex(containing: offset)
      let piece = source.extents[index]
      // An exact type test, not `is`: a failing dynamic cast runs the runtime's bridging
      // fallbacks, whose first use scans every type descriptor of the program (~0.1 ms).
      if type(of: piece.source) != ZeroByteSource.self {
        absolute = piece.offset + (offset - source.starts[index])
      }
    }
    return (absolute, block)
  }
}
