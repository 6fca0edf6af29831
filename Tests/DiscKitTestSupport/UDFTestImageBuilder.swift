import Foundation

/// A small, independent writer of UDF images for tests (ECMA-167 / UDF 2.50 layouts no Debian
/// tool writes): a Type 1 partition plus, optionally, a Metadata Partition with its mirror file;
/// FE or EFE; short, long or extended ADs; AED chains; embedded data; unrecorded extents;
/// fragmented and embedded directories; deleted FIDs; and deliberate damage for bad-input tests.
///
/// It shares no code with the reader: descriptors are laid out from the specification here.
package final class UDFTestImageBuilder {
  package enum Form: UInt16 {
    case short = 0
    case long = 1
    case extended = 2
    case embedded = 3
  }

  package enum Content {
    case bytes([UInt8])
    /// `size` bytes that are zero except a pattern in the first and last block of every extent.
    case sparse(Int64)
  }

  package struct File {
    package var name: String
    package var content: Content
    package var form: Form = .long
    package var useFileEntry = false
    /// Bytes per extent (a multiple of 2048).
    package var extentLimit: Int64 = 0x3FFF_F800
    /// ADs held by the entry and by each AED; more ADs start an AED chain.
    package var adsPerDescriptor: Int?
    /// Every n-th extent is allocated but not recorded (reads as zeros).
    package var holeEvery: Int?
    package var aedLoop = false
    package var extentPastEnd = false
    /// Extra bytes appended to the file entry's L_AD (absurd lengths).
    package var informationLengthOverride: UInt64?

    package init(
      name: String, content: Content, form: Form = .long, useFileEntry: Bool = false,
      extentLimit: Int64 = 0x3FFF_F800, adsPerDescriptor: Int? = nil, holeEvery: Int? = nil,
      aedLoop: Bool = false, extentPastEnd: Bool = false, informationLengthOverride: UInt64? = nil
    ) {
      self.name = name
      self.content = content
      self.form = form
      self.useFileEntry = useFileEntry
      self.extentLimit = extentLimit
      self.adsPerDescriptor = adsPerDescriptor
      self.holeEvery = holeEvery
      self.aedLoop = aedLoop
      self.extentPastEnd = extentPastEnd
      self.informationLengthOverride = informationLengthOverride
    }
  }

  package struct Directory {
    package var name: String
    package var children: [Node]
    package var fragmented = false
    package var embedded = false
    package var deletedEntries = 0
    package var selfLoop = false

    package init(
      name: String, children: [Node], fragmented: Bool = false, embedded: Bool = false,
      deletedEntries: Int = 0, selfLoop: Bool = false
    ) {
      self.name = name
      self.children = children
      self.fragmented = fragmented
      self.embedded = embedded
      self.deletedEntries = deletedEntries
      self.selfLoop = selfLoop
    }
  }

  package indirect enum Node {
    case file(File)
    case directory(Directory)
  }

  package struct Config {
    package var revision: UInt16 = 0x0250
    package var metadata = true
    package var splitMetadata = false
    package var useEFE = true
    package var corruptMainMetadataFile = false
    /// Breaks this metadata-partition block's tag in the main copy only.
    package var corruptMainCopyOfBlock: Int?
    package var vdpLoop = false
    /// A sparable partition (no metadata partition) whose packet 0 and the first data packet of
    /// each path in `relocate` are moved to a spare area recorded in the sparing table.
    package var sparable = false
    package var relocate: [String] = []
    package var label = "DiscKit Test"

    package init(
      revision: UInt16 = 0x0250, metadata: Bool = true, splitMetadata: Bool = false,
      useEFE: Bool = true, corruptMainMetadataFile: Bool = false,
      corruptMainCopyOfBlock: Int? = nil,
      vdpLoop: Bool = false, sparable: Bool = false, relocate: [String] = [],
      label: String = "DiscKit Test"
    ) {
      self.revision = revision
      self.metadata = metadata
      self.splitMetadata = splitMetadata
      self.useEFE = useEFE
      self.corruptMainMetadataFile = corruptMainMetadataFile
      self.corruptMainCopyOfBlock = corruptMainCopyOfBlock
      self.vdpLoop = vdpLoop
      self.sparable = sparable
      self.relocate = relocate
      self.label = label
    }
  }

  package let config: Config
  package let partitionStart = 272
  package var sectors: [Int: [UInt8]] = [:]
  package var meta: [[UInt8]] = []
  package var nextPhysical: Int
  /// Where each path's file entry lives: metadata-partition block (metadata mode) or physical block.
  package var entryBlocks: [String: Int] = [:]
  /// The expected bytes of every small file, by path.
  package var expected: [String: [UInt8]] = [:]
  package var metadataMainBlocks: [Int] = []
  package var metadataMirrorStart = 0
  /// The first data block of each file (partition-relative).
  package var firstDataBlock: [String: Int] = [:]
  package var relocations: [(original: Int, mapped: Int)] = []
  package let sparingTableSector = 200
  package var totalSectors = 0

  package var metaRef: UInt16 { config.metadata ? 1 : 0 }

  package init(_ config: Config = Config()) {
    self.config = config
    nextPhysical = config.metadata ? 2 : 0
  }

  // MARK: Building

  /// Builds the image for a root directory's children.
  package func build(_ children: [Node], root: Directory? = nil) {
    let fsd = allocMeta()
    let rootFE = allocMeta()
    var rootDir = root ?? Directory(name: "", children: [])
    rootDir.children = children
    placeDirectory(rootDir, path: "", feBlock: rootFE, parentFE: rootFE)
    var d = zeros(512)
    put16(&d, 28, 3)
    put16(&d, 30, 3)
    put32(&d, 32, 1)
    put32(&d, 36, 1)
    d.replaceSubrange(112..<240, with: dstring(config.label, 128))
    d.replaceSubrange(304..<336, with: dstring("DiscKit FS", 32))
    d.replaceSubrange(400..<416, with: longAD(2048, UInt32(rootFE), metaRef))
    d.replaceSubrange(416..<448, with: regid("*OSTA UDF Compliant", suffix: revisionSuffix))
    finishTag(&d, id: 256, location: UInt32(fsd), crcLength: 496)
    writeMeta(fsd, d)
    if config.metadata { placeMetadata() }
    let partitionLength = (nextPhysical + 16 + 31) / 32 * 32
    totalSectors = partitionStart + partitionLength + 1
    if config.sparable { relocatePackets() }
    writeVolumeStructures(partitionLength: partitionLength)
  }

  package var revisionSuffix: [UInt8] {
    [UInt8(config.revision & 0xFF), UInt8(config.revision >> 8), 0]
  }

  package func allocPhysical(_ count: Int) -> Int {
    defer { nextPhysical += count }
    return nextPhysical
  }

  package func allocMeta() -> Int {
    guard config.metadata else { return allocPhysical(1) }
    meta.append(zeros(2048))
    return meta.count - 1
  }

  package func writeMeta(_ block: Int, _ bytes: [UInt8]) {
    if config.metadata {
      meta[block] = padded(bytes)
    } else {
      sectors[partitionStart + block] = padded(bytes)
    }
  }

  package func writePhysical(_ block: Int, _ bytes: [UInt8]) {
    sectors[partitionStart + block] = padded(bytes)
  }

  /// The absolute byte offset of a metadata-partition (or physical, without metadata) block.
  package func absoluteOffset(ofMetaBlock block: Int) -> Int64 {
    guard config.metadata else { return Int64(partitionStart + block) * 2048 }
    return Int64(partitionStart + metadataMainBlocks[block]) * 2048
  }

  /// The absolute byte offset of the file entry of `path` (`""` for the root).
  package func entryOffset(_ path: String) -> Int64 {
    absoluteOffset(ofMetaBlock: entryBlocks[path] ?? 0)
  }

  package func placeDirectory(_ dir: Directory, path: String, feBlock: Int, parentFE: Int) {
    entryBlocks[path] = feBlock
    var fids: [(chars: UInt8, name: [UInt8], icb: Int)] = [(0x0A, [], parentFE)]
    for index in 0..<dir.deletedEntries { fids.append((0x04, cs0("deleted \(index)"), feBlock)) }
    for child in dir.children {
      let block = allocMeta()
      switch child {
      case .file(let file):
        placeFile(file, path: path + "/" + file.name, feBlock: block)
        fids.append((0, cs0(file.name), block))
      case .directory(let sub):
        placeDirectory(sub, path: path + "/" + sub.name, feBlock: block, parentFE: feBlock)
        fids.append((0x02, cs0(sub.name), block))
      }
    }
    if dir.selfLoop { fids.append((0x02, cs0("loop"), feBlock)) }
    let sizes = fids.map { (38 + $0.name.count + 3) & ~3 }
    let total = sizes.reduce(0, +)
    var blocks: [Int] = []
    if dir.embedded {
      blocks = [feBlock]
    } else {
      for _ in 0..<max(1, (total + 2047) / 2048) {
        blocks.append(allocMeta())
        if dir.fragmented { _ = allocMeta() }
      }
    }
    var data: [UInt8] = []
    for (index, fid) in fids.enumerated() {
      let location = dir.embedded ? feBlock : blocks[data.count / 2048]
      var d = zeros(sizes[index])
      put16(&d, 16, 1)
      d[18] = fid.chars
      d[19] = UInt8(fid.name.count)
      d.replaceSubrange(20..<36, with: longAD(2048, UInt32(fid.icb), metaRef))
      d.replaceSubrange(38..<38 + fid.name.count, with: fid.name)
      finishTag(&d, id: 257, location: UInt32(location), crcLength: sizes[index] - 16)
      data += d
    }
    if dir.embedded {
      writeMeta(
        feBlock,
        fileEntry(block: feBlock, type: 4, form: .embedded, length: UInt64(total), ads: data))
      return
    }
    var ads: [UInt8] = []
    for (index, block) in blocks.enumerated() {
      let start = index * 2048
      let chunk = Array(data[start..<min(data.count, start + 2048)])
      writeMeta(block, chunk)
      if dir.fragmented || index == 0 {
        ads += ad(
          .short, type: 0, length: UInt32(dir.fragmented ? chunk.count : total),
          block: UInt32(block), partition: metaRef)
      }
    }
    writeMeta(
      feBlock, fileEntry(block: feBlock, type: 4, form: .short, length: UInt64(total), ads: ads))
  }

  package func placeFile(_ file: File, path: String, feBlock: Int) {
    entryBlocks[path] = feBlock
    let size: Int64
    var bytes: [UInt8]?
    switch file.content {
    case .bytes(let b):
      size = Int64(b.count)
      bytes = b
    case .sparse(let s): size = s
    }
    if file.form == .embedded, let b = bytes {
      expected[path] = b
      writeMeta(
        feBlock,
        fileEntry(
          block: feBlock, type: 5, form: .embedded, length: UInt64(b.count), ads: b,
          fe: file.useFileEntry))
      return
    }
    var shown = bytes
    var descriptors: [[UInt8]] = []
    var offset: Int64 = 0
    var index = 0
    let dataPartition: UInt16 = 0
    while offset < size {
      let length = min(file.extentLimit, size - offset)
      let count = Int((length + 2047) / 2048)
      let hole = file.holeEvery.map { index % $0 == $0 - 1 } ?? false
      var block = 0
      if hole {
        if shown != nil { for i in Int(offset)..<Int(offset + length) { shown?[i] = 0 } }
      } else {
        block = allocPhysical(count)
        if firstDataBlock[path] == nil { firstDataBlock[path] = block }
        if let b = bytes {
          for k in 0..<count {
            let start = Int(offset) + k * 2048
            writePhysical(block + k, Array(b[start..<min(Int(offset + length), start + 2048)]))
          }
        } else {
          writePhysical(block, pattern(index, first: true))
          writePhysical(block + count - 1, pattern(index, first: false))
        }
      }
      if file.extentPastEnd && offset + length >= size { block = 0x7FFF_0000 }
      descriptors.append(
        ad(
          file.form, type: hole ? 1 : 0, length: UInt32(length), block: UInt32(block),
          partition: dataPartition))
      offset += length
      index += 1
    }
    if let shown { expected[path] = shown }
    // Entry ADs, then AED chain.
    let per = file.adsPerDescriptor ?? descriptors.count
    var groups: [[[UInt8]]] = stride(from: 0, to: descriptors.count, by: max(1, per)).map {
      Array(descriptors[$0..<min(descriptors.count, $0 + max(1, per))])
    }
    if groups.isEmpty { groups = [[]] }
    let aedBlocks = (1..<groups.count).map { _ in allocMeta() }
    func pointer(_ block: Int) -> [UInt8] {
      ad(file.form, type: 3, length: 2048, block: UInt32(block), partition: metaRef)
    }
    for (index, block) in aedBlocks.enumerated() {
      var ads = groups[index + 1].flatMap { $0 }
      if index + 1 < aedBlocks.count {
        ads += pointer(aedBlocks[index + 1])
      } else if file.aedLoop {
        ads += pointer(block)
      }
      var d = zeros(24 + ads.count)
      put32(&d, 20, UInt32(ads.count))
      d.replaceSubrange(24..<24 + ads.count, with: ads)
      finishTag(&d, id: 258, location: UInt32(block), crcLength: 8 + ads.count)
      writeMeta(block, d)
    }
    var ads = groups[0].flatMap { $0 }
    if let first = aedBlocks.first {
      ads += pointer(first)
    } else if file.aedLoop {
      ads += pointer(feBlock)
    }
    writeMeta(
      feBlock,
      fileEntry(
        block: feBlock, type: 5, form: file.form,
        length: file.informationLengthOverride ?? UInt64(size), ads: ads,
        fe: file.useFileEntry))
  }

  package func relocatePackets() {
    var packets: [Int] = [0]
    for path in config.relocate {
      if let block = firstDataBlock[path] { packets.append(block - block % 32) }
    }
    let unique = Set(packets).sorted()
    let spare = totalSectors
    totalSectors += 32 * unique.count + 1  // the spare area, then the last anchor
    for (index, packet) in unique.enumerated() {
      for k in 0..<32 {
        sectors[spare + index * 32 + k] = sectors[partitionStart + packet + k] ?? zeros(2048)
        sectors[partitionStart + packet + k] = [UInt8](repeating: 0xEE, count: 2048)
      }
      relocations.append((packet, spare + index * 32))
    }
    var d = zeros(56 + (relocations.count + 2) * 8)
    d.replaceSubrange(16..<48, with: regid("*UDF Sparing Table", suffix: revisionSuffix))
    put16(&d, 48, UInt16(relocations.count + 2))
    put32(&d, 52, 1)
    for (index, entry) in relocations.enumerated() {
      put32(&d, 56 + index * 8, UInt32(entry.original))
      put32(&d, 60 + index * 8, UInt32(entry.mapped))
    }
    for index in relocations.count..<relocations.count + 2 {
      put32(&d, 56 + index * 8, 0xFFFF_FFF0)
    }
    finishTag(&d, id: 0, location: UInt32(sparingTableSector), crcLength: d.count - 16)
    sectors[sparingTableSector] = padded(d)
  }

  package func pattern(_ index: Int, first: Bool) -> [UInt8] {
    (0..<2048).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index &* 7 &+ (first ? 1 : 101)) }
  }

  package func fileEntry(
    block: Int, type: UInt8, form: Form, length: UInt64, ads: [UInt8], fe: Bool = false
  ) -> [UInt8] {
    let efe = config.useEFE && !fe
    let header = efe ? 216 : 176
    var d = zeros(header + ads.count)
    put32(&d, 20 - 4, 0)
    put16(&d, 20, 4)
    put16(&d, 24, 1)
    d[27] = type
    put16(&d, 34, form.rawValue)
    put32(&d, 36, 0xFFFF_FFFF)
    put32(&d, 40, 0xFFFF_FFFF)
    put32(&d, 44, 0x14A5)
    put16(&d, 48, 1)
    put64(&d, 56, length)
    let recorded = form == .embedded ? 0 : (length + 2047) / 2048
    if efe {
      put64(&d, 64, length)
      put64(&d, 72, recorded)
      put32(&d, 212, UInt32(ads.count))
    } else {
      put64(&d, 64, recorded)
      put32(&d, 172, UInt32(ads.count))
    }
    d.replaceSubrange(header..<header + ads.count, with: ads)
    finishTag(&d, id: efe ? 266 : 261, location: UInt32(block), crcLength: header + ads.count - 16)
    return d
  }

  package func placeMetadata() {
    let m = meta.count
    if config.splitMetadata && m > 1 {
      let half = m / 2
      let first = allocPhysical(half)
      _ = allocPhysical(5)  // a gap so the two extents are not contiguous
      let second = allocPhysical(m - half)
      metadataMainBlocks = Array(first..<first + half) + Array(second..<second + m - half)
    } else {
      let first = allocPhysical(m)
      metadataMainBlocks = Array(first..<first + m)
    }
    metadataMirrorStart = allocPhysical(m)
    for (index, block) in meta.enumerated() {
      var mainCopy = block
      if config.corruptMainCopyOfBlock == index { mainCopy[4] &+= 1 }
      writePhysical(metadataMainBlocks[index], mainCopy)
      writePhysical(metadataMirrorStart + index, block)
    }
    // The metadata file's extents: runs of consecutive physical blocks.
    var mainADs: [UInt8] = []
    var runStart = 0
    for index in 1...m
    where index == m || metadataMainBlocks[index] != metadataMainBlocks[index - 1] + 1 {
      mainADs += ad(
        .short, type: 0, length: UInt32((index - runStart) * 2048),
        block: UInt32(metadataMainBlocks[runStart]), partition: 0)
      runStart = index
    }
    let mirrorADs = ad(
      .short, type: 0, length: UInt32(m * 2048), block: UInt32(metadataMirrorStart), partition: 0)
    let length = UInt64(m * 2048)
    var mainEntry = metadataEntry(block: 0, type: 250, length: length, ads: mainADs)
    if config.corruptMainMetadataFile { mainEntry[4] &+= 1 }
    writePhysical(0, mainEntry)
    writePhysical(1, metadataEntry(block: 1, type: 251, length: length, ads: mirrorADs))
  }

  package func metadataEntry(block: Int, type: UInt8, length: UInt64, ads: [UInt8]) -> [UInt8] {
    var d = zeros(216 + ads.count)
    put16(&d, 20, 4)
    put16(&d, 24, 1)
    d[27] = type
    put16(&d, 34, 0)
    put16(&d, 48, 1)
    put64(&d, 56, length)
    put64(&d, 64, length)
    put64(&d, 72, length / 2048)
    put32(&d, 212, UInt32(ads.count))
    d.replaceSubrange(216..<216 + ads.count, with: ads)
    finishTag(&d, id: 266, location: UInt32(block), crcLength: 200 + ads.count)
    return d
  }

  package func writeVolumeStructures(partitionLength: Int) {
    let nsr = config.revision >= 0x0200 ? "NSR03" : "NSR02"
    for (sector, id) in [(16, "BEA01"), (17, nsr), (18, "TEA01")] {
      sectors[sector] = padded([0] + Array(id.utf8) + [1])
    }
    for (start, reserve) in [(32, false), (48, true)] {
      var s = start
      func emit(_ id: UInt16, _ body: [UInt8], crc: Int = 496) {
        var d = body
        finishTag(&d, id: id, location: UInt32(s), crcLength: crc)
        sectors[s] = padded(d)
        s += 1
      }
      var pvd = zeros(512)
      put32(&pvd, 16, 1)
      pvd.replaceSubrange(24..<56, with: dstring(config.label, 32))
      put16(&pvd, 56, 1)
      put16(&pvd, 58, 1)
      put16(&pvd, 60, 2)
      put16(&pvd, 62, 3)
      put32(&pvd, 64, 1)
      put32(&pvd, 68, 1)
      pvd.replaceSubrange(72..<200, with: dstring("DiscKit Set", 128))
      emit(1, pvd)
      if config.vdpLoop {
        var vdp = zeros(512)
        put32(&vdp, 16, 2)
        put32(&vdp, 20, 16 * 2048)
        put32(&vdp, 24, UInt32(start))
        emit(3, vdp)
        continue
      }
      var iuvd = zeros(512)
      put32(&iuvd, 16, 2)
      iuvd.replaceSubrange(20..<52, with: regid("*UDF LV Info", suffix: revisionSuffix))
      emit(4, iuvd)
      var pd = zeros(512)
      put32(&pd, 16, 3)
      put16(&pd, 20, 1)
      put16(&pd, 22, 0)
      pd.replaceSubrange(
        24..<56, with: regid(config.revision >= 0x0200 ? "+NSR03" : "+NSR02", suffix: []))
      put32(&pd, 184, 1)
      put32(&pd, 188, UInt32(partitionStart))
      put32(&pd, 192, UInt32(partitionLength))
      emit(5, pd)
      var maps: [UInt8] = [1, 6, 1, 0, 0, 0]
      if config.sparable {
        maps = zeros(64)
        maps[0] = 2
        maps[1] = 64
        maps.replaceSubrange(4..<36, with: regid("*UDF Sparable Partition", suffix: revisionSuffix))
        put16(&maps, 36, 1)
        put16(&maps, 38, 0)
        put16(&maps, 40, 32)
        maps[42] = 1
        put32(&maps, 44, 2048)
        put32(&maps, 48, UInt32(sparingTableSector))
      }
      if config.metadata {
        var m = zeros(64)
        m[0] = 2
        m[1] = 64
        m.replaceSubrange(4..<36, with: regid("*UDF Metadata Partition", suffix: revisionSuffix))
        put16(&m, 36, 1)
        put16(&m, 38, 0)
        put32(&m, 40, 0)
        put32(&m, 44, 1)
        put32(&m, 48, 0xFFFF_FFFF)
        put32(&m, 52, 32)
        put16(&m, 56, 1)
        maps += m
      }
      var lvd = zeros(440 + maps.count)
      put32(&lvd, 16, 4)
      lvd.replaceSubrange(84..<212, with: dstring(config.label, 128))
      put32(&lvd, 212, 2048)
      lvd.replaceSubrange(216..<248, with: regid("*OSTA UDF Compliant", suffix: revisionSuffix))
      lvd.replaceSubrange(248..<264, with: longAD(2048, 0, metaRef))
      put32(&lvd, 264, UInt32(maps.count))
      put32(&lvd, 268, config.metadata ? 2 : 1)
      lvd.replaceSubrange(440..<440 + maps.count, with: maps)
      emit(6, lvd, crc: 440 + maps.count - 16)
      var usd = zeros(24)
      put32(&usd, 16, 5)
      emit(7, usd, crc: 8)
      emit(8, zeros(512))
      _ = reserve
    }
    var avdp = zeros(512)
    put32(&avdp, 16, 16 * 2048)
    put32(&avdp, 20, 32)
    put32(&avdp, 24, 16 * 2048)
    put32(&avdp, 28, 48)
    for location in [256, totalSectors - 1] {
      var d = avdp
      finishTag(&d, id: 2, location: UInt32(location), crcLength: 496)
      sectors[location] = padded(d)
    }
  }

  // MARK: Output

  /// The image in memory (small images only).
  package func imageBytes() -> [UInt8] {
    var image = [UInt8](repeating: 0, count: totalSectors * 2048)
    for (sector, block) in sectors where sector < totalSectors {
      image.replaceSubrange(sector * 2048..<sector * 2048 + 2048, with: block)
    }
    return image
  }

  /// Writes the image (sparse) to `path`.
  package func write(to path: String) throws {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    for sector in sectors.keys.sorted() where sector < totalSectors {
      try handle.seek(toOffset: UInt64(sector) * 2048)
      try handle.write(contentsOf: sectors[sector] ?? [])
    }
    try handle.truncate(atOffset: UInt64(totalSectors) * 2048)
  }

  // MARK: Encoding helpers

  package func ad(_ form: Form, type: UInt8, length: UInt32, block: UInt32, partition: UInt16)
    -> [UInt8]
  {
    var d: [UInt8]
    let raw = length | UInt32(type) << 30
    switch form {
    case .short, .embedded:
      d = zeros(8)
      put32(&d, 0, raw)
      put32(&d, 4, block)
    case .long:
      d = longAD(raw, block, partition)
    case .extended:
      d = zeros(20)
      put32(&d, 0, raw)
      put32(&d, 4, type == 0 ? length : 0)
      put32(&d, 8, length)
      put32(&d, 12, block)
      put16(&d, 16, partition)
    }
    return d
  }

  package func longAD(_ raw: UInt32, _ block: UInt32, _ partition: UInt16) -> [UInt8] {
    var d = zeros(16)
    put32(&d, 0, raw)
    put32(&d, 4, block)
    put16(&d, 8, partition)
    return d
  }

  package func cs0(_ name: String) -> [UInt8] {
    if name.unicodeScalars.allSatisfy({ $0.value < 0x100 }) {
      return [8] + name.unicodeScalars.map { UInt8($0.value) }
    }
    return [16] + name.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
  }

  package func dstring(_ text: String, _ size: Int) -> [UInt8] {
    var d = zeros(size)
    let body = Array(cs0(text).prefix(size - 1))
    d.replaceSubrange(0..<body.count, with: body)
    d[size - 1] = UInt8(body.count)
    return d
  }

  package func regid(_ id: String, suffix: [UInt8]) -> [UInt8] {
    var d = zeros(32)
    let bytes = Array(id.utf8.prefix(23))
    d.replaceSubrange(1..<1 + bytes.count, with: bytes)
    d.replaceSubrange(24..<24 + suffix.count, with: suffix)
    return d
  }

  package func finishTag(_ d: inout [UInt8], id: UInt16, location: UInt32, crcLength: Int) {
    put16(&d, 0, id)
    put16(&d, 2, config.revision >= 0x0200 ? 3 : 2)
    put16(&d, 6, 1)
    put16(&d, 8, Self.crc(d[16..<16 + crcLength]))
    put16(&d, 10, UInt16(crcLength))
    put32(&d, 12, location)
    Self.fixChecksum(&d)
  }

  package static func fixChecksum(_ d: inout [UInt8]) {
    var sum: UInt8 = 0
    for index in 0..<16 where index != 4 { sum &+= d[index] }
    d[4] = sum
  }

  /// CRC-ITU-T as ECMA-167 7.2.6 describes it, bit by bit.
  package static func crc(_ bytes: ArraySlice<UInt8>) -> UInt16 {
    var crc: UInt16 = 0
    for byte in bytes {
      crc ^= UInt16(byte) << 8
      for _ in 0..<8 { crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
    }
    return crc
  }

  package func zeros(_ n: Int) -> [UInt8] { [UInt8](repeating: 0, count: n) }
  package func padded(_ b: [UInt8]) -> [UInt8] {
    b.count >= 2048 ? Array(b.prefix(2048)) : b + zeros(2048 - b.count)
  }
  package func put16(_ d: inout [UInt8], _ at: Int, _ v: UInt16) {
    d[at] = UInt8(v & 0xFF)
    d[at + 1] = UInt8(v >> 8)
  }
  package func put32(_ d: inout [UInt8], _ at: Int, _ v: UInt32) {
    for i in 0..<4 { d[at + i] = UInt8((v >> (8 * UInt32(i))) & 0xFF) }
  }
  package func put64(_ d: inout [UInt8], _ at: Int, _ v: UInt64) {
    for i in 0..<8 { d[at + i] = UInt8((v >> (8 * UInt64(i))) & 0xFF) }
  }
}
