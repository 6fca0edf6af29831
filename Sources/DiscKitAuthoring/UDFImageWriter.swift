import DiscKit
import DiscKitOutput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a folder as a UDF 2.50 or 2.60 image with the layout Blu-ray discs use.
///
/// The image has a volume recognition sequence (BEA01, NSR03, TEA01), a main and a reserve
/// volume descriptor sequence (Primary Volume, Implementation Use Volume, Partition, Logical
/// Volume with a Type 1 and a Metadata partition map, Unallocated Space, Terminating), a closed
/// Logical Volume Integrity Descriptor, anchors at sector 256 and at the end, and one read-only
/// physical partition holding the Metadata File, the Metadata Mirror File, then the file data. The
/// file set descriptor, every directory and every (Extended) File Entry live in the metadata
/// partition; file data lives in the physical partition, in extents of at most 2^30 - 2048 bytes.
///
/// Creating a writer scans the folder and plans the whole layout, so names UDF cannot record
/// and sizes past the format's limits are reported before anything is written:
///
/// ```swift
/// let writer = try UDFImageWriter(folder: "/movies/MY_DISC", options: .init(volumeLabel: "MY_DISC"))
/// try writer.write(to: "/tmp/my_disc.iso", overwrite: false)
/// ```
///
/// ``write(to:overwrite:progress:)`` streams file data (it never holds a file in memory), keeps
/// holes of sparse sources as holes, and writes a temporary file that is renamed over the
/// destination only when everything succeeded.
public struct UDFImageWriter: Sendable {
  /// The UDF revision recorded in the domain identifiers and the integrity descriptor.
  public enum Revision: String, Sendable, CaseIterable {
    case udf250 = "2.50"
    case udf260 = "2.60"

    /// The BCD revision number (`0x0250`, `0x0260`).
    public var number: UInt16 { self == .udf250 ? 0x0250 : 0x0260 }
  }

  /// The order of the File Identifier Descriptors in each directory.
  public enum EntryOrder: Sendable {
    /// Sorted by name (reproducible images).
    case byName
    /// The order the local directory lists its entries (`readdir`), as libbluray sees a folder.
    case asListed
  }

  /// What to write.
  public struct Options: Sendable {
    /// UDF 2.50 (the default, as on BD-ROM) or 2.60.
    public var revision: Revision
    /// The volume label; `nil` uses the folder's name. It must fit the Logical Volume
    /// Identifier (126 Latin-1 or 63 other characters); shorter fields (the Primary Volume
    /// Descriptor's 30 bytes) get the longest prefix that fits.
    public var volumeLabel: String?
    /// The order of directory entries.
    public var entryOrder: EntryOrder
    /// Test option: split every file into extents of this many blocks and record them out of
    /// order with gaps between them (`nil`: contiguous files).
    package var fragmentBlocks: Int?
    /// Test option: at most this many allocation descriptors per File Entry or Allocation
    /// Extent Descriptor (at least 2), so files with more extents get AED chains.
    package var maxAllocationDescriptorsPerBlock: Int?
    /// Also record an anchor at N - 257 (the third location UDF 2.2.3 names).
    public var anchorBeforeEnd: Bool
    /// Recording time in seconds since 1970 (`nil`: now).
    public var recordingTime: Int64?
    /// Limits for the folder walk.
    public var limits: ParsingLimits
    /// Test option: the largest image in blocks (UDF addresses blocks with 32 bits).
    package var maxImageBlocks: UInt64

    /// Options for an image of `revision` labelled `volumeLabel`.
    ///
    /// - Parameters:
    ///   - anchorBeforeEnd: also record an anchor at N - 257.
    ///   - recordingTime: seconds since 1970 (`nil`: now), for reproducible images.
    public init(
      revision: Revision = .udf250, volumeLabel: String? = nil, entryOrder: EntryOrder = .byName,
      anchorBeforeEnd: Bool = true, recordingTime: Int64? = nil, limits: ParsingLimits = .default
    ) {
      self.init(
        revision: revision, volumeLabel: volumeLabel, entryOrder: entryOrder,
        fragmentBlocks: nil, maxAllocationDescriptorsPerBlock: nil,
        anchorBeforeEnd: anchorBeforeEnd, recordingTime: recordingTime, limits: limits,
        maxImageBlocks: UInt64(UInt32.max))
    }

    /// Options with the test-only layouts (fragmented files, short descriptor blocks, a
    /// lowered size limit); for this package's tests.
    package init(
      revision: Revision = .udf250, volumeLabel: String? = nil, entryOrder: EntryOrder = .byName,
      fragmentBlocks: Int?, maxAllocationDescriptorsPerBlock: Int? = nil,
      anchorBeforeEnd: Bool = true,
      recordingTime: Int64? = nil, limits: ParsingLimits = .default,
      maxImageBlocks: UInt64 = UInt64(UInt32.max)
    ) {
      self.revision = revision
      self.volumeLabel = volumeLabel
      self.entryOrder = entryOrder
      self.fragmentBlocks = fragmentBlocks
      self.maxAllocationDescriptorsPerBlock = maxAllocationDescriptorsPerBlock
      self.anchorBeforeEnd = anchorBeforeEnd
      self.recordingTime = recordingTime
      self.limits = limits
      self.maxImageBlocks = maxImageBlocks
    }
  }

  /// The options the image is written with.
  public let options: Options
  /// The folder being wrapped.
  public let folder: String
  /// The recorded volume label.
  public let volumeLabel: String
  private var tree: UDFSourceTree
  private var layout: Layout

  /// Regular files in the image.
  public var fileCount: Int { tree.fileCount }
  /// Directories in the image, the root included.
  public var directoryCount: Int { tree.directoryCount }
  /// Bytes of file data.
  public var dataBytes: Int64 { tree.dataBytes }
  /// The image size in bytes.
  public var imageSize: Int64 { Int64(layout.totalBlocks) * Int64(UDFConstants.blockSize) }

  /// Scans `folder` and plans the image.
  ///
  /// - Throws: ``DiscKitError/Code/cannotOpen`` for an unreadable folder or entry,
  ///   ``DiscKitError/Code/invalidArgument`` for names UDF cannot hold (not UTF-8, longer than
  ///   255 bytes in OSTA Compressed Unicode) or a label that does not fit,
  ///   ``DiscKitError/Code/unsupported`` for special files, ``DiscKitError/Code/limitExceeded``
  ///   when the image would pass UDF's size limits.
  public init(folder: String, options: Options = Options()) throws(DiscKitError) {
    self.folder = folder
    self.options = options
    if let blocks = options.fragmentBlocks, blocks < 1 {
      throw DiscKitError(
        .invalidArgument, "UDF writer options", at: nil, "fragmentBlocks must be at least 1")
    }
    if let count = options.maxAllocationDescriptorsPerBlock, count < 2 {
      throw DiscKitError(
        .invalidArgument, "UDF writer options", at: nil,
        "maxAllocationDescriptorsPerBlock must be at least 2")
    }
    if let label = options.volumeLabel {
      let encoded = OSTACompressedUnicode.encode(label)
      guard !encoded.isEmpty, encoded.count <= 127 else {
        throw DiscKitError(
          .invalidArgument, "volume label", at: nil,
          "\"\(label)\" needs \(encoded.count) bytes; the Logical Volume Identifier holds 1 to 127")
      }
      volumeLabel = label
    } else {
      let base = DiscPath.components(folder).last ?? ""
      let encoded = OSTACompressedUnicode.encodeTruncating(
        base.isEmpty ? "DISC" : base, maxBytes: 127)
      volumeLabel = encoded.isEmpty ? "DISC" : Self.decode(encoded)
    }
    tree = try UDFSourceTree(root: folder, order: options.entryOrder, limits: options.limits)
    layout = try Layout.plan(tree: &tree, options: options)
  }

  private static func decode(_ encoded: [UInt8]) -> String {
    guard let first = encoded.first else { return "" }
    if first == 8 {
      return String(String.UnicodeScalarView(encoded.dropFirst().map { Unicode.Scalar($0) }))
    }
    var units: [UInt16] = []
    var i = 1
    while i + 1 < encoded.count {
      units.append(UInt16(encoded[i]) << 8 | UInt16(encoded[i + 1]))
      i += 2
    }
    return String(decoding: units, as: UTF16.self)
  }

  /// Writes the image to `destination` (through a temporary file renamed at the end).
  ///
  /// - Parameters:
  ///   - overwrite: replace an existing destination.
  ///   - progress: called with (bytes of file data done, total bytes of file data).
  /// - Throws: ``DiscKitError``; on any failure the temporary file is removed and the
  ///   destination is left as it was.
  public func write(
    to destination: String, overwrite: Bool = false, progress: ((Int64, Int64) -> Void)? = nil
  )
    throws(DiscKitError)
  {
    guard destination != "-" else {
      throw DiscKitError(
        .invalidArgument, destination, at: nil, "a UDF image cannot be streamed to standard output")
    }
    var existing = stat()
    if stat(destination, &existing) == 0 {
      let id = [UInt64(existing.st_dev), UInt64(existing.st_ino)]
      if tree.nodes.contains(where: { $0.fileID == id }) {
        throw DiscKitError(
          .invalidArgument, destination, at: nil,
          "the output is one of the files being recorded; write it elsewhere")
      }
    }
    let writer = try AtomicFileWriter(destination: destination, overwrite: overwrite)
    do throws(DiscKitError) {
      let fd = writer.descriptor.rawValue
      guard ftruncate(fd, off_t(imageSize)) == 0 else {
        throw DiscKitError(
          .io, destination, at: nil,
          "cannot size the image to \(imageSize) bytes: \(String(cString: strerror(errno)))")
      }
      let emitter = Emitter(fd: fd, path: destination, writer: self)
      try emitter.writeVolumeStructures()
      try emitter.writeMetadata()
      try emitter.copyFileData(progress: progress)
      try writer.commit()
    } catch {
      writer.abort()
      throw error
    }
  }

  // MARK: - Layout

  /// Where everything goes. Sector numbers are absolute; blocks in the physical partition are
  /// relative to ``partitionStart``; blocks in the metadata partition are relative to the
  /// Metadata File's data.
  struct Layout: Sendable {
    static let mainVDS: UInt32 = 32
    static let integritySequence: UInt32 = 48
    static let reserveVDS: UInt32 = 64
    static let sequenceBlocks: UInt32 = 16
    static let firstAnchor: UInt32 = 256
    static let partitionStart: UInt32 = 288
    /// Allocation and alignment unit of the metadata partition (one 64 KiB BD ECC block).
    static let metadataUnit: UInt32 = 32
    /// Metadata partition blocks: File Set Descriptor and its Terminating Descriptor.
    static let fileSetBlock: UInt32 = 0

    var metadataFileEntry: UInt32 = 0
    var metadataStart: UInt32 = 32
    var metadataBlocks: UInt32 = 0
    var metadataUsedBlocks: UInt32 = 0
    var dataStart: UInt32 = 0
    var dataBlocks: UInt64 = 0
    var mirrorFileEntry: UInt32 = 0
    var mirrorStart: UInt32 = 0
    var partitionLength: UInt32 = 0
    var totalBlocks: UInt64 = 0
    var anchors: [UInt64] = []
    var nextUniqueID: UInt64 = 16
    var descriptorsPerEntry = 114
    var descriptorsPerExtentBlock = 126

    /// Data ADs recorded in the File Entry and in each AED for a file with `count` extents.
    func chain(_ count: Int) -> [Int] {
      if count <= descriptorsPerEntry { return [count] }
      var result = [descriptorsPerEntry - 1]
      var remaining = count - (descriptorsPerEntry - 1)
      while remaining > descriptorsPerExtentBlock {
        result.append(descriptorsPerExtentBlock - 1)
        remaining -= descriptorsPerExtentBlock - 1
      }
      result.append(remaining)
      return result
    }

    static func fidLength(nameBytes: Int, implementationUse: Int) -> Int {
      (38 + implementationUse + nameBytes + 3) & ~3
    }

    /// The implementation-use length of a FID starting at `offset` of its directory, so that
    /// the next FID's tag never spans a block boundary (UDF 2.3.4.4).
    static func fidImplementationUse(nameBytes: Int, offset: Int) -> Int {
      let end = offset + fidLength(nameBytes: nameBytes, implementationUse: 0)
      let rest = UDFConstants.blockSize - end % UDFConstants.blockSize
      return rest < 16 && rest != UDFConstants.blockSize ? 32 : 0
    }

    static func directoryLength(_ tree: UDFSourceTree, _ index: Int) -> Int {
      var offset = fidLength(nameBytes: 0, implementationUse: 0)
      offset += fidImplementationUse(nameBytes: 0, offset: 0)
      for child in tree.nodes[index].children {
        let count = tree.nodes[child].encodedName.count
        let iu = fidImplementationUse(nameBytes: count, offset: offset)
        offset += fidLength(nameBytes: count, implementationUse: iu)
      }
      return offset
    }

    /// The file's pieces (blocks each) in file order.
    static func pieces(size: Int64, fragmentBlocks: Int?) -> [Int64] {
      let blocks = (size + 2047) / 2048
      guard blocks > 0 else { return [] }
      let piece = min(Int64(fragmentBlocks ?? Int.max), UDFConstants.maxExtentBlocks)
      var result: [Int64] = []
      var left = blocks
      while left > 0 {
        let take = min(piece, left)
        result.append(take)
        left -= take
      }
      return result
    }

    static func plan(tree: inout UDFSourceTree, options: Options) throws(DiscKitError) -> Layout {
      var layout = Layout()
      if let limit = options.maxAllocationDescriptorsPerBlock {
        layout.descriptorsPerEntry = min(limit, 114)
        layout.descriptorsPerExtentBlock = min(limit, 126)
      }
      // Pass 1: the metadata partition (FSD, TD, then entries and directories depth first).
      var next: UInt64 = 2
      var pieceCounts: [Int: [Int64]] = [:]
      try planMetadata(
        tree: &tree, index: 0, next: &next, layout: &layout, options: options, pieces: &pieceCounts)
      let unit = UInt64(metadataUnit)
      let metadataBlocks = (next + unit - 1) / unit * unit
      guard metadataBlocks * 2048 <= UInt64(Int32.max) else {
        throw DiscKitError.limit(
          tree.nodes[0].localPath, at: nil,
          "the file system metadata needs \(metadataBlocks) blocks")
      }
      layout.metadataUsedBlocks = UInt32(next)
      layout.metadataBlocks = UInt32(metadataBlocks)
      layout.metadataStart = metadataUnit
      layout.mirrorFileEntry = 1
      layout.mirrorStart = metadataUnit + UInt32(metadataBlocks)
      // Pass 2: file data in the physical partition, in the same depth-first order, after the
      // metadata and its mirror (so that only zeros and anchors follow the last file's data,
      // which is where 7-Zip expects the volume to end).
      var data = UInt64(layout.mirrorStart) + metadataBlocks
      layout.dataStart = UInt32(data)
      let limit = options.maxImageBlocks
      for index in tree.nodes.indices where !tree.nodes[index].isDirectory {
        let pieces = pieceCounts[index] ?? []
        var extents: [DataExtent] = []
        extents.reserveCapacity(pieces.count)
        var fileOffset: Int64 = 0
        var placed: [UInt64] = Array(repeating: 0, count: pieces.count)
        if options.fragmentBlocks != nil {
          // Out of order with one-block gaps: the last piece first.
          for k in pieces.indices.reversed() {
            placed[k] = data
            data += UInt64(pieces[k]) + 1
          }
        } else {
          for k in pieces.indices {
            placed[k] = data
            data += UInt64(pieces[k])
          }
        }
        guard data < limit else { throw tooLarge(tree, limit) }
        for k in pieces.indices {
          let length = min(pieces[k] * 2048, tree.nodes[index].size - fileOffset)
          extents.append(
            DataExtent(block: UInt32(placed[k]), fileOffset: fileOffset, length: length))
          fileOffset += length
        }
        tree.nodes[index].extents = extents
      }
      layout.dataBlocks = data - UInt64(layout.dataStart)
      let partitionLength = data
      let partitionEnd = UInt64(partitionStart) + partitionLength
      let total = partitionEnd + (options.anchorBeforeEnd ? 257 : 1)
      guard total <= limit, partitionLength <= UInt64(UInt32.max) else {
        throw tooLarge(tree, limit)
      }
      layout.partitionLength = UInt32(partitionLength)
      layout.totalBlocks = total
      layout.anchors =
        [UInt64(firstAnchor)] + (options.anchorBeforeEnd ? [total - 257] : []) + [total - 1]
      return layout
    }

    private static func tooLarge(_ tree: UDFSourceTree, _ limit: UInt64) -> DiscKitError {
      DiscKitError.limit(
        tree.nodes[0].localPath, at: nil,
        "\(tree.dataBytes) bytes of files need more than the \(limit) blocks of 2048 bytes a UDF volume can address"
      )
    }

    private static func planMetadata(
      tree: inout UDFSourceTree, index: Int, next: inout UInt64, layout: inout Layout,
      options: Options,
      pieces: inout [Int: [Int64]]
    ) throws(DiscKitError) {
      let limit = UInt64(Int32.max) / 2048
      if index != 0 {
        tree.nodes[index].uniqueID = layout.nextUniqueID
        layout.nextUniqueID += 1
      }
      tree.nodes[index].entryBlock = UInt32(truncatingIfNeeded: next)
      next += 1
      if tree.nodes[index].isDirectory {
        let length = directoryLength(tree, index)
        guard Int64(length) <= UDFConstants.maxExtentBytes,
          length <= options.limits.maxDirectoryBytes
        else {
          throw DiscKitError.limit(
            tree.nodes[index].localPath, at: nil,
            "the directory needs \(length) bytes of identifiers")
        }
        tree.nodes[index].directoryLength = length
        tree.nodes[index].directoryBlock = UInt32(truncatingIfNeeded: next)
        next += UInt64((length + 2047) / 2048)
        guard next < limit else {
          throw DiscKitError.limit(
            tree.nodes[index].localPath, at: nil, "too many entries for the metadata partition")
        }
        for child in tree.nodes[index].children {
          try planMetadata(
            tree: &tree, index: child, next: &next, layout: &layout, options: options,
            pieces: &pieces)
        }
      } else {
        let filePieces = Layout.pieces(
          size: tree.nodes[index].size, fragmentBlocks: options.fragmentBlocks)
        guard filePieces.count <= options.limits.maxExtentsPerFile else {
          throw DiscKitError.limit(
            tree.nodes[index].localPath, at: nil,
            "\(filePieces.count) extents (limit \(options.limits.maxExtentsPerFile))")
        }
        pieces[index] = filePieces
        let chain = layout.chain(filePieces.count)
        var blocks: [UInt32] = []
        for _ in 1..<chain.count {
          blocks.append(UInt32(truncatingIfNeeded: next))
          next += 1
        }
        tree.nodes[index].extentDescriptorBlocks = blocks
        guard next < limit else {
          throw DiscKitError.limit(
            tree.nodes[index].localPath, at: nil, "too many entries for the metadata partition")
        }
      }
    }
  }

  fileprivate var treeNodes: [SourceNode] { tree.nodes }
  fileprivate var plannedLayout: Layout { layout }
}

// MARK: - Emitting

/// Writes the planned structures into the image file.
private struct Emitter {
  let fd: Int32
  let path: String
  let writer: UDFImageWriter
  let layout: UDFImageWriter.Layout
  let nodes: [SourceNode]
  let revision: UInt16
  let now: UDFTimestamp
  let label: String

  /// Partition reference numbers (indices of the partition maps in the LVD).
  static let physicalPartition: UInt16 = 0
  static let metadataPartition: UInt16 = 1

  init(fd: Int32, path: String, writer: UDFImageWriter) {
    self.fd = fd
    self.path = path
    self.writer = writer
    self.layout = writer.plannedLayout
    self.nodes = writer.treeNodes
    self.revision = writer.options.revision.number
    self.label = writer.volumeLabel
    if let seconds = writer.options.recordingTime {
      now = UDFTimestamp(seconds: seconds)
    } else {
      var spec = timespec()
      clock_gettime(CLOCK_REALTIME, &spec)
      now = UDFTimestamp(seconds: Int64(spec.tv_sec), nanoseconds: Int64(spec.tv_nsec))
    }
  }

  func put(_ bytes: [UInt8], sector: UInt64) throws(DiscKitError) {
    try SparseCopier.writeAll(fd, bytes, at: Int64(sector) * 2048, path: path)
  }

  // MARK: Volume structures

  func writeVolumeStructures() throws(DiscKitError) {
    // Volume Recognition Sequence (ECMA-167 2/9): BEA01, NSR03, TEA01 from sector 16.
    for (i, id) in ["BEA01", "NSR03", "TEA01"].enumerated() {
      var block = DescriptorBuffer()
      block.u8(0, 0)
      block.ascii(1, id)
      block.u8(6, 1)
      try put(block.bytes, sector: UInt64(16 + i))
    }
    for start in [UDFImageWriter.Layout.mainVDS, UDFImageWriter.Layout.reserveVDS] {
      try writeVolumeDescriptorSequence(at: start)
    }
    try put(integrityDescriptor(), sector: UInt64(UDFImageWriter.Layout.integritySequence))
    try put(
      terminating(at: UDFImageWriter.Layout.integritySequence + 1),
      sector: UInt64(UDFImageWriter.Layout.integritySequence + 1))
    for anchor in layout.anchors {
      var block = DescriptorBuffer()
      let length = UDFImageWriter.Layout.sequenceBlocks * 2048
      block.extentAD(16, length: length, location: UDFImageWriter.Layout.mainVDS)
      block.extentAD(24, length: length, location: UDFImageWriter.Layout.reserveVDS)
      block.finishTag(
        identifier: .anchor, location: UInt32(truncatingIfNeeded: anchor), length: 512)
      try put(block.bytes, sector: anchor)
    }
  }

  func terminating(at location: UInt32) -> [UInt8] {
    var block = DescriptorBuffer()
    block.finishTag(identifier: .terminating, location: location, length: 512)
    return block.bytes
  }

  var volumeSetIdentifier: [UInt8] {
    // UDF 2.2.2.5: the first 16 characters are a unique hexadecimal value.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in Array(label.utf8) + now.bytes {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    var hex = String(hash, radix: 16, uppercase: true)
    hex = String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    return OSTACompressedUnicode.encodeTruncating(hex + label, maxBytes: 127)
  }

  func writeVolumeDescriptorSequence(at start: UInt32) throws(DiscKitError) {
    var sequence: UInt32 = 0
    var sector = start

    // Primary Volume Descriptor (3/10.1, UDF 2.2.2).
    var pvd = DescriptorBuffer()
    pvd.u32(16, sequence)
    pvd.u32(20, 0)
    pvd.dstring(24, size: 32, OSTACompressedUnicode.encodeTruncating(label, maxBytes: 31))
    pvd.u16(56, 1)
    pvd.u16(58, 1)
    pvd.u16(60, 2)
    pvd.u16(62, 3)
    pvd.u32(64, 1)
    pvd.u32(68, 1)
    pvd.dstring(72, size: 128, volumeSetIdentifier)
    pvd.osta(200)
    pvd.osta(264)
    pvd.entity(344, .application)
    pvd.timestamp(376, now)
    pvd.entity(388, .implementation)
    pvd.finishTag(identifier: .primaryVolume, location: sector, length: 512)
    try put(pvd.bytes, sector: UInt64(sector))
    sequence += 1
    sector += 1

    // Implementation Use Volume Descriptor (3/10.4, UDF 2.2.7).
    var iuvd = DescriptorBuffer()
    iuvd.u32(16, sequence)
    iuvd.entity(20, .udf("*UDF LV Info", revision: revision))
    iuvd.osta(52)
    iuvd.dstring(116, size: 128, OSTACompressedUnicode.encode(label))
    iuvd.entity(352, .implementation)
    iuvd.finishTag(identifier: .implementationUseVolume, location: sector, length: 512)
    try put(iuvd.bytes, sector: UInt64(sector))
    sequence += 1
    sector += 1

    // Partition Descriptor (3/10.5, UDF 2.2.14): read-only, no space bitmap or table.
    var pd = DescriptorBuffer()
    pd.u32(16, sequence)
    pd.u16(20, 1)
    pd.u16(22, 0)
    pd.entity(24, EntityIdentifier("+NSR03", suffix: []))
    pd.u32(184, 1)
    pd.u32(188, UDFImageWriter.Layout.partitionStart)
    pd.u32(192, layout.partitionLength)
    pd.entity(196, .implementation)
    pd.finishTag(identifier: .partition, location: sector, length: 512)
    try put(pd.bytes, sector: UInt64(sector))
    sequence += 1
    sector += 1

    // Logical Volume Descriptor (3/10.6, UDF 2.2.4) with a Type 1 and a Metadata partition map.
    var lvd = DescriptorBuffer()
    lvd.u32(16, sequence)
    lvd.osta(20)
    lvd.dstring(84, size: 128, OSTACompressedUnicode.encode(label))
    lvd.u32(212, 2048)
    lvd.entity(216, .domain("*OSTA UDF Compliant", revision: revision))
    lvd.longAD(
      248, length: 4096, block: UDFImageWriter.Layout.fileSetBlock,
      partition: Self.metadataPartition)
    lvd.u32(264, 6 + 64)
    lvd.u32(268, 2)
    lvd.entity(272, .implementation)
    lvd.extentAD(
      432, length: UDFImageWriter.Layout.sequenceBlocks * 2048,
      location: UDFImageWriter.Layout.integritySequence)
    // Type 1 map (3/10.7.2): volume sequence number 1, partition number 0.
    lvd.u8(440, 1)
    lvd.u8(441, 6)
    lvd.u16(442, 1)
    lvd.u16(444, 0)
    // Metadata partition map (UDF 2.2.10).
    let map = 446
    lvd.u8(map, 2)
    lvd.u8(map + 1, 64)
    lvd.entity(map + 4, .udf("*UDF Metadata Partition", revision: revision))
    lvd.u16(map + 36, 1)
    lvd.u16(map + 38, 0)
    lvd.u32(map + 40, layout.metadataFileEntry)
    lvd.u32(map + 44, layout.mirrorFileEntry)
    lvd.u32(map + 48, 0xFFFF_FFFF)  // no Metadata Bitmap File on a read-only partition
    lvd.u32(map + 52, UDFImageWriter.Layout.metadataUnit)
    lvd.u16(map + 56, UInt16(UDFImageWriter.Layout.metadataUnit))
    lvd.u8(map + 58, 1)  // duplicate metadata: the mirror is a separate copy
    lvd.finishTag(identifier: .logicalVolume, location: sector, length: 440 + 70)
    try put(lvd.bytes, sector: UInt64(sector))
    sequence += 1
    sector += 1

    // Unallocated Space Descriptor (3/10.8): no free extents.
    var usd = DescriptorBuffer()
    usd.u32(16, sequence)
    usd.u32(20, 0)
    usd.finishTag(identifier: .unallocatedSpace, location: sector, length: 24)
    try put(usd.bytes, sector: UInt64(sector))
    sector += 1

    try put(terminating(at: sector), sector: UInt64(sector))
  }

  /// The closed Logical Volume Integrity Descriptor (3/10.10, UDF 2.2.6).
  func integrityDescriptor() -> [UInt8] {
    var lvid = DescriptorBuffer()
    lvid.timestamp(16, now)
    lvid.u32(28, 1)  // close
    lvid.u64(40, layout.nextUniqueID)
    lvid.u32(72, 2)
    lvid.u32(76, 46)
    // Free space and size tables (physical partition, metadata partition).
    lvid.u32(80, 0)
    lvid.u32(84, layout.metadataBlocks - layout.metadataUsedBlocks)
    lvid.u32(88, layout.partitionLength)
    lvid.u32(92, layout.metadataBlocks)
    let use = 96
    lvid.entity(use, .implementation)
    lvid.u32(use + 32, UInt32(truncatingIfNeeded: writer.fileCount))
    lvid.u32(use + 36, UInt32(truncatingIfNeeded: writer.directoryCount))
    lvid.u16(use + 40, 0x0250)  // UDF 2.60 without pseudo-overwrite reads as 2.50
    lvid.u16(use + 42, revision)
    lvid.u16(use + 44, revision)
    lvid.finishTag(
      identifier: .logicalVolumeIntegrity, location: UDFImageWriter.Layout.integritySequence,
      length: use + 46)
    return lvid.bytes
  }

  // MARK: Metadata partition

  /// Writes a metadata-partition block to the Metadata File and to its mirror.
  func putMetadata(_ bytes: [UInt8], block: UInt32) throws(DiscKitError) {
    let start = UInt64(UDFImageWriter.Layout.partitionStart)
    try put(bytes, sector: start + UInt64(layout.metadataStart) + UInt64(block))
    try put(bytes, sector: start + UInt64(layout.mirrorStart) + UInt64(block))
  }

  func writeMetadata() throws(DiscKitError) {
    // File Set Descriptor (4/14.1, UDF 2.3.2) and its Terminating Descriptor.
    var fsd = DescriptorBuffer()
    fsd.timestamp(16, now)
    fsd.u16(28, 3)
    fsd.u16(30, 3)
    fsd.u32(32, 1)
    fsd.u32(36, 1)
    fsd.osta(48)
    fsd.dstring(112, size: 128, OSTACompressedUnicode.encode(label))
    fsd.osta(240)
    fsd.dstring(304, size: 32, OSTACompressedUnicode.encodeTruncating(label, maxBytes: 31))
    fsd.longAD(
      400, length: 2048, block: nodes[0].entryBlock, partition: Self.metadataPartition, uniqueID: 0)
    fsd.entity(416, .domain("*OSTA UDF Compliant", revision: revision))
    fsd.finishTag(identifier: .fileSet, location: 0, length: 512)
    try putMetadata(fsd.bytes, block: 0)
    try putMetadata(terminating(at: 1), block: 1)

    for index in nodes.indices {
      if nodes[index].isDirectory {
        try writeDirectory(index)
      } else {
        try writeFileEntries(index)
      }
    }

    // The Metadata File and Metadata Mirror File entries, in the physical partition.
    let start = UInt64(UDFImageWriter.Layout.partitionStart)
    for (location, type, dataStart) in [
      (layout.metadataFileEntry, UInt8(250), layout.metadataStart),
      (layout.mirrorFileEntry, UInt8(251), layout.mirrorStart),
    ] {
      var ads: [UInt8] = []
      var remaining = UInt64(layout.metadataBlocks)
      var position = dataStart
      let maxPiece =
        UInt64(UDFConstants.maxExtentBlocks) / UInt64(UDFImageWriter.Layout.metadataUnit)
        * UInt64(UDFImageWriter.Layout.metadataUnit)
      while remaining > 0 {
        let piece = min(remaining, maxPiece)
        var ad = DescriptorBuffer(size: 8)
        ad.shortAD(0, length: UInt32(piece * 2048), position: position)
        ads += ad.bytes
        position += UInt32(piece)
        remaining -= piece
      }
      let entry = extendedFileEntry(
        location: location, fileType: type, adType: 0, descriptors: ads,
        informationLength: UInt64(layout.metadataBlocks) * 2048,
        blocksRecorded: UInt64(layout.metadataBlocks),
        linkCount: 0, permissions: 0, uniqueID: 0, time: now)
      try put(entry, sector: start + UInt64(location))
    }
  }

  /// Permissions (4/14.9.5): read (and execute for directories) for everyone.
  static let filePermissions: UInt32 = 0x04 | 0x04 << 5 | 0x04 << 10
  static let directoryPermissions: UInt32 = 0x05 | 0x05 << 5 | 0x05 << 10

  /// An Extended File Entry (4/14.17, UDF 2.3.6) with `descriptors` as its allocation
  /// descriptors.
  func extendedFileEntry(
    location: UInt32, fileType: UInt8, adType: UInt16, descriptors: [UInt8],
    informationLength: UInt64,
    blocksRecorded: UInt64, linkCount: UInt16, permissions: UInt32, uniqueID: UInt64,
    time: UDFTimestamp
  ) -> [UInt8] {
    var efe = DescriptorBuffer()
    efe.u16(16 + 4, 4)  // strategy type 4
    efe.u16(16 + 8, 1)  // maximum number of entries
    efe.u8(16 + 11, fileType)
    efe.u16(16 + 18, adType)
    efe.u32(36, 0xFFFF_FFFF)  // uid: not recorded
    efe.u32(40, 0xFFFF_FFFF)  // gid
    efe.u32(44, permissions)
    efe.u16(48, linkCount)
    efe.u64(56, informationLength)
    efe.u64(64, informationLength)
    efe.u64(72, blocksRecorded)
    efe.timestamp(80, time)
    efe.timestamp(92, time)
    efe.timestamp(104, time)
    efe.timestamp(116, time)
    efe.u32(128, 1)
    efe.entity(168, .implementation)
    efe.u64(200, uniqueID)
    efe.u32(208, 0)
    efe.u32(212, UInt32(descriptors.count))
    efe.raw(216, descriptors)
    efe.finishTag(
      identifier: .extendedFileEntry, location: location, length: 216 + descriptors.count)
    return efe.bytes
  }

  func writeDirectory(_ index: Int) throws(DiscKitError) {
    let node = nodes[index]
    var data = [UInt8](repeating: 0, count: node.directoryLength)
    var offset = 0
    func fid(name: [UInt8], characteristics: UInt8, target: SourceNode) {
      let iu = UDFImageWriter.Layout.fidImplementationUse(nameBytes: name.count, offset: offset)
      let length = UDFImageWriter.Layout.fidLength(nameBytes: name.count, implementationUse: iu)
      var fid = DescriptorBuffer(size: length)
      fid.u16(16, 1)
      fid.u8(18, characteristics)
      fid.u8(19, UInt8(name.count))
      fid.longAD(
        20, length: 2048, block: target.entryBlock, partition: Self.metadataPartition,
        uniqueID: UInt32(truncatingIfNeeded: target.uniqueID))
      fid.u16(36, UInt16(iu))
      if iu > 0 { fid.entity(38, .implementation) }
      fid.raw(38 + iu, name)
      fid.finishTag(
        identifier: .fileIdentifier, location: node.directoryBlock + UInt32(offset / 2048),
        length: length)
      data.replaceSubrange(offset..<(offset + length), with: fid.bytes)
      offset += length
    }
    fid(name: [], characteristics: 0x0A, target: nodes[node.parent])
    var subdirectories = 0
    for child in node.children {
      let isDirectory = nodes[child].isDirectory
      if isDirectory { subdirectories += 1 }
      fid(
        name: nodes[child].encodedName, characteristics: isDirectory ? 0x02 : 0x00,
        target: nodes[child])
    }
    var ad = DescriptorBuffer(size: 8)
    ad.shortAD(0, length: UInt32(node.directoryLength), position: node.directoryBlock)
    let blocks = UInt64((node.directoryLength + 2047) / 2048)
    let entry = extendedFileEntry(
      location: node.entryBlock, fileType: 4, adType: 0, descriptors: ad.bytes,
      informationLength: UInt64(node.directoryLength), blocksRecorded: blocks,
      linkCount: UInt16(truncatingIfNeeded: 1 + subdirectories),
      permissions: Self.directoryPermissions,
      uniqueID: node.uniqueID, time: node.modificationTime)
    try putMetadata(entry, block: node.entryBlock)
    data += [UInt8](repeating: 0, count: Int(blocks) * 2048 - data.count)
    var block: UInt32 = 0
    while Int(block) * 2048 < data.count {
      let slice = Array(data[(Int(block) * 2048)..<(Int(block) * 2048 + 2048)])
      try putMetadata(slice, block: node.directoryBlock + block)
      block += 1
    }
  }

  func writeFileEntries(_ index: Int) throws(DiscKitError) {
    let node = nodes[index]
    let chain = layout.chain(node.extents.count)
    var next = 0
    var descriptorsOf: [[UInt8]] = []
    for (position, count) in chain.enumerated() {
      var ads: [UInt8] = []
      for extent in node.extents[next..<(next + count)] {
        var ad = DescriptorBuffer(size: 16)
        ad.longAD(
          0, length: UInt32(extent.length), block: extent.block, partition: Self.physicalPartition)
        ads += ad.bytes
      }
      next += count
      if position + 1 < chain.count {
        // Pointer to the next Allocation Extent Descriptor (extent type 3).
        var ad = DescriptorBuffer(size: 16)
        ad.longAD(
          0, length: 2048, type: 3, block: node.extentDescriptorBlocks[position],
          partition: Self.metadataPartition)
        ads += ad.bytes
      }
      descriptorsOf.append(ads)
    }
    let blocks = UInt64((node.size + 2047) / 2048)
    let entry = extendedFileEntry(
      location: node.entryBlock, fileType: 5, adType: 1, descriptors: descriptorsOf.first ?? [],
      informationLength: UInt64(node.size), blocksRecorded: blocks, linkCount: 1,
      permissions: Self.filePermissions, uniqueID: node.uniqueID, time: node.modificationTime)
    try putMetadata(entry, block: node.entryBlock)
    for (k, block) in node.extentDescriptorBlocks.enumerated() {
      // Allocation Extent Descriptor (4/14.5, UDF 2.3.11).
      let ads = descriptorsOf[k + 1]
      var aed = DescriptorBuffer()
      aed.u32(16, 0)
      aed.u32(20, UInt32(ads.count))
      aed.raw(24, ads)
      aed.finishTag(identifier: .allocationExtent, location: block, length: 24 + ads.count)
      try putMetadata(aed.bytes, block: block)
    }
  }

  // MARK: File data

  func copyFileData(progress: ((Int64, Int64) -> Void)?) throws(DiscKitError) {
    let copier = SparseCopier()
    let total = writer.dataBytes
    var done: Int64 = 0
    let partition = Int64(UDFImageWriter.Layout.partitionStart)
    for node in nodes where !node.isDirectory && node.size > 0 {
      let source = open(node.localPath, O_RDONLY | O_CLOEXEC)
      guard source >= 0 else {
        throw DiscKitError(
          .cannotOpen, node.localPath, at: nil, "cannot open: \(String(cString: strerror(errno)))")
      }
      defer { close(source) }
      var info = stat()
      guard fstat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
        throw DiscKitError(.cannotOpen, node.localPath, at: nil, "is no longer a regular file")
      }
      guard Int64(info.st_size) == node.size else {
        throw DiscKitError(
          .io, node.localPath, at: nil,
          "changed size while the image was written (\(node.size) → \(info.st_size) bytes)")
      }
      let piece: Int64 = 256 << 20  // progress granularity
      for extent in node.extents {
        var offset: Int64 = 0
        while offset < extent.length {
          let length = min(piece, extent.length - offset)
          try copier.copy(
            from: source, path: node.localPath, sourceOffset: extent.fileOffset + offset,
            length: length, to: fd,
            destinationOffset: (partition + Int64(extent.block)) * 2048 + offset, imagePath: path)
          offset += length
          done += length
          progress?(done, total)
        }
      }
      guard fstat(source, &info) == 0, Int64(info.st_size) == node.size else {
        throw DiscKitError(.io, node.localPath, at: nil, "changed size while the image was written")
      }
    }
  }
}
