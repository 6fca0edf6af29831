@_spi(Formats) import DiscKit
import Foundation
import Testing

/// Shared helpers for the UDF tests.
package enum UDFTesting {
  /// The directory holding the images of TestImages/scripts/make-udf.sh (made on demand).
  package static let generatedDirectory: String = {
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

  package static func generated(_ name: String) -> String { generatedDirectory + "/" + name }

  package struct Row: Hashable, CustomStringConvertible {
    package var path: String
    package var size: Int64
    package var isDirectory: Bool
    package var description: String { "\(path) \(size)\(isDirectory ? " dir" : "")" }
  }

  package static func rows(_ entries: [DiscFileEntry]) -> [Row] {
    entries.map { Row(path: $0.path, size: $0.size, isDirectory: $0.isDirectory) }
  }

  /// Offsets to sample in a big file: the start, 1 GiB and 4 GiB boundaries, the end.
  package static func samples(size: Int64) -> [Int64] {
    var offsets: Set<Int64> = [0, max(0, size - 65536), max(0, size - 100)]
    for boundary: Int64 in [0x3FFF_F800, 1 << 30, 1 << 32, (1 << 32) + 0x3FFF_F800]
    where boundary < size {
      offsets.insert(max(0, boundary - 3000))
    }
    return offsets.sorted()
  }

  /// `udfinfo` output as a dictionary.
  package static func udfinfo(_ path: String) throws -> [String: String] {
    let result = try Tool.run("udfinfo", [path])
    var fields: [String: String] = [:]
    for line in result.text.split(separator: "\n") {
      guard let eq = line.firstIndex(of: "=") else { continue }
      fields[String(line[..<eq])] = String(line[line.index(after: eq)...])
    }
    return fields
  }

  /// Writes a built image to a temporary file and returns its path (kept alive by `dir`).
  package static func write(
    _ builder: UDFTestImageBuilder, in dir: TemporaryDirectory, name: String = "image.udf"
  ) throws
    -> String
  {
    let path = dir.file(name)
    try builder.write(to: path)
    return path
  }

  /// Recomputes the tag checksum and CRC of the descriptor at `offset` after a patch.
  package static func retag(_ image: inout [UInt8], at offset: Int) {
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
  package static func readEverything(_ image: [UInt8]) throws(DiscKitError) -> [DiscFileEntry] {
    let fs = try UDFFileSystem(source: MemoryByteSource(image))
    let entries = try fs.recursiveContents()
    for entry in entries where !entry.isDirectory {
      _ = try fs.openFile(atPath: entry.path).readAll(limit: 1 << 26)
    }
    return entries
  }

  package static func error(_ body: () throws(DiscKitError) -> Void) -> DiscKitError? {
    do {
      try body()
      return nil
    } catch {
      return error
    }
  }
}

extension Array where Element == UInt8 {
  package static func random(count: Int, seed: UInt64) -> [UInt8] {
    var rng = SeededRandom(seed: seed)
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
  }
}
