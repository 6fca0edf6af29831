import Synchronization

/// The ISO 9660 (ECMA-119) side of an image, with Rock Ridge or Joliet names when present.
///
/// ## Which names
/// With ``NamePreference/automatic`` (the default) the tree is chosen as Linux isofs and xorriso
/// choose it: the primary tree with Rock Ridge names when the root's `.` record carries a SUSP
/// `SP` entry; otherwise the Joliet tree (a supplementary descriptor with escape sequence `%/@`,
/// `%/C` or `%/E`); otherwise the primary tree with plain ISO 9660 names. Plain and Joliet names
/// lose their `;N` version suffix; plain names also lose a trailing `.` (`FILE.` → `FILE`), as
/// xorriso shows them. Plain names keep their recorded case.
///
/// ## What is listed
/// Hidden files are listed; associated files are skipped. With Rock Ridge, relocated directories
/// (`RE`) are hidden and child links (`CL`) are followed, so deep trees appear where they were
/// made; symbolic links and device files are listed as files of their recorded size. A file
/// recorded in several extents (flag 0x80 on all records but the last) is one file, the
/// concatenation of its extents; a chain that is not completed is an error.
///
/// The value holds no mutable state: every call reads the image afresh, so it is safe to use
/// from many tasks at once.
@_spi(Formats)
public struct ISO9660FileSystem: DiscFileSystem {
  /// Which tree and names to read.
  public enum NamePreference: Sendable, Hashable {
    /// Rock Ridge, else Joliet, else plain ISO 9660 (what Linux and xorriso show).
    case automatic
    /// The primary tree with Rock Ridge names (an error when there is no Rock Ridge).
    case rockRidge
    /// The Joliet tree (an error when there is no Joliet descriptor).
    case joliet
    /// The primary tree with plain ISO 9660 names, ignoring Rock Ridge.
    case plain
  }

  /// The names a file system shows.
  public enum Names: String, Sendable, Hashable, Codable {
    case rockRidge, joliet, plain
  }

  /// Always ``FileSystemKind/iso9660``.
  public var kind: FileSystemKind { .iso9660 }
  /// Always `nil`: ISO 9660 has no UDF revision.
  public var revision: String? { nil }
  /// The primary volume descriptor's volume identifier (what `isoinfo -d` and xorriso show).
  public let volumeLabel: String
  /// The image.
  public let source: any ByteSource
  /// The limits that bound the reading.
  public let limits: ParsingLimits
  /// The primary volume descriptor.
  public let primary: ISO9660VolumeDescriptor
  /// The Joliet supplementary volume descriptor, if any.
  public let joliet: ISO9660VolumeDescriptor?
  /// Every volume descriptor of the set, terminator included.
  public let descriptors: [ISO9660VolumeDescriptor]
  /// Whether the primary tree has Rock Ridge (a SUSP `SP` entry in the root's `.` record).
  public let hasRockRidge: Bool
  /// The names this value shows.
  public let names: Names
  /// The logical block size in bytes.
  public let logicalBlockSize: Int

  private let root: Node
  private let susPSkip: Int
  private let cache = DirectoryCache<String, Node>()

  /// The first sector of the volume descriptor set.
  static let descriptorSetStart: Int64 = 16 * 2048

  /// Whether `source` has a primary volume descriptor in its volume descriptor set (`CD001`
  /// from byte 32768 on).
  public static func hasPrimaryVolumeDescriptor(_ source: any ByteSource) throws(DiscKitError)
    -> Bool
  {
    var offset = descriptorSetStart
    for _ in 0..<32 {
      guard offset + 2048 <= source.size else { return false }
      let header = try source.bytes(at: offset, count: 6, structure: "ISO9660 volume descriptor")
      guard Array(header[1...5]) == ISO9660VolumeDescriptor.standardIdentifier else { return false }
      if header[0] == 1 { return true }
      if header[0] == 255 { return false }
      offset += 2048
    }
    return false
  }

  /// Reads the ISO9660 volume of `source` (Joliet names when a Joliet SVD exists).
  ///
  /// - Parameter names: which tree and names to read (see ``NamePreference``).
  /// - Throws: ``DiscKitError/Code/truncated`` when the image ends inside the descriptor set,
  ///   ``DiscKitError/Code/malformed`` for a sector without `CD001` before the terminator or a
  ///   bad primary descriptor, ``DiscKitError/Code/limitExceeded`` when no terminator appears
  ///   within `limits.maxVolumeDescriptors` descriptors, ``DiscKitError/Code/notFound`` when
  ///   there is no primary descriptor, ``DiscKitError/Code/unsupported`` when the requested
  ///   names are not recorded.
  public init(
    source: any ByteSource, limits: ParsingLimits = .default,
    names preference: NamePreference = .automatic
  )
    throws(DiscKitError)
  {
    self.source = source
    self.limits = limits
    var descriptors: [ISO9660VolumeDescriptor] = []
    var offset = Self.descriptorSetStart
    var terminated = false
    while descriptors.count < limits.maxVolumeDescriptors {
      let bytes = try source.bytes(
        at: offset, count: ISO9660VolumeDescriptor.size, structure: "ISO9660 volume descriptor")
      var reader = BinaryReader(bytes, baseOffset: offset, structure: "ISO9660 volume descriptor")
      let descriptor = try ISO9660VolumeDescriptor(parsing: &reader)
      descriptors.append(descriptor)
      offset += Int64(ISO9660VolumeDescriptor.size)
      if descriptor.kind == .terminator {
        terminated = true
        break
      }
    }
    guard terminated else {
      throw DiscKitError.limit(
        "ISO9660 volume descriptor set", at: Self.descriptorSetStart,
        "no terminator within \(limits.maxVolumeDescriptors) volume descriptors")
    }
    guard let primary = descriptors.first(where: { $0.kind == .primary }),
      let rootRecord = primary.rootDirectory
    else {
      throw DiscKitError(
        .notFound, "ISO9660 volume descriptor set", at: Self.descriptorSetStart,
        "no primary volume descriptor")
    }
    self.descriptors = descriptors
    self.primary = primary
    self.volumeLabel = primary.volumeIdentifier
    let joliet = descriptors.first(where: {
      $0.kind == .supplementary && $0.jolietLevel != nil && $0.rootDirectory != nil
    })
    self.joliet = joliet

    // Rock Ridge: a SUSP SP entry at the start of the System Use area of the root's "." record.
    let blockSize = primary.logicalBlockSize
    let skip = Self.rockRidgeSkip(root: rootRecord, source: source, blockSize: blockSize)
    self.hasRockRidge = skip != nil
    self.susPSkip = skip ?? 0

    let chosen: Names
    switch preference {
    case .automatic: chosen = skip != nil ? .rockRidge : (joliet != nil ? .joliet : .plain)
    case .plain: chosen = .plain
    case .rockRidge:
      guard skip != nil else {
        throw DiscKitError(
          .unsupported, "ISO9660 root directory", at: rootRecord.offset,
          "the image has no Rock Ridge entries")
      }
      chosen = .rockRidge
    case .joliet:
      guard joliet != nil else {
        throw DiscKitError(
          .unsupported, "ISO9660 volume descriptor set", at: Self.descriptorSetStart,
          "the image has no Joliet descriptor")
      }
      chosen = .joliet
    }
    self.names = chosen
    let treeDescriptor = chosen == .joliet ? (joliet ?? primary) : primary
    self.logicalBlockSize = treeDescriptor.logicalBlockSize
    let treeRoot = treeDescriptor.rootDirectory ?? rootRecord
    self.root = Node(
      entry: DiscFileEntry(name: "", path: "/", size: 0, isDirectory: true),
      recordOffset: treeRoot.offset,
      directoryBlock: treeRoot.extentLocation &+ UInt32(treeRoot.extendedAttributeLength),
      directoryLength: treeRoot.dataLength, extents: [], interleaved: false)
  }

  /// The SUSP skip length when the root's `.` record has an `SP` entry, `nil` otherwise (also
  /// when the root directory cannot be read: listing reports that error).
  private static func rockRidgeSkip(
    root: ISO9660DirectoryRecord, source: any ByteSource, blockSize: Int
  ) -> Int? {
    let start = Int64(root.extentLocation) * Int64(blockSize)
    guard root.dataLength >= 34, start + 256 <= source.size,
      let bytes = try? source.bytes(at: start, count: 256, structure: "ISO9660 root directory")
    else { return nil }
    var reader = BinaryReader(bytes, baseOffset: start, structure: "ISO9660 root directory")
    guard let record = try? ISO9660DirectoryRecord(parsing: &reader), record.isSelf,
      let area = try? reader.slice(
        atRelative: record.systemUseStart, count: record.length - record.systemUseStart),
      let entries = try? ISO9660RockRidgeEntries(
        parsing: area, source: source, blockSize: blockSize)
    else { return nil }
    return entries.susPSkip
  }

  // MARK: DiscFileSystem

  /// The entries of the directory at `path`; throws ``DiscKitError/Code/invalidArgument`` if `path`
  /// is a file.
  public func contentsOfDirectory(atPath path: String) throws(DiscKitError) -> [DiscFileEntry] {
    let node = try resolve(path)
    guard node.entry.isDirectory else {
      throw DiscKitError(.invalidArgument, node.entry.path, at: nil, "not a directory")
    }
    return try children(of: node).map(\.entry)
  }

  /// The file at `path` as a byte source over its extents in the image; throws
  /// ``DiscKitError/Code/invalidArgument`` for a directory and ``DiscKitError/Code/unsupported``
  /// for an interleaved file.
  public func openFile(atPath path: String) throws(DiscKitError) -> any ByteSource {
    let node = try resolve(path)
    guard !node.entry.isDirectory else {
      throw DiscKitError(.invalidArgument, node.entry.path, at: nil, "is a directory")
    }
    guard !node.interleaved else {
      throw DiscKitError(
        .unsupported, "ISO9660 directory record for \(node.entry.path)", at: node.recordOffset,
        "the file is recorded in interleaved mode")
    }
    let extents = node.extents.filter { $0.length > 0 }
    for extent in extents {
      guard extent.start + extent.length <= source.size else {
        throw DiscKitError(
          .truncated, "ISO9660 directory record for \(node.entry.path)", at: extent.recordOffset,
          "extent of \(extent.length) bytes at byte \(extent.start) lies past the end of the \(source.size)-byte image"
        )
      }
    }
    if extents.isEmpty { return MemoryByteSource([]) }
    if extents.count == 1, let only = extents.first {
      return try SubrangeByteSource(
        source, offset: only.start, length: only.length, structure: node.entry.path)
    }
    return try ConcatenatedByteSource(
      extents.map {
        ConcatenatedByteSource.Extent(source: source, offset: $0.start, length: $0.length)
      },
      structure: node.entry.path)
  }

  // MARK: Tree

  struct Extent: Sendable {
    var start: Int64
    var length: Int64
    var recordOffset: Int64
  }

  struct Node: Sendable {
    var entry: DiscFileEntry
    /// The absolute offset of the (first) directory record.
    var recordOffset: Int64
    /// Directories: the first logical block of the directory extent.
    var directoryBlock: UInt32
    /// Directories: the extent's length; `nil` for a Rock Ridge child link (read from its `.`).
    var directoryLength: UInt32?
    /// Files: the extents, in order.
    var extents: [Extent]
    var interleaved: Bool
  }

  /// The node at `path`, checking on the way that no directory is its own ancestor.
  private func resolve(_ path: String) throws(DiscKitError) -> Node {
    let components = DiscPath.components(path)
    guard components.count <= limits.maxDirectoryDepth else {
      throw DiscKitError.limit(
        path, at: nil, "path deeper than \(limits.maxDirectoryDepth) directories")
    }
    var current = root
    var ancestors: Set<UInt32> = [root.directoryBlock]
    for (index, component) in components.enumerated() {
      guard current.entry.isDirectory else {
        throw DiscKitError(
          .notFound, DiscPath.join(components.prefix(index + 1)), at: nil,
          "\(current.entry.path) is not a directory")
      }
      let siblings = try children(of: current)
      let folded = component.lowercased()
      guard
        let child = siblings.first(where: { $0.entry.name == component })
          ?? siblings.first(where: { $0.entry.name.lowercased() == folded })
      else {
        throw DiscKitError(
          .notFound, DiscPath.join(components.prefix(index + 1)), at: nil,
          "no such file or directory")
      }
      if child.entry.isDirectory {
        guard ancestors.insert(child.directoryBlock).inserted else {
          throw DiscKitError(
            .loop, "ISO9660 directory record for \(child.entry.path)", at: child.recordOffset,
            "the directory's extent (block \(child.directoryBlock)) is that of one of its ancestors"
          )
        }
      }
      current = child
    }
    return current
  }

  /// The entries of `directory` (without `.` and `..`), from the cache or the image.
  private func children(of directory: Node) throws(DiscKitError) -> [Node] {
    let key = "\(directory.directoryBlock)/\(directory.entry.path)"
    if let cached = cache.get(key) { return cached }
    let nodes = try readChildren(of: directory)
    cache.put(key, nodes)
    return nodes
  }

  /// Reads the directory extent of `directory` and returns its entries (without `.` and `..`).
  private func readChildren(of directory: Node) throws(DiscKitError) -> [Node] {
    let blockSize = Int64(logicalBlockSize)
    let start = Int64(directory.directoryBlock) * blockSize
    let structure = "ISO9660 directory \(directory.entry.path)"
    let length: Int
    if let known = directory.directoryLength {
      length = Int(known)
    } else {
      // A Rock Ridge child link: the length is in the "." record of the target.
      guard start + 34 <= source.size else {
        throw DiscKitError(
          .truncated, "ISO9660 directory record for \(directory.entry.path)",
          at: directory.recordOffset,
          "Rock Ridge child link to block \(directory.directoryBlock) lies past the end of the \(source.size)-byte image"
        )
      }
      let head = try source.bytes(
        at: start, count: Int(min(2048, source.size - start)), structure: structure)
      var reader = BinaryReader(head, baseOffset: start, structure: structure)
      let dot = try ISO9660DirectoryRecord(parsing: &reader)
      length = Int(dot.dataLength)
    }
    guard length <= limits.maxDirectoryBytes else {
      throw DiscKitError.limit(
        "ISO9660 directory record for \(directory.entry.path)", at: directory.recordOffset,
        "directory of \(length) bytes is larger than the limit of \(limits.maxDirectoryBytes)")
    }
    guard start + Int64(length) <= source.size else {
      throw DiscKitError(
        .truncated, "ISO9660 directory record for \(directory.entry.path)",
        at: directory.recordOffset,
        "directory extent of \(length) bytes at byte \(start) lies past the end of the \(source.size)-byte image"
      )
    }
    let bytes = try source.bytes(at: start, count: length, structure: structure)
    var reader = BinaryReader(bytes, baseOffset: start, structure: structure)
    var result: [Node] = []
    var pending: (record: ISO9660DirectoryRecord, node: Node)? = nil
    let sector = 2048
    // Every directory begins with its "." record (ECMA-119 6.8.2.2).
    guard length >= 34, try reader.uint8(atRelative: 0) >= 34,
      try reader.uint8(atRelative: 32) == 1,
      try reader.uint8(atRelative: 33) == 0
    else {
      throw DiscKitError.malformed(
        structure, at: start,
        "the directory does not begin with its \".\" record (damaged or misplaced directory)")
    }
    while reader.remaining > 0 {
      let position = reader.relativePosition
      let recordLength = try reader.uint8(atRelative: position)
      if recordLength == 0 {
        // Zero padding up to the end of the sector.
        let next = (position / sector + 1) * sector
        try reader.seek(toRelative: min(next, reader.count))
        continue
      }
      let record = try ISO9660DirectoryRecord(parsing: &reader)
      if record.isSelf || record.isParent {
        if let chain = pending {
          throw incompleteChain(chain.node, interruptedBy: record)
        }
        continue
      }
      if var chain = pending {
        guard record.identifier == chain.record.identifier, !record.isDirectory else {
          throw incompleteChain(chain.node, interruptedBy: record)
        }
        guard chain.node.extents.count < limits.maxExtentsPerFile else {
          throw DiscKitError.limit(
            "ISO9660 directory record for \(chain.node.entry.path)", at: record.offset,
            "more than \(limits.maxExtentsPerFile) extents")
        }
        let extent = Extent(
          start: (Int64(record.extentLocation) + Int64(record.extendedAttributeLength)) * blockSize,
          length: Int64(record.dataLength), recordOffset: record.offset)
        chain.node.extents.append(extent)
        chain.node.entry.size += extent.length
        chain.node.interleaved = chain.node.interleaved || record.isInterleaved
        if record.isMultiExtent {
          pending = chain
        } else {
          pending = nil
          try append(chain.node, to: &result, at: record.offset)
        }
        continue
      }
      if record.isAssociated { continue }
      guard
        var node = try makeNode(
          record, in: directory, area: reader, recordStart: position)
      else { continue }
      if record.isMultiExtent {
        guard !record.isDirectory else {
          throw DiscKitError.malformed(
            "ISO9660 directory record for \(node.entry.path)", at: record.offset,
            "a directory record is flagged as a multi-extent file")
        }
        node.entry.isDirectory = false
        pending = (record, node)
        continue
      }
      try append(node, to: &result, at: record.offset)
    }
    if let chain = pending {
      throw DiscKitError.malformed(
        "ISO9660 directory record for \(chain.node.entry.path)", at: chain.record.offset,
        "incomplete multi-extent chain: the directory ends while the last record still has flag 0x80 (more extents follow)"
      )
    }
    return result
  }

  private func append(_ node: Node, to result: inout [Node], at offset: Int64) throws(DiscKitError)
  {
    guard result.count < limits.maxDirectoryEntries else {
      throw DiscKitError.limit(
        "ISO9660 directory record for \(node.entry.path)", at: offset,
        "more than \(limits.maxDirectoryEntries) entries in one directory")
    }
    result.append(node)
  }

  private func incompleteChain(_ node: Node, interruptedBy record: ISO9660DirectoryRecord)
    -> DiscKitError
  {
    DiscKitError.malformed(
      "ISO9660 directory record for \(node.entry.path)", at: record.offset,
      "incomplete multi-extent chain: a record with another name interrupts the extents of the file"
    )
  }

  /// The node for one record, or `nil` when the record is hidden from the tree (a Rock Ridge
  /// relocated directory).
  private func makeNode(
    _ record: ISO9660DirectoryRecord, in directory: Node, area reader: BinaryReader,
    recordStart: Int
  )
    throws(DiscKitError) -> Node?
  {
    var name: String
    var isDirectory = record.isDirectory
    var directoryBlock = record.extentLocation &+ UInt32(record.extendedAttributeLength)
    var directoryLength: UInt32? = record.dataLength
    switch names {
    case .joliet:
      name = ISO9660Names.strippingVersion(ISO9660Names.decodeUCS2(record.identifier))
    case .plain, .rockRidge:
      name = ISO9660Names.strippingVersion(ISO9660Names.decodeBytes(record.identifier))
      if name.count > 1, name.hasSuffix(".") { name.removeLast() }
    }
    if names == .rockRidge {
      let areaStart = recordStart + record.systemUseStart + susPSkip
      let areaLength = record.length - record.systemUseStart - susPSkip
      if areaLength >= 4 {
        var area = try reader.slice(atRelative: areaStart, count: areaLength)
        area.structure = "Rock Ridge entries of \(DiscPath.child(directory.entry.path, name))"
        let entries = try ISO9660RockRidgeEntries(
          parsing: area, source: source, blockSize: logicalBlockSize)
        if entries.isRelocated { return nil }
        if let rrName = entries.name, !rrName.isEmpty { name = ISO9660Names.decodeBytes(rrName) }
        if let link = entries.childLink {
          isDirectory = true
          directoryBlock = link
          directoryLength = nil
        }
      }
    }
    name = ISO9660Names.sanitized(name)
    let path = DiscPath.child(directory.entry.path, name)
    let blockSize = Int64(logicalBlockSize)
    let extents =
      isDirectory
      ? []
      : [
        Extent(
          start: (Int64(record.extentLocation) + Int64(record.extendedAttributeLength)) * blockSize,
          length: Int64(record.dataLength), recordOffset: record.offset)
      ]
    return Node(
      entry: DiscFileEntry(
        name: name, path: path, size: isDirectory ? 0 : Int64(record.dataLength),
        isDirectory: isDirectory),
      recordOffset: record.offset, directoryBlock: directoryBlock, directoryLength: directoryLength,
      extents: extents, interleaved: record.isInterleaved)
  }
}
