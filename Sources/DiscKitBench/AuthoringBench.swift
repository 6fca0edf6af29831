import DiscKit
import DiscKitAuthoring
import Foundation

/// `disckit author` benchmarks: wrapping real (non-sparse) data compared with `cp -r` of the
/// same files, and wrapping a 30 GB sparse file compared with `cp --sparse=auto`.
///
/// Inputs are generated under `.bench/authoring` (kept between runs). The size of the real
/// data set is `DISCKIT_BENCH_AUTHOR_GIB` GiB (default 2).
let authoringBenchmarks: [Benchmark] = [
  Benchmark(name: "author-folder", summary: "wrap a folder of pseudo-random data vs cp -r (+ sync)")
  {
    try AuthoringBench.wrapFolder()
  },
  Benchmark(name: "author-sparse", summary: "wrap a 30 GB sparse file vs cp --sparse=auto (+ sync)")
  {
    try AuthoringBench.wrapSparse()
  },
]

enum AuthoringBench {
  static let root = FileManager.default.currentDirectoryPath + "/.bench/authoring"

  /// Best wall-clock time of `runs` runs of `body`, with `prepare` run untimed before each.
  static func best(runs: Int = 3, prepare: () throws -> Void, _ body: () throws -> Void) rethrows
    -> Double
  {
    var best = Double.infinity
    for _ in 0..<runs {
      try prepare()
      best = min(best, try Timing.best(runs: 1, body))
    }
    return best
  }

  /// Writes `bytes` of fast pseudo-random data (xorshift) to `path` unless it already has that size.
  static func makeRandomFile(_ path: String, bytes: Int64, seed: UInt64) throws {
    if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber,
      size.int64Value == bytes
    {
      return
    }
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    var state = seed | 1
    let chunk = 8 << 20
    var buffer = [UInt64](repeating: 0, count: chunk / 8)
    var written: Int64 = 0
    while written < bytes {
      for i in buffer.indices {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        buffer[i] = state
      }
      let count = Int(min(Int64(chunk), bytes - written))
      try buffer.withUnsafeBytes { raw in
        try handle.write(contentsOf: Data(raw.prefix(count)))
      }
      written += Int64(count)
    }
  }

  static func wrapFolder() throws {
    let gib = Int64(
      ProcessInfo.processInfo.environment["DISCKIT_BENCH_AUTHOR_GIB"].flatMap { Int64($0) } ?? 2)
    let source = root + "/folder-\(gib)g"
    try FileManager.default.createDirectory(
      atPath: source + "/BDMV/STREAM", withIntermediateDirectories: true)
    let files = 4
    let perFile = gib * (1 << 30) / Int64(files)
    for i in 0..<files {
      try makeRandomFile(
        source + "/BDMV/STREAM/0000\(i).m2ts", bytes: perFile + Int64(i) * 4099, seed: UInt64(i + 1)
      )
    }
    try Data(repeating: 0x42, count: 5000).write(
      to: URL(fileURLWithPath: source + "/BDMV/index.bdmv"))
    let copy = root + "/cp-copy"
    let image = root + "/folder.iso"
    let remove = {
      try? FileManager.default.removeItem(atPath: copy)
      try? FileManager.default.removeItem(atPath: image)
    }
    let writer = try UDFImageWriter(folder: source)
    let bytes = writer.dataBytes
    let disckit = try best(prepare: remove) { try writer.write(to: image, overwrite: true) }
    let cp = try best(prepare: remove) {
      try Timing.tool(
        "sh",
        [
          "-c",
          "cp -r '\(source)' '\(copy)' && sync '\(copy)'/BDMV/STREAM/* '\(copy)'/BDMV/index.bdmv",
        ])
    }
    Timing.report(
      "wrap \(gib) GiB of real data (4 files)", disckit: disckit, reference: cp,
      referenceName: "cp -r+sync", bytes: bytes)
    remove()
  }

  static func wrapSparse() throws {
    let source = root + "/sparse"
    let big = source + "/BDMV/STREAM/00001.m2ts"
    try FileManager.default.createDirectory(
      atPath: source + "/BDMV/STREAM", withIntermediateDirectories: true)
    let size: Int64 = 30_000_000_000
    if !FileManager.default.fileExists(atPath: big) {
      _ = FileManager.default.createFile(atPath: big, contents: nil)
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
      for offset in stride(from: Int64(0), to: size, by: 3_000_000_000) {
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: Data(repeating: 0x47, count: 1 << 20))
      }
      try handle.truncate(atOffset: UInt64(size))
      try handle.close()
    }
    let copy = root + "/sparse-copy.m2ts"
    let image = root + "/sparse.iso"
    let remove = {
      try? FileManager.default.removeItem(atPath: copy)
      try? FileManager.default.removeItem(atPath: image)
    }
    let writer = try UDFImageWriter(folder: source)
    let disckit = try best(prepare: remove) { try writer.write(to: image, overwrite: true) }
    var info = stat()
    let allocated = stat(image, &info) == 0 ? Int64(info.st_blocks) * 512 : -1
    let cp = try best(prepare: remove) {
      try Timing.tool("sh", ["-c", "cp --sparse=auto '\(big)' '\(copy)' && sync '\(copy)'"])
    }
    Timing.report(
      "wrap a 30 GB sparse file", disckit: disckit, reference: cp, referenceName: "cp --sparse+sync"
    )
    print("   sparse image: \(writer.imageSize) bytes, \(allocated) bytes allocated")
    remove()
  }
}
