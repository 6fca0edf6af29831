import DiscKit
import DiscKitAuthoring
import DiscKitTestSupport
import Foundation

/// Folders built by the authoring tests, and what they should read back as.
package enum AuthoringFixtures {
  /// Deterministic pseudo-random bytes (SplitMix64).
  package static func bytes(_ count: Int, seed: UInt64) -> Data {
    var state = seed &+ 0x9E37_79B9_7F4A_7C15
    var out = Data(count: count)
    out.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) in
      for i in 0..<count {
        if i % 8 == 0 {
          state = state &+ 0x9E37_79B9_7F4A_7C15
        }
        var z = state ^ UInt64(i / 8)
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        raw[i] = UInt8(truncatingIfNeeded: z >> (8 * UInt64(i % 8)))
      }
    }
    return out
  }

  package static func write(_ data: Data, _ path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try data.write(to: URL(fileURLWithPath: path))
  }

  /// A tree with nested and empty directories, empty files, block-boundary sizes, Latin-1 and
  /// CJK names and a directory of many files (its identifiers span several blocks).
  package static func makeMixedTree(at root: String) throws {
    let fm = FileManager.default
    try fm.createDirectory(atPath: root + "/BDMV/STREAM", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: root + "/empty dir", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: root + "/a/b/c/d/e", withIntermediateDirectories: true)
    for (i, size) in [0, 1, 2047, 2048, 2049, 100_000, 300_001].enumerated() {
      try write(bytes(size, seed: UInt64(i)), root + "/BDMV/STREAM/0000\(i).m2ts")
    }
    try write(Data(), root + "/empty.bin")
    try write(bytes(5000, seed: 77), root + "/a/b/c/d/e/deep.dat")
    try write(bytes(123, seed: 78), root + "/Ünïcödé façade.txt")
    try write(bytes(321, seed: 79), root + "/日本語/ファイル名.txt")
    try write(bytes(10, seed: 80), root + "/Ελληνικά/αρχείο")
    for i in 0..<300 {
      try write(
        bytes(i * 7, seed: UInt64(1000 + i)), root + "/many/file-with-a-longish-name-\(i).bin")
    }
  }

  /// Every entry below `root` as libudfread would list it: (path, size, isDirectory), sorted.
  package static func folderListing(_ root: String) throws -> [DiscFileEntry] {
    var result: [DiscFileEntry] = []
    func walk(_ local: String, _ path: String) throws {
      for name in try FileManager.default.contentsOfDirectory(atPath: local) {
        let childLocal = local + "/" + name
        let childPath = path == "/" ? "/" + name : path + "/" + name
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: childLocal, isDirectory: &isDirectory)
        let size =
          isDirectory.boolValue
          ? 0
          : ((try FileManager.default.attributesOfItem(atPath: childLocal)[.size] as? NSNumber)?
            .int64Value ?? -1)
        result.append(
          DiscFileEntry(name: name, path: childPath, size: size, isDirectory: isDirectory.boolValue)
        )
        if isDirectory.boolValue { try walk(childLocal, childPath) }
      }
    }
    try walk(root, "/")
    return result.sorted { $0.path < $1.path }
  }

  /// Files and directories left in `directory` (to check that a failure leaves nothing).
  package static func contents(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
  }

  /// `key=value` lines of `udfinfo`.
  package static func udfinfo(_ image: String) throws -> (status: Int32, values: [String: String]) {
    let result = try Tool.run("udfinfo", [image])
    var values: [String: String] = [:]
    for line in result.text.split(separator: "\n") {
      guard let eq = line.firstIndex(of: "=") else { continue }
      values[String(line[..<eq])] = String(line[line.index(after: eq)...])
    }
    return (result.status, values)
  }

  /// Allocated bytes of a local file (to check sparseness).
  package static func allocatedBytes(_ path: String) -> Int64 {
    var info = stat()
    guard stat(path, &info) == 0 else { return -1 }
    return Int64(info.st_blocks) * 512
  }

  /// An independent check of every block-aligned descriptor tag: Python's `binascii.crc_hqx`
  /// (CRC-CCITT, initial 0) for the descriptor CRC, the tag checksum, and the tag location
  /// (absolute outside the partition, partition- or metadata-partition-relative inside).
  /// Prints the count of descriptors per tag identifier, then `BAD none` or the failures.
  package static let tagCheckScript = #"""
    import sys, struct, binascii
    data = open(sys.argv[1], 'rb').read()
    B = 2048
    n = len(data) // B
    def u16(b, o): return struct.unpack_from('<H', b, o)[0]
    def u32(b, o): return struct.unpack_from('<I', b, o)[0]
    # Partition start and metadata extents from the LVD / PD of the main VDS (anchor at 256).
    avdp = data[256*B:257*B]
    mvds = u32(avdp, 20)
    pstart = None; mfile = mmirror = None
    for s in range(mvds, mvds + 16):
        blk = data[s*B:(s+1)*B]
        if u16(blk, 0) == 5: pstart, plen = u32(blk, 188), u32(blk, 192)
        if u16(blk, 0) == 6:
            m = 440 + 6
            mfile, mmirror = u32(blk, m + 40), u32(blk, m + 44)
    def extent(loc):
        e = data[(pstart+loc)*B:(pstart+loc+1)*B]
        length = u32(e, 216) & 0x3FFFFFFF
        return u32(e, 220), length // B
    ms, mlen = extent(mfile); rs, rlen = extent(mmirror)
    counts = {}
    bad = []
    for b in range(n):
        blk = data[b*B:(b+1)*B]
        tid = u16(blk, 0)
        if tid not in (1,2,4,5,6,7,8,9,256,257,258,266): continue
        if sum(blk[0:4]) + sum(blk[5:16]) & 0xFF != blk[4]: continue
        if u16(blk, 2) != 3: continue
        crclen = u16(blk, 10)
        if binascii.crc_hqx(blk[16:16+crclen], 0) != u16(blk, 8):
            bad.append((b, tid, 'crc'))
        loc = u32(blk, 12)
        if b < pstart or b >= pstart + plen: expect = b
        elif pstart + ms <= b < pstart + ms + mlen: expect = b - pstart - ms
        elif pstart + rs <= b < pstart + rs + rlen: expect = b - pstart - rs
        else: expect = b - pstart
        if loc != expect: bad.append((b, tid, 'location %d != %d' % (loc, expect)))
        counts[tid] = counts.get(tid, 0) + 1
    print(' '.join('%d:%d' % kv for kv in sorted(counts.items())))
    print('BAD', bad[:10] if bad else 'none')
    """#

  package static func checkTags(_ image: String) throws -> (counts: [Int: Int], bad: String) {
    let result = try Tool.run("/usr/bin/python3", ["-c", tagCheckScript, image])
    let lines = result.text.split(separator: "\n").map(String.init)
    var counts: [Int: Int] = [:]
    for pair in (lines.first ?? "").split(separator: " ") {
      let parts = pair.split(separator: ":").compactMap { Int($0) }
      if parts.count == 2 { counts[parts[0]] = parts[1] }
    }
    return (counts, lines.count > 1 ? lines[1] : result.stderr)
  }
}
