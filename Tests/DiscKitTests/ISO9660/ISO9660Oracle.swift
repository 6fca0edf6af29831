import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// One entry as an independent tool reports it.
struct OracleEntry: Equatable, CustomStringConvertible {
  var path: String
  /// `-` file, `d` directory, `l` symbolic link, `b`/`c` devices.
  var type: Character
  var size: Int64?
  var description: String { "\(type) \(size.map(String.init) ?? "?") \(path)" }
}

/// xorriso as the oracle: `-find / -exec lsdl` for the listing, `-osirrox on -extract` for bytes.
enum Xorriso {
  static func arguments(_ image: String, norock: Bool) -> [String] {
    (norock ? ["-read_fs", "norock"] : []) + ["-indev", image]
  }

  /// The recursive listing, root excluded, keyed by path.
  static func listing(_ image: String, norock: Bool = false) throws -> [String: OracleEntry] {
    let result = try Tool.run(
      "xorriso", arguments(image, norock: norock) + ["-find", "/", "-exec", "lsdl"])
    #expect(result.status == 0, "xorriso failed: \(result.stderr)")
    var entries: [String: OracleEntry] = [:]
    for line in result.text.split(separator: "\n") {
      // drwxr-xr-x    1 0        0               0 Nov 21 08:18 '/path' [-> 'target']
      guard let type = line.first, "-dlbc".contains(type), let quote = line.range(of: " '/") else {
        continue
      }
      var rest = line[quote.upperBound...]
      if let arrow = rest.range(of: "' -> '") {
        rest = rest[..<arrow.lowerBound]
      } else {
        rest = rest.dropLast()
      }
      let path = "/" + rest.replacingOccurrences(of: "'\\''", with: "'")
      if path == "/" { continue }
      let fields = line[..<quote.lowerBound].split(separator: " ")
      let size = fields.count > 4 ? Int64(fields[4]) : nil
      entries[path] = OracleEntry(path: path, type: type, size: size)
    }
    return entries
  }

  /// Extracts the whole tree into `directory`.
  static func extract(_ image: String, norock: Bool = false, to directory: String) throws {
    let result = try Tool.run(
      "xorriso",
      ["-osirrox", "on"] + arguments(image, norock: norock) + ["-extract", "/", directory])
    #expect(result.status == 0, "xorriso -extract failed: \(result.stderr)")
  }

  /// `length` bytes at `offset` of the file at `path`, extracted with `-extract_cut`.
  static func cut(
    _ image: String, path: String, offset: Int64, length: Int, scratch: TemporaryDirectory
  ) throws -> [UInt8] {
    let out = scratch.file("cut-\(offset)")
    let result = try Tool.run(
      "xorriso",
      [
        "-osirrox", "on", "-indev", image, "-extract_cut", path, String(offset), String(length),
        out,
      ])
    #expect(result.status == 0, "xorriso -extract_cut failed: \(result.stderr)")
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
  }
}

/// DiscKit's recursive listing in the oracle's shape.
func diskitListing(_ fs: any DiscFileSystem) throws -> [String: DiscFileEntry] {
  var result: [String: DiscFileEntry] = [:]
  for entry in try fs.recursiveContents() {
    #expect(result[entry.path] == nil, "\(entry.path) listed twice")
    result[entry.path] = entry
  }
  return result
}

/// Compares DiscKit's listing with the oracle's: same paths, same kinds, same sizes for files
/// and symbolic links (devices' sizes are not compared).
func expectSameListing(
  _ ours: [String: DiscFileEntry], _ theirs: [String: OracleEntry],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    Set(ours.keys) == Set(theirs.keys),
    "only DiscKit: \(Set(ours.keys).subtracting(theirs.keys).sorted()); only oracle: \(Set(theirs.keys).subtracting(ours.keys).sorted())",
    sourceLocation: sourceLocation)
  for (path, oracle) in theirs {
    guard let entry = ours[path] else { continue }
    #expect(
      entry.isDirectory == (oracle.type == "d"), "\(path): kind", sourceLocation: sourceLocation)
    if oracle.type == "-" || oracle.type == "l" {
      #expect(
        entry.size == oracle.size, "\(path): size \(entry.size) vs \(oracle)",
        sourceLocation: sourceLocation)
    }
  }
}

/// Every regular file's bytes equal the file xorriso extracted into `directory`.
func expectSameBytes(
  _ fs: any DiscFileSystem, _ listing: [String: OracleEntry], extractedTo directory: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  var compared = 0
  for (path, oracle) in listing where oracle.type == "-" {
    let expected = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + path)))
    let ours = try fs.openFile(atPath: path).readAll(limit: 256 << 20, structure: path)
    #expect(ours == expected, "\(path): bytes differ", sourceLocation: sourceLocation)
    compared += 1
  }
  #expect(compared > 0, "no files compared", sourceLocation: sourceLocation)
}

/// A byte source that shows `base` with some bytes replaced (for damaged-image tests).
struct PatchedByteSource: ByteSource {
  let base: any ByteSource
  var patches: [(offset: Int64, bytes: [UInt8])] = []
  var size: Int64

  init(_ base: any ByteSource, size: Int64? = nil) {
    self.base = base
    self.size = size ?? base.size
  }

  mutating func patch(_ offset: Int64, _ bytes: [UInt8]) { patches.append((offset, bytes)) }

  func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(DiscKitError)
    -> Int
  {
    guard offset < size else { return 0 }
    let want = Int(min(Int64(buffer.count), size - offset))
    let n = try base.readFully(
      at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
    for (start, bytes) in patches {
      for (i, byte) in bytes.enumerated() {
        let at = start + Int64(i) - offset
        if at >= 0 && at < Int64(n) { buffer[Int(at)] = byte }
      }
    }
    return n
  }
}
