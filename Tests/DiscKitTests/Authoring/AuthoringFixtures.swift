import CUDFRead
import DiscKit
import DiscKitAuthoring
import DiscKitReference
import DiscKitTestSupport
import Foundation

/// Folders built by the authoring tests, and what they should read back as.
enum AuthoringFixtures {
  /// Deterministic pseudo-random bytes (SplitMix64).
  static func bytes(_ count: Int, seed: UInt64) -> Data {
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

  static func write(_ data: Data, _ path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try data.write(to: URL(fileURLWithPath: path))
  }

  /// A tree with nested and empty directories, empty files, block-boundary sizes, Latin-1 and
  /// CJK names and a directory of many files (its identifiers span several blocks).
  static func makeMixedTree(at root: String) throws {
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
  static func folderListing(_ root: String) throws -> [DiscFileEntry] {
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
  static func contents(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
  }

  /// Bytes `offset..<offset+count` of `path` in `image`, read with libudfread (seek + read).
  static func libudfreadRead(image: String, path: String, offset: Int64, count: Int) -> [UInt8]? {
    guard let udf = udfread_init() else { return nil }
    defer { udfread_close(udf) }
    guard udfread_open(udf, image) >= 0, let file = udfread_file_open(udf, path) else { return nil }
    defer { udfread_file_close(file) }
    guard udfread_file_seek(file, offset, Int32(UDF_SEEK_SET)) == offset else { return nil }
    var out = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let got = out.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) in
        udfread_file_read(file, raw.baseAddress.map { $0 + done }, count - done)
      }
      if got <= 0 { break }
      done += Int(got)
    }
    return Array(out[0..<done])
  }

  /// The absolute block libudfread maps block `block` of `path` to.
  static func libudfreadBlock(image: String, path: String, block: UInt32) -> UInt32? {
    guard let udf = udfread_init() else { return nil }
    defer { udfread_close(udf) }
    guard udfread_open(udf, image) >= 0, let file = udfread_file_open(udf, path) else { return nil }
    defer { udfread_file_close(file) }
    return udfread_file_lba(file, block)
  }

  /// `key=value` lines of `udfinfo`.
  static func udfinfo(_ image: String) throws -> (status: Int32, values: [String: String]) {
    let result = try Tool.run("udfinfo", [image])
    var values: [String: String] = [:]
    for line in result.text.split(separator: "\n") {
      guard let eq = line.firstIndex(of: "=") else { continue }
      values[String(line[..<eq])] = String(line[line.index(after: eq)...])
    }
    return (result.status, values)
  }

  /// Allocated bytes of a local file (to check sparseness).
  static func allocatedBytes(_ path: String) -> Int64 {
    var info = stat()
    guard stat(path, &info) == 0 else { return -1 }
    return Int64(info.st_blocks) * 512
  }
}
