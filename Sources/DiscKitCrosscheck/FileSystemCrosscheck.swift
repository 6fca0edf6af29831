import DiscKit
import DiscKitCLI
import DiscKitReference
import Foundation

/// `disckit crosscheck`, file-system part: DiscKit's recursive listing, sizes and file bytes
/// against libudfread (UDF images) or xorriso (ISO9660-only images: listing and sizes).
enum FileSystemCrosscheck {
  /// Returns one line per difference (empty when DiscKit and the reference agree).
  static func compare(disc: DiscImage, compareBytes: Bool = true) throws -> [String] {
    switch disc.fileSystem.kind {
    case .udf: return try compareUDF(disc: disc, compareBytes: compareBytes)
    case .iso9660: return try compareISO9660(disc: disc)
    case .folder:
      Output.error(
        "crosscheck: \(disc.path) is a folder; there is no file-system reference to compare with")
      return []
    }
  }

  struct Row: Equatable {
    var size: Int64
    var isDirectory: Bool
  }

  /// Differences between two listings keyed by path, in DiscKit's order then the reference's.
  static func listingDifferences(
    ours: [(String, Row)], theirs: [(String, Row)], referenceName: String
  ) -> [String] {
    var lines: [String] = []
    let theirMap = Dictionary(theirs, uniquingKeysWith: { first, _ in first })
    let ourMap = Dictionary(ours, uniquingKeysWith: { first, _ in first })
    for (path, row) in ours {
      guard let other = theirMap[path] else {
        lines.append("only in disckit: \(path)")
        continue
      }
      if other.isDirectory != row.isDirectory {
        lines.append(
          "type differs: \(path): disckit \(row.isDirectory ? "directory" : "file"), \(referenceName) \(other.isDirectory ? "directory" : "file")"
        )
      } else if other.size != row.size {
        lines.append("size differs: \(path): disckit \(row.size), \(referenceName) \(other.size)")
      }
    }
    for (path, _) in theirs where ourMap[path] == nil {
      lines.append("only in \(referenceName): \(path)")
    }
    if lines.isEmpty && ours.map(\.0) != theirs.map(\.0) {
      lines.append("order differs from \(referenceName)")
    }
    return lines
  }

  static func compareUDF(disc: DiscImage, compareBytes: Bool) throws -> [String] {
    let reference = try Reference.UDFImage(path: disc.path)
    let fs = disc.fileSystem
    let ours = try fs.recursiveContents().map {
      ($0.path, Row(size: $0.size, isDirectory: $0.isDirectory))
    }
    let theirs = reference.recursiveListing().map {
      ($0.path, Row(size: $0.size, isDirectory: $0.isDirectory))
    }
    var lines = listingDifferences(ours: ours, theirs: theirs, referenceName: "libudfread")
    guard compareBytes else { return lines }
    let theirMap = Dictionary(theirs, uniquingKeysWith: { first, _ in first })
    let total = ours.filter { !$0.1.isDirectory }.reduce(Int64(0)) { $0 + $1.1.size }
    let progress = ProgressBar(total: total, label: "crosscheck")
    var done: Int64 = 0
    for (path, row) in ours where !row.isDirectory && theirMap[path] == row {
      let file = try fs.openFile(atPath: path)
      var chunk = [UInt8](repeating: 0, count: 4 << 20)
      var mismatch: Int64?
      var readError: DiscKitError?
      let read = reference.forEachChunk(path, chunk: chunk.count) { theirs, offset in
        let got: Int
        do {
          got = try chunk.withUnsafeMutableBytes { raw throws(DiscKitError) in
            try file.readFully(
              at: offset, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<theirs.count]))
          }
        } catch let error as DiscKitError {
          readError = error
          return false
        } catch {
          readError = DiscKitError(.io, path, at: offset, "\(error)")
          return false
        }
        done += Int64(theirs.count)
        progress.update(done)
        let same =
          got == theirs.count
          && chunk.withUnsafeBytes { ours in
            guard let a = ours.baseAddress, let b = theirs.baseAddress else { return got == 0 }
            return memcmp(a, b, got) == 0
          }
        if !same {
          let index =
            (0..<min(got, theirs.count)).first { chunk[$0] != theirs[$0] } ?? min(got, theirs.count)
          mismatch = offset + Int64(index)
          return false
        }
        return true
      }
      if let readError {
        lines.append("disckit cannot read \(path): \(readError)")
      } else if let mismatch {
        lines.append("bytes differ: \(path) at offset \(mismatch)")
      } else if read == nil {
        lines.append("libudfread cannot open \(path)")
      } else if read != row.size {
        lines.append("libudfread read \(read ?? 0) bytes of \(path), size is \(row.size)")
      }
    }
    progress.finish()
    return lines
  }

  /// ISO9660: listing and sizes against `xorriso -find / -exec lsdl` (bytes are not compared).
  static func compareISO9660(disc: DiscImage) throws -> [String] {
    guard
      let xorriso = ["/usr/bin/xorriso", "/bin/xorriso"].first(
        where: FileManager.default.isExecutableFile)
    else {
      Output.error("crosscheck: xorriso is not installed; ISO9660 listing not compared")
      return []
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: xorriso)
    process.arguments = ["-indev", disc.path, "-find", "/", "-exec", "lsdl", "--"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    var theirs: [(String, Row)] = []
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      // -rw-r--r--    1 0        0            1234 Jan  1  2020 '/path/name'
      guard let quote = line.firstIndex(of: "'"), line.last == "'" else { continue }
      let path = String(line[line.index(after: quote)..<line.index(before: line.endIndex)])
        .replacingOccurrences(of: "'\"'\"'", with: "'")
      let fields = line[..<quote].split(separator: " ")
      guard path != "/", fields.count >= 5, let size = Int64(fields[4]) else { continue }
      let isDirectory = line.first == "d"
      theirs.append((path, Row(size: isDirectory ? 0 : size, isDirectory: isDirectory)))
    }
    let ours = try disc.fileSystem.recursiveContents().map {
      ($0.path, Row(size: $0.size, isDirectory: $0.isDirectory))
    }
    // xorriso lists in its own (sorted) order: compare as sets.
    let sortedOurs = ours.sorted { $0.0 < $1.0 }
    let sortedTheirs = theirs.sorted { $0.0 < $1.0 }
    Output.error(
      "crosscheck: ISO9660 image: listing and sizes compared with xorriso; file bytes not compared")
    return listingDifferences(ours: sortedOurs, theirs: sortedTheirs, referenceName: "xorriso")
  }
}
