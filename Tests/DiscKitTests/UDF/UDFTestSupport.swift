@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Shared helpers for the UDF tests.
enum UDFTesting {
  /// The directory holding the images of TestImages/scripts/make-udf.sh (made on demand).
  static let generatedDirectory: String = {
    if FileManager.default.fileExists(atPath: Fixtures.generated("udf-pycdlib-260.iso")) {
      return Fixtures.generated.path
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "disckit-udf-images-\(getpid())"
    ).path
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    TemporaryDirectory.removeAtExit(dir)
    let script = Fixtures.testImages.appendingPathComponent("scripts/make-udf.sh").path
    _ = try? Tool.run("/bin/bash", [script], environment: ["OUT": dir])
    return dir
  }()

  static func generated(_ name: String) -> String { generatedDirectory + "/" + name }

  struct Row: Hashable, CustomStringConvertible {
    var path: String
    var size: Int64
    var isDirectory: Bool
    var description: String { "\(path) \(size)\(isDirectory ? " dir" : "")" }
  }

  static func rows(_ entries: [DiscFileEntry]) -> [Row] {
    entries.map { Row(path: $0.path, size: $0.size, isDirectory: $0.isDirectory) }
  }

  /// Compares DiscKit's listing and file bytes with libudfread's for the image at `path`.
  /// Files larger than `fullCompareLimit` are compared on sampled ranges.
  static func expectMatchesLibudfread(
    _ path: String, fullCompareLimit: Int64 = 64 << 20,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let fs = try UDFFileSystem(source: try FileByteSource(path: path))
    let reference = try Reference.UDFImage(path: path)
    let ours = rows(try fs.recursiveContents())
    let theirs = rows(reference.recursiveListing())
    #expect(
      ours == theirs, "listing differs from libudfread for \(path)", sourceLocation: sourceLocation)
    for row in ours where !row.isDirectory {
      let file = try fs.openFile(atPath: row.path)
      #expect(file.size == row.size, sourceLocation: sourceLocation)
      if row.size <= fullCompareLimit {
        let mine = try file.readAll(limit: Int(fullCompareLimit))
        let reference = try reference.readFile(row.path)
        #expect(
          mine == reference, "bytes of \(row.path) differ from libudfread",
          sourceLocation: sourceLocation)
      } else {
        for offset in samples(size: row.size) {
          let count = Int(min(1 << 16, row.size - offset))
          let mine = try file.bytes(at: offset, count: count)
          let theirs = try reference.read(row.path, at: offset, count: count)
          #expect(
            mine == theirs, "bytes of \(row.path) at \(offset) differ",
            sourceLocation: sourceLocation)
        }
      }
    }
  }

  /// Offsets to sample in a big file: the start, 1 GiB and 4 GiB boundaries, the end.
  static func samples(size: Int64) -> [Int64] {
    var offsets: Set<Int64> = [0, max(0, size - 65536), max(0, size - 100)]
    for boundary: Int64 in [0x3FFF_F800, 1 << 30, 1 << 32, (1 << 32) + 0x3FFF_F800]
    where boundary < size {
      offsets.insert(max(0, boundary - 3000))
    }
    return offsets.sorted()
  }

  /// `udfinfo` output as a dictionary.
  static func udfinfo(_ path: String) throws -> [String: String] {
    let result = try Tool.run("udfinfo", [path])
    var fields: [String: String] = [:]
    for line in result.text.split(separator: "\n") {
      guard let eq = line.firstIndex(of: "=") else { continue }
      fields[String(line[..<eq])] = String(line[line.index(after: eq)...])
    }
    return fields
  }

  /// Writes a built image to a temporary file and returns its path (kept alive by `dir`).
  static func write(
    _ builder: UDFTestImageBuilder, in dir: TemporaryDirectory, name: String = "image.udf"
  ) throws
    -> String
  {
    let path = dir.file(name)
    try builder.write(to: path)
    return path
  }

  /// Recomputes the tag checksum and CRC of the descriptor at `offset` after a patch.
  static func retag(_ image: inout [UInt8], at offset: Int) {
    let crcLength = Int(image[offset + 10]) | Int(image[offset + 11]) << 8
    if offset + 16 + crcLength <= image.count {
      let crc = UDFTestImageBuilder.crc(image[offset + 16..<offset + 16 + crcLength])
      image[offset + 8] = UInt8(crc & 0xFF)
      image[offset + 9] = UInt8(crc >> 8)
    }
    var sum: UInt8 = 0
    for index in 0..<16 where index != 4 { sum &+= image[offset + index] }
    image[offset + 4] = sum
  }

  /// Opens `image` in memory, lists it recursively and reads every file.
  @discardableResult
  static func readEverything(_ image: [UInt8]) throws(DiscKitError) -> [DiscFileEntry] {
    let fs = try UDFFileSystem(source: MemoryByteSource(image))
    let entries = try fs.recursiveContents()
    for entry in entries where !entry.isDirectory {
      _ = try fs.openFile(atPath: entry.path).readAll(limit: 1 << 26)
    }
    return entries
  }

  static func error(_ body: () throws(DiscKitError) -> Void) -> DiscKitError? {
    do {
      try body()
      return nil
    } catch {
      return error
    }
  }
}

extension Array where Element == UInt8 {
  static func random(count: Int, seed: UInt64) -> [UInt8] {
    var rng = SeededRandom(seed: seed)
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
  }
}
