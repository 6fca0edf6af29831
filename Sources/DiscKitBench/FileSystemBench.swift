@_spi(Formats) import DiscKit
import DiscKitReference
import Foundation

/// File-system benchmarks: reading a multi-GiB file inside a UDF image.
let fileSystemBenchmarks: [Benchmark] = [
  Benchmark(
    name: "udf-read",
    summary:
      "read a 2 GiB file inside a UDF image in 4 MiB chunks: DiscKit vs dd (cat) of the same bytes vs libudfread"
  ) { try UDFReadBench.run() }
]

/// Reads one 2 GiB file of pseudo-random bytes inside a genisoimage UDF image three ways, warm.
///
/// The image is built once under `.bench/` in the package (or `$DISCKIT_BENCH_DIR`) with
/// `openssl` (AES-CTR keystream: deterministic, non-zero data) and `genisoimage -udf`, and
/// reused by later runs.
enum UDFReadBench {
  static let fileSize: Int64 = 2 << 30
  static let innerPath = "/BDMV/STREAM/00001.m2ts"
  static let chunk = 4 << 20

  static var directory: String {
    if let dir = ProcessInfo.processInfo.environment["DISCKIT_BENCH_DIR"], !dir.isEmpty {
      return dir
    }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".bench").path
  }

  /// The benchmark image, made when missing.
  static func image() throws -> String {
    let dir = directory
    let path = dir + "/udf-read-2g.iso"
    if let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64,
      size > fileSize
    {
      return path
    }
    print("   building \(path) (once; about a minute)")
    let tree = dir + "/udf-read-tree"
    try? FileManager.default.removeItem(atPath: tree)
    try FileManager.default.createDirectory(
      atPath: tree + "/BDMV/STREAM", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: tree) }
    let data = tree + innerPath
    try Timing.tool(
      "/bin/sh",
      [
        "-c",
        "openssl enc -aes-128-ctr -nosalt -pbkdf2 -pass pass:disckit -in /dev/zero 2>/dev/null | head -c \(fileSize) > '\(data)'",
      ])
    try Timing.tool(
      "genisoimage",
      ["-quiet", "-udf", "-allow-limited-size", "-V", "DISCKIT_BENCH", "-o", path + ".tmp", tree])
    try FileManager.default.moveItem(atPath: path + ".tmp", toPath: path)
    return path
  }

  static func run() throws {
    let path = try image()
    let fs = try UDFFileSystem(source: try FileByteSource(path: path))
    let file = try fs.openFile(atPath: innerPath)
    let extents = try fs.extents(ofFileAtPath: innerPath)
    let size = file.size
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 4096)
    defer { buffer.deallocate() }

    func readWithDiscKit() throws {
      var offset: Int64 = 0
      while true {
        let got = try file.read(at: offset, into: buffer)
        if got == 0 { break }
        offset += Int64(got)
      }
      guard offset == size else { throw DiscKitError(.io, innerPath, at: offset, "short read") }
    }
    // dd of exactly the file's extents in the image, 4 MiB reads (what `cat` of the bytes costs).
    let dd =
      extents.compactMap { extent in
        extent.offset.map {
          "dd if='\(path)' of=/dev/null iflag=skip_bytes,count_bytes skip=\($0) count=\(extent.length) bs=4M status=none"
        }
      }
      .joined(separator: " && ")
    let reference = try Reference.UDFImage(path: path)

    // Warm-up: every reader once, so all three are measured with the image in the page cache.
    try readWithDiscKit()
    try Timing.tool("/bin/sh", ["-c", dd])
    guard reference.drain(innerPath, chunk: chunk) == size else {
      throw DiscKitError(.io, "libudfread", at: nil, "libudfread read a different number of bytes")
    }

    let disckit = try Timing.best(runs: 5) { try readWithDiscKit() }
    let cat = try Timing.best(runs: 5) { try Timing.tool("/bin/sh", ["-c", dd]) }
    let udfread = Timing.best(runs: 5) { _ = reference.drain(innerPath, chunk: chunk) }
    // The same bytes as 2048 separate 1 MiB extents (a fragmented .m2ts): extent lookup cost.
    let image = try FileByteSource(path: path)
    var pieces: [ConcatenatedByteSource.Extent] = []
    for extent in extents {
      guard let start = extent.offset else { continue }
      var done: Int64 = 0
      while done < extent.length {
        let length = min(1 << 20, extent.length - done)
        pieces.append(.init(source: image, offset: start + done, length: length))
        done += length
      }
    }
    let fragmented = try ConcatenatedByteSource(pieces)
    let fragmentedTime = try Timing.best(runs: 5) {
      var offset: Int64 = 0
      while true {
        let got = try fragmented.read(at: offset, into: buffer)
        if got == 0 { break }
        offset += Int64(got)
      }
    }
    print("   file: \(size) bytes in \(extents.count) extent(s), warm page cache, best of 5")
    Timing.report("read file", disckit: disckit, reference: cat, referenceName: "dd", bytes: size)
    Timing.report(
      "read file", disckit: disckit, reference: udfread, referenceName: "libudfread", bytes: size)
    Timing.report(
      "read as \(pieces.count) extents", disckit: fragmentedTime, reference: cat,
      referenceName: "dd", bytes: size)
  }
}
