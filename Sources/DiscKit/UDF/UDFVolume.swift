/// How the logical blocks of one partition reference become bytes of the image.
enum UDFPartitionMapping: Sendable {
  /// A physical partition (type 1 map, or the physical side of a sparable map): block `b` is
  /// sector `start + b`.
  case physical(start: Int64, length: UInt32, sparing: UDFSparing? = nil)
  /// A metadata partition (UDF 2.50+): block `b` is block `b` of the metadata file, read
  /// through all of its extents; `mirror` is the Metadata Mirror File's mapping.
  case metadata(main: UDFBlockRuns?, mirror: UDFBlockRuns?)
}

/// The relocations of a sparable partition (UDF 2.2.9, 2.2.12): packets of `packetLength`
/// blocks whose first block is a key are read from the mapped absolute sector instead.
struct UDFSparing: Sendable {
  var packetLength: Int64
  var relocations: [UInt32: Int64]
}

/// The extents of a metadata file as runs of blocks: metadata block `starts[i] + k` is block
/// `blocks[i] + k` of the (physical or sparable) partition reference `partition`, or unrecorded
/// when `blocks[i]` is negative.
struct UDFBlockRuns: Sendable {
  /// The absolute offset of the metadata file's entry (for errors).
  var entryOffset: Int64 = 0
  /// The partition reference the metadata file's extents lie in.
  var partition: UInt16 = 0
  var starts: [Int64] = []
  var blocks: [Int64] = []
  var offsets: [Int64] = []
  var counts: [Int64] = []

  /// The run containing `block`, or `nil`.
  func run(containing block: Int64) -> Int? {
    var lo = 0
    var hi = starts.count - 1
    guard hi >= 0 else { return nil }
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if starts[mid] <= block { lo = mid } else { hi = mid - 1 }
    }
    guard starts[lo] <= block, block - starts[lo] < counts[lo] else { return nil }
    return lo
  }
}

/// A piece of a file: `length` bytes at absolute image offset `offset`, or zeros when `nil`.
struct UDFPiece: Sendable {
  var offset: Int64?
  var length: Int64
}

/// An opened UDF logical volume: the image, its partitions and the root directory's ICB.
///
/// Immutable after ``init(source:limits:)``; safe to share between threads.
final class UDFVolume: Sendable {
  static let blockSize: Int64 = 2048

  let source: any ByteSource
  let limits: ParsingLimits
  let mappings: [UDFPartitionMapping]
  let logicalVolume: UDFLogicalVolumeDescriptor
  let primaryVolume: UDFPrimaryVolumeDescriptor?
  let rootICB: UDFLongAD
  let fileSetDomain: UDFEntityIdentifier?
  /// Deviations read leniently (as libudfread reads them), noted as files are opened.
  let deviations = UDFDeviationLog()

  init(source: any ByteSource, limits: ParsingLimits) throws(DiscKitError) {
    self.source = source
    self.limits = limits
    let sequence = try Self.readVolumeDescriptors(source: source, limits: limits)
    let lvd = sequence.lvd
    logicalVolume = lvd
    primaryVolume = sequence.pvd
    mappings = try Self.buildMappings(source: source, limits: limits, sequence: sequence)
    // The File Set Descriptor and the root directory's ICB.
    let fsdAt = lvd.fileSetLocation
    let (_, fsd) = try Self.readDescriptor(
      source: source, mappings: mappings, partition: fsdAt.partition, block: fsdAt.block,
      expected: [UDFTagIdentifier.fileSet], structure: "UDF File Set Descriptor",
      from: lvd.offset + 248)
    var rootReader = try fsd.slice(atRelative: 400, count: 16)
    rootICB = try UDFLongAD(parsing: &rootReader)
    var domainReader = try fsd.slice(atRelative: 416, count: 32)
    fileSetDomain = try? UDFEntityIdentifier(parsing: &domainReader)
  }

  // MARK: Volume recognition, anchor, volume descriptor sequence

  /// Whether the volume recognition sequence (from sector 16) has BEA01 then NSR02/NSR03
  /// before any TEA01.
  static func hasRecognitionSequence(_ source: any ByteSource) throws(DiscKitError) -> Bool {
    var sawBegin = false
    for sector in Int64(16)..<Int64(16 + 64) {
      let offset = sector * blockSize
      guard offset + 7 <= source.size else { return false }
      let head = try source.bytes(
        at: offset, count: 7, structure: "UDF volume recognition sequence")
      let id = String(decoding: head[1..<6], as: UTF8.self)
      switch id {
      case "BEA01": sawBegin = true
      case "NSR02", "NSR03": if sawBegin { return true }
      case "TEA01": return false
      case "CD001", "BOOT2", "CDW02": continue
      default: return false
      }
    }
    return false
  }

  struct Sequence: Sendable {
    var pvd: UDFPrimaryVolumeDescriptor?
    var lvd: UDFLogicalVolumeDescriptor
    var partitions: [UInt16: UDFPartitionDescriptor]
  }

  /// Finds an anchor (sector 256, the last sector, last - 256) and reads its main volume
  /// descriptor sequence, or its reserve sequence when the main one is bad or incomplete.
  static func readVolumeDescriptors(source: any ByteSource, limits: ParsingLimits)
    throws(DiscKitError) -> Sequence
  {
    let sectors = source.size / blockSize
    var candidates: [Int64] = [256]
    if sectors - 1 > 256 { candidates.append(sectors - 1) }
    if sectors - 257 > 256 { candidates.append(sectors - 257) }
    var firstError: DiscKitError?
    for sector in candidates {
      do throws(DiscKitError) {
        let reader = try source.reader(
          at: sector * blockSize, count: Int(blockSize),
          structure: "UDF Anchor Volume Descriptor Pointer")
        _ = try UDFDescriptorTag.verified(
          reader, expected: [UDFTagIdentifier.anchor], location: UInt32(truncatingIfNeeded: sector))
        var body = reader
        let anchor = try UDFAnchor(parsing: &body)
        do throws(DiscKitError) {
          return try readSequence(
            source: source, limits: limits, extent: anchor.mainSequence, name: "main")
        } catch {
          if firstError == nil { firstError = error }
          return try readSequence(
            source: source, limits: limits, extent: anchor.reserveSequence, name: "reserve")
        }
      } catch {
        if firstError == nil { firstError = error }
      }
    }
    throw firstError
      ?? DiscKitError(
        .malformed, "UDF Anchor Volume Descriptor Pointer", at: 256 * blockSize, "no anchor found")
  }

  /// Reads one volume descriptor sequence, following Volume Descriptor Pointers.
  static func readSequence(
    source: any ByteSource, limits: ParsingLimits, extent start: UDFExtentAD, name: String
  )
    throws(DiscKitError) -> Sequence
  {
    let structure = "UDF \(name) volume descriptor sequence"
    var pvd: UDFPrimaryVolumeDescriptor?
    var lvd: UDFLogicalVolumeDescriptor?
    var partitions: [UInt16: UDFPartitionDescriptor] = [:]
    var extent = start
    var visited: Set<UInt32> = [start.location]
    var hops = 0
    var count = 0
    walk: while true {
      let sectors = Int64(extent.length) / blockSize
      var index: Int64 = 0
      while index < sectors {
        count += 1
        let sector = Int64(extent.location) + index
        let offset = sector * blockSize
        guard count <= limits.maxVolumeDescriptors else {
          throw DiscKitError.limit(
            structure, at: offset, "more than \(limits.maxVolumeDescriptors) descriptors")
        }
        let reader = try source.reader(at: offset, count: Int(blockSize), structure: structure)
        if reader.window.allSatisfy({ $0 == 0 }) { break walk }
        let tag = try UDFDescriptorTag.verified(
          reader, expected: [1, 3, 4, 5, 6, 7, 8], location: UInt32(truncatingIfNeeded: sector))
        var body = reader
        switch tag.identifier {
        case UDFTagIdentifier.primaryVolume:
          body.structure = "UDF Primary Volume Descriptor"
          let descriptor = try UDFPrimaryVolumeDescriptor(parsing: &body)
          if pvd.map({ $0.sequenceNumber <= descriptor.sequenceNumber }) ?? true {
            pvd = descriptor
          }
        case UDFTagIdentifier.partition:
          body.structure = "UDF Partition Descriptor"
          let descriptor = try UDFPartitionDescriptor(parsing: &body)
          if partitions[descriptor.number].map({ $0.sequenceNumber <= descriptor.sequenceNumber })
            ?? true
          {
            partitions[descriptor.number] = descriptor
          }
        case UDFTagIdentifier.logicalVolume:
          body.structure = "UDF Logical Volume Descriptor"
          let descriptor = try UDFLogicalVolumeDescriptor(parsing: &body)
          if lvd.map({ $0.sequenceNumber <= descriptor.sequenceNumber }) ?? true {
            lvd = descriptor
          }
        case UDFTagIdentifier.volumePointer:
          var pointer = try reader.slice(
            atRelative: 20, count: 8, structure: "UDF Volume Descriptor Pointer")
          let next = try UDFExtentAD(parsing: &pointer)
          hops += 1
          guard hops <= limits.maxDescriptorPointerHops else {
            throw DiscKitError.limit(
              "UDF Volume Descriptor Pointer", at: offset,
              "more than \(limits.maxDescriptorPointerHops) pointer hops")
          }
          guard visited.insert(next.location).inserted else {
            throw DiscKitError(
              .loop, "UDF Volume Descriptor Pointer", at: offset,
              "points back to sector \(next.location), already read in this sequence")
          }
          extent = next
          continue walk
        case UDFTagIdentifier.terminating:
          break walk
        default:
          break  // Implementation Use and Unallocated Space descriptors are not needed to read files.
        }
        index += 1
      }
      break
    }
    let at = Int64(start.location) * blockSize
    guard let lvd else {
      throw DiscKitError.malformed(structure, at: at, "no Logical Volume Descriptor")
    }
    guard !partitions.isEmpty else {
      throw DiscKitError.malformed(structure, at: at, "no Partition Descriptor")
    }
    guard lvd.blockSize == UInt32(blockSize) else {
      throw DiscKitError(
        .unsupported, "UDF Logical Volume Descriptor", at: at,
        "logical block size \(lvd.blockSize) (only 2048 is supported)")
    }
    return Sequence(pvd: pvd, lvd: lvd, partitions: partitions)
  }

  // MARK: Partitions

  static func buildMappings(source: any ByteSource, limits: ParsingLimits, sequence: Sequence)
    throws(DiscKitError) -> [UDFPartitionMapping]
  {
    let structure = "UDF Logical Volume Descriptor partition map"
    let at = sequence.lvd.offset + 440
    func physical(_ number: UInt16) throws(DiscKitError) -> UDFPartitionMapping {
      guard let pd = sequence.partitions[number] else {
        throw DiscKitError.malformed(
          structure, at: at, "no Partition Descriptor for partition number \(number)")
      }
      return .physical(start: Int64(pd.start), length: pd.length, sparing: nil)
    }
    var mappings: [UDFPartitionMapping] = []
    // First pass: physical partitions (metadata maps are read through them).
    for map in sequence.lvd.maps {
      switch map {
      case .physical(let number): mappings.append(try physical(number))
      case .sparable(let number, let packet, let tables, let size):
        guard case .physical(let start, let length, _) = try physical(number) else { continue }
        let sparing = try readSparingTable(
          source: source, limits: limits, tables: tables, size: size, packetLength: packet, at: at)
        mappings.append(.physical(start: start, length: length, sparing: sparing))
      case .metadata(let number, _, _, _): mappings.append(try physical(number))
      case .virtual:
        throw DiscKitError(
          .unsupported, structure, at: at,
          "virtual partition (VAT, used on write-once media) is not supported"
        )
      case .other(let id):
        throw DiscKitError(
          .unsupported, structure, at: at, "unknown type 2 partition map \"\(id)\"")
      }
    }
    // Second pass: metadata partitions, mapped through the physical partition they name.
    for (index, map) in sequence.lvd.maps.enumerated() {
      guard case .metadata(let number, let file, let mirror, _) = map else { continue }
      let physicalIndex =
        sequence.lvd.maps.firstIndex {
          if case .physical(let n) = $0 { return n == number }
          return false
        } ?? index
      let reference = UInt16(truncatingIfNeeded: physicalIndex)
      var mainError: DiscKitError?
      var main: UDFBlockRuns?
      do throws(DiscKitError) {
        main = try metadataRuns(
          source: source, limits: limits, mappings: mappings, partition: reference, block: file,
          type: 250,
          structure: "UDF Metadata File")
      } catch { mainError = error }
      let mirrorRuns = try? metadataRuns(
        source: source, limits: limits, mappings: mappings, partition: reference, block: mirror,
        type: 251,
        structure: "UDF Metadata Mirror File")
      if main == nil && mirrorRuns == nil, let mainError { throw mainError }
      mappings[index] = .metadata(main: main, mirror: mirrorRuns)
    }
    return mappings
  }

  /// Reads the first valid sparing table. Without any valid table the partition is read as a
  /// plain physical partition (exact when nothing was relocated).
  static func readSparingTable(
    source: any ByteSource, limits: ParsingLimits, tables: [UInt32], size: UInt32,
    packetLength: UInt16,
    at mapOffset: Int64
  ) throws(DiscKitError) -> UDFSparing {
    guard packetLength > 0 else {
      throw DiscKitError.malformed("UDF Sparable Partition map", at: mapOffset, "packet length 0")
    }
    for location in tables {
      let offset = Int64(location) * blockSize
      guard
        let head = try? source.reader(
          at: offset, count: Int(blockSize), structure: "UDF Sparing Table"),
        let entries = try? Int(head.uint16LE(atRelative: 48)),
        56 + entries * 8 <= min(max(Int(size), Int(blockSize)), limits.maxMetadataFileBytes),
        let table = try? source.reader(
          at: offset, count: max(56 + entries * 8, Int(blockSize)), structure: "UDF Sparing Table"),
        (try? UDFDescriptorTag.verified(table, expected: [0], location: location)) != nil
      else { continue }
      var relocations: [UInt32: Int64] = [:]
      for entry in 0..<entries {
        let original = try table.uint32LE(atRelative: 56 + entry * 8)
        guard original < 0xFFFF_FFF0 else { continue }
        relocations[original] = Int64(try table.uint32LE(atRelative: 60 + entry * 8))
      }
      return UDFSparing(packetLength: Int64(packetLength), relocations: relocations)
    }
    return UDFSparing(packetLength: Int64(packetLength), relocations: [:])
  }

  /// Reads the metadata (or mirror) file's Extended File Entry and turns all its extents into runs.
  static func metadataRuns(
    source: any ByteSource, limits: ParsingLimits, mappings: [UDFPartitionMapping],
    partition: UInt16,
    block: UInt32, type: UInt8, structure: String
  ) throws(DiscKitError) -> UDFBlockRuns {
    let (tag, reader) = try readDescriptor(
      source: source, mappings: mappings, partition: partition, block: block,
      expected: [UDFTagIdentifier.extendedFileEntry, UDFTagIdentifier.fileEntry],
      structure: structure)
    var body = reader
    let entry = try UDFFileEntry(parsing: &body, identifier: tag.identifier, partition: partition)
    guard entry.fileType == type else {
      throw reader.malformed("file type \(entry.fileType), expected \(type)", atRelative: 27)
    }
    guard entry.form != .embedded else {
      throw reader.malformed("the metadata file's data is embedded in its entry", atRelative: 34)
    }
    let extents = try collectExtents(
      source: source, limits: limits, mappings: mappings, entry: entry, partition: partition)
    var runs = UDFBlockRuns()
    runs.entryOffset = entry.offset
    runs.partition = partition
    var next: Int64 = 0
    var remaining = Int64(entry.informationLength)
    for extent in extents where remaining > 0 {
      let length = min(Int64(extent.length), remaining)
      let count = (length + blockSize - 1) / blockSize
      var first: Int64 = -1
      if extent.isRecorded {
        guard extent.partition == partition else {
          throw DiscKitError.malformed(
            structure, at: extent.descriptorOffset,
            "metadata file extent lies in partition \(extent.partition), not in its own partition \(partition)"
          )
        }
        // Checked now so that a damaged metadata file is detected (and the mirror used) at open.
        _ = try pieces(
          mappings: mappings, imageSize: source.size, partition: partition, block: extent.block,
          length: count * blockSize, mirror: false, structure: structure,
          at: extent.descriptorOffset)
        first = Int64(extent.block)
      }
      runs.starts.append(next)
      runs.blocks.append(first)
      runs.offsets.append(extent.descriptorOffset)
      runs.counts.append(count)
      next += count
      remaining -= length
    }
    guard !runs.starts.isEmpty else {
      throw reader.malformed("metadata file has no extents", atRelative: 56)
    }
    return runs
  }

  // MARK: Reading blocks

  /// Maps `length` bytes from `block` of partition reference `partition` to pieces of the image.
  static func pieces(
    mappings: [UDFPartitionMapping], imageSize: Int64, partition: UInt16, block: UInt32,
    length: Int64,
    mirror: Bool, structure: String, at descriptorOffset: Int64?
  ) throws(DiscKitError) -> [UDFPiece] {
    guard Int(partition) < mappings.count else {
      throw DiscKitError.malformed(
        structure, at: descriptorOffset,
        "partition reference \(partition) does not exist (\(mappings.count) maps)")
    }
    switch mappings[Int(partition)] {
    case .physical(let start, _, let sparing):
      func check(_ offset: Int64, _ count: Int64) throws(DiscKitError) {
        guard offset <= imageSize, count <= imageSize - offset else {
          throw DiscKitError.malformed(
            structure, at: descriptorOffset ?? offset,
            "extent of \(length) bytes at block \(block) (byte \(offset)) lies past the end of the \(imageSize)-byte image"
          )
        }
      }
      guard let sparing, !sparing.relocations.isEmpty else {
        let offset = (start + Int64(block)) * blockSize
        try check(offset, length)
        return [UDFPiece(offset: offset, length: length)]
      }
      // Split at packet boundaries; relocated packets come from their spare location.
      var result: [UDFPiece] = []
      var current = Int64(block)
      var remaining = length
      let packet = sparing.packetLength
      while remaining > 0 {
        let within = current % packet
        let take = min(remaining, (packet - within) * blockSize)
        let offset: Int64
        if let mapped = sparing.relocations[UInt32(truncatingIfNeeded: current - within)] {
          offset = (mapped + within) * blockSize
        } else {
          offset = (start + current) * blockSize
        }
        try check(offset, take)
        if let last = result.last, let lastOffset = last.offset, lastOffset + last.length == offset
        {
          result[result.count - 1].length += take
        } else {
          result.append(UDFPiece(offset: offset, length: take))
        }
        remaining -= take
        current += packet - within
      }
      return result
    case .metadata(let main, let mirrorRuns):
      guard let runs = mirror ? mirrorRuns : (main ?? mirrorRuns) else {
        throw DiscKitError.malformed(
          structure, at: descriptorOffset ?? 0, "no readable metadata file")
      }
      var result: [UDFPiece] = []
      var current = Int64(block)
      var remaining = length
      while remaining > 0 {
        guard let index = runs.run(containing: current) else {
          throw DiscKitError.malformed(
            structure, at: descriptorOffset ?? runs.entryOffset,
            "block \(current) lies outside the metadata partition")
        }
        let within = current - runs.starts[index]
        let take = min(remaining, (runs.counts[index] - within) * blockSize)
        let first = runs.blocks[index]
        if first < 0 {
          result.append(UDFPiece(offset: nil, length: take))
        } else {
          // The metadata file lies in a physical (or sparable) partition: one level only.
          guard Int(runs.partition) < mappings.count, case .physical = mappings[Int(runs.partition)]
          else {
            throw DiscKitError.malformed(
              structure, at: runs.offsets[index],
              "the metadata file does not lie in a physical partition")
          }
          result += try pieces(
            mappings: mappings, imageSize: imageSize, partition: runs.partition,
            block: UInt32(truncatingIfNeeded: first + within), length: take, mirror: false,
            structure: structure, at: descriptorOffset ?? runs.offsets[index])
        }
        remaining -= take
        current += (take + blockSize - 1) / blockSize
      }
      return result
    }
  }

  /// Reads and verifies the one-block descriptor at `block` of `partition`. In a metadata
  /// partition a bad or unreadable descriptor is read again through the Metadata Mirror File.
  static func readDescriptor(
    source: any ByteSource, mappings: [UDFPartitionMapping], partition: UInt16, block: UInt32,
    expected: [UInt16], structure: String, from reference: Int64? = nil
  ) throws(DiscKitError) -> (UDFDescriptorTag, BinaryReader) {
    func attempt(mirror: Bool) throws(DiscKitError) -> (UDFDescriptorTag, BinaryReader) {
      let pieces = try pieces(
        mappings: mappings, imageSize: source.size, partition: partition, block: block,
        length: blockSize,
        mirror: mirror, structure: structure, at: reference)
      guard let first = pieces.first, let offset = first.offset else {
        throw DiscKitError.malformed(
          structure, at: pieces.first?.offset ?? 0,
          "block \(block) of partition \(partition) is not recorded")
      }
      let reader = try source.reader(at: offset, count: Int(blockSize), structure: structure)
      let tag = try UDFDescriptorTag.verified(reader, expected: expected, location: block)
      return (tag, reader)
    }
    do throws(DiscKitError) {
      return try attempt(mirror: false)
    } catch {
      if Int(partition) < mappings.count, case .metadata(.some, .some) = mappings[Int(partition)],
        let fallback = try? attempt(mirror: true)
      {
        return fallback
      }
      throw error
    }
  }

  func readDescriptor(
    partition: UInt16, block: UInt32, expected: [UInt16], structure: String,
    from reference: Int64? = nil
  ) throws(DiscKitError) -> (UDFDescriptorTag, BinaryReader) {
    try Self.readDescriptor(
      source: source, mappings: mappings, partition: partition, block: block, expected: expected,
      structure: structure, from: reference)
  }

  // MARK: Files

  /// Follows the Allocation Extent Descriptor chain of `entry` and returns all its extents.
  static func collectExtents(
    source: any ByteSource, limits: ParsingLimits, mappings: [UDFPartitionMapping],
    entry: UDFFileEntry,
    partition: UInt16
  ) throws(DiscKitError) -> [UDFExtent] {
    var extents = entry.allocation.extents
    var next = entry.allocation.next
    var visited: Set<UInt64> = []
    var hops = 0
    let structure = "UDF Allocation Extent Descriptor"
    while let pointer = next {
      hops += 1
      guard hops <= limits.maxAllocationExtentHops else {
        throw DiscKitError.limit(
          structure, at: pointer.descriptorOffset,
          "more than \(limits.maxAllocationExtentHops) allocation extents")
      }
      guard visited.insert(UInt64(pointer.partition) << 32 | UInt64(pointer.block)).inserted else {
        throw DiscKitError(
          .loop, structure, at: pointer.descriptorOffset,
          "the allocation extent chain returns to block \(pointer.block), already read")
      }
      let (_, reader) = try readDescriptor(
        source: source, mappings: mappings, partition: pointer.partition, block: pointer.block,
        expected: [UDFTagIdentifier.allocationExtent], structure: structure,
        from: pointer.descriptorOffset)
      let length = Int(try reader.uint32LE(atRelative: 20))
      guard length <= reader.count - 24 else {
        throw reader.malformed(
          "allocation descriptor length \(length) runs past the block", atRelative: 20)
      }
      var ads = try reader.slice(atRelative: 24, count: length)
      let list = try UDFAllocationList(parsing: &ads, form: entry.form, partition: partition)
      extents += list.extents
      guard extents.count <= limits.maxExtentsPerFile else {
        throw DiscKitError.limit(
          structure, at: reader.absoluteOffset(ofRelative: 0),
          "more than \(limits.maxExtentsPerFile) extents")
      }
      next = list.next
    }
    guard extents.count <= limits.maxExtentsPerFile else {
      throw DiscKitError.limit(
        "UDF File Entry", at: entry.offset, "more than \(limits.maxExtentsPerFile) extents")
    }
    return extents
  }

  /// The file entry at `icb`.
  /// The file entry at `icb`; `reference` is the offset of what points to it (for errors).
  func fileEntry(at icb: UDFLongAD, from reference: Int64? = nil) throws(DiscKitError)
    -> UDFFileEntry
  {
    let (tag, reader) = try readDescriptor(
      partition: icb.partition, block: icb.block,
      expected: [UDFTagIdentifier.fileEntry, UDFTagIdentifier.extendedFileEntry],
      structure: "UDF File Entry", from: reference)
    var body = reader
    return try UDFFileEntry(parsing: &body, identifier: tag.identifier, partition: icb.partition)
  }

  /// The physical partition behind the metadata partition `extent` refers to, when every block
  /// of the extent lies outside the metadata file; otherwise nil (the extent is not misplaced,
  /// or it is ambiguous).
  static func physicalPartition(
    outside extent: UDFExtent, length: Int64, mappings: [UDFPartitionMapping]
  ) -> UInt16? {
    guard Int(extent.partition) < mappings.count,
      case .metadata(let main, let mirror) = mappings[Int(extent.partition)],
      let runs = main ?? mirror,
      Int(runs.partition) < mappings.count, case .physical = mappings[Int(runs.partition)]
    else { return nil }
    let first = Int64(extent.block)
    let end = first + max(1, (length + blockSize - 1) / blockSize)
    for index in runs.starts.indices
    where runs.starts[index] < end && runs.starts[index] + runs.counts[index] > first {
      return nil
    }
    return runs.partition
  }

  /// A file's data layout: its extents (logical) and the image pieces they map to.
  struct Layout: Sendable {
    var entry: UDFFileEntry
    var icb: UDFLongAD
    /// Logical extents with their starting offset in the file, clipped to the file size.
    var extents: [(start: Int64, extent: UDFExtent)]
    var source: ConcatenatedByteSource
  }

  /// The layout of the file whose entry is at `icb`.
  func layout(of icb: UDFLongAD, entry known: UDFFileEntry? = nil, from reference: Int64? = nil)
    throws(DiscKitError) -> Layout
  {
    let entry: UDFFileEntry
    if let known { entry = known } else { entry = try fileEntry(at: icb, from: reference) }
    let size = Int64(clamping: entry.informationLength)
    if entry.form == .embedded {
      let memory = MemoryByteSource(entry.embedded)
      let source = try ConcatenatedByteSource([
        .init(source: memory, offset: 0, length: memory.size)
      ])
      return Layout(entry: entry, icb: icb, extents: [], source: source)
    }
    let all = try Self.collectExtents(
      source: source, limits: limits, mappings: mappings, entry: entry, partition: icb.partition)
    var logical: [(start: Int64, extent: UDFExtent)] = []
    var parts: [ConcatenatedByteSource.Extent] = []
    var remaining = size
    var position: Int64 = 0
    var pending: UDFPiece?
    func flush(_ piece: UDFPiece) {
      if let offset = piece.offset {
        parts.append(.init(source: source, offset: offset, length: piece.length))
      } else {
        parts.append(
          .init(source: ZeroByteSource(size: piece.length), offset: 0, length: piece.length))
      }
    }
    for extent in all where remaining > 0 {
      let length = min(Int64(extent.length), remaining)
      logical.append((position, extent))
      let pieces: [UDFPiece]
      if extent.isRecorded {
        do throws(DiscKitError) {
          pieces = try Self.pieces(
            mappings: mappings, imageSize: source.size, partition: extent.partition,
            block: extent.block,
            length: length, mirror: false, structure: "UDF allocation descriptor",
            at: extent.descriptorOffset)
        } catch {
          // A short AD of a file in the metadata partition that lies wholly outside it: its data
          // is in the physical partition (where UDF 2.50 puts file data, and where libudfread
          // reads every file's data). Anything partly inside stays an error.
          guard entry.form == .short,
            let physical = Self.physicalPartition(
              outside: extent, length: length, mappings: mappings)
          else { throw error }
          pieces = try Self.pieces(
            mappings: mappings, imageSize: source.size, partition: physical,
            block: extent.block,
            length: length, mirror: false, structure: "UDF allocation descriptor",
            at: extent.descriptorOffset)
          deviations.record(
            "UDF File Entry at byte \(entry.offset): short allocation descriptors point outside the metadata partition; read from physical partition \(physical), as libudfread does"
          )
        }
      } else {
        pieces = [UDFPiece(offset: nil, length: length)]
      }
      for piece in pieces {
        if var last = pending {
          let contiguous =
            switch (last.offset, piece.offset) {
            case (nil, nil): true
            case (.some(let a), .some(let b)): a + last.length == b
            default: false
            }
          if contiguous {
            last.length += piece.length
            pending = last
            continue
          }
          flush(last)
        }
        pending = piece
      }
      remaining -= length
      position += length
    }
    if let pending { flush(pending) }
    guard remaining == 0 else {
      throw DiscKitError.malformed(
        "UDF File Entry", at: entry.offset + 56,
        "information length \(size) is longer than the \(position) bytes its allocation descriptors cover"
      )
    }
    return Layout(
      entry: entry, icb: icb, extents: logical, source: try ConcatenatedByteSource(parts))
  }
}
