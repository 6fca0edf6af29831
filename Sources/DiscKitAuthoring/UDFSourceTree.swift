import DiscKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One file or directory of the folder being wrapped, with what the writer plans for it.
struct SourceNode: Sendable {
  /// The name as it will be recorded (Unicode, from the local UTF-8 name).
  var name: String
  /// The name in OSTA Compressed Unicode (empty for the root).
  var encodedName: [UInt8]
  /// The path on the local file system.
  var localPath: String
  var isDirectory: Bool
  /// File size in bytes (0 for directories).
  var size: Int64
  var modificationTime: UDFTimestamp
  /// The local file's device and inode (to recognise the output among the inputs).
  var fileID: [UInt64] = []
  /// Indices of the children in ``UDFSourceTree/nodes`` (directories only), in recorded order.
  var children: [Int] = []
  /// Index of the parent (the root is its own parent).
  var parent: Int

  // Planned by the layout.
  var uniqueID: UInt64 = 0
  /// Block of the Extended File Entry in the metadata partition.
  var entryBlock: UInt32 = 0
  /// Blocks of Allocation Extent Descriptors (metadata partition), in chain order.
  var extentDescriptorBlocks: [UInt32] = []
  /// Directories: first block of the directory file (metadata partition) and its length.
  var directoryBlock: UInt32 = 0
  var directoryLength: Int = 0
  /// Files: the data extents, in file order.
  var extents: [DataExtent] = []
}

/// A run of a file's data recorded contiguously in the physical partition.
struct DataExtent: Sendable, Hashable {
  /// First block, relative to the physical partition.
  var block: UInt32
  /// Offset in the source file.
  var fileOffset: Int64
  /// Length in bytes (a multiple of the block size except for a file's last extent).
  var length: Int64
}

/// The folder being wrapped, scanned once before anything is written.
struct UDFSourceTree: Sendable {
  var nodes: [SourceNode]
  var fileCount = 0
  var directoryCount = 0
  var dataBytes: Int64 = 0

  /// Longest recorded name in bytes (a File Identifier's length field has 8 bits).
  static let maxNameBytes = 255

  /// Scans `root`. Every name must be valid UTF-8 and at most 255 bytes in CS0; only regular
  /// files and directories are accepted (symbolic links are followed).
  init(root: String, order: UDFImageWriter.EntryOrder, limits: ParsingLimits) throws(DiscKitError) {
    var info = stat()
    guard stat(root, &info) == 0 else {
      throw DiscKitError(.cannotOpen, root, at: nil, "cannot read: \(Self.errnoText())")
    }
    guard (info.st_mode & S_IFMT) == S_IFDIR else {
      throw DiscKitError(.cannotOpen, root, at: nil, "not a directory")
    }
    nodes = [
      SourceNode(
        name: "", encodedName: [], localPath: root, isDirectory: true, size: 0,
        modificationTime: Self.time(info.st_mtim), parent: 0)
    ]
    directoryCount = 1
    var visited: Set<[UInt64]> = [[UInt64(info.st_dev), UInt64(info.st_ino)]]
    try scan(directory: 0, depth: 0, order: order, limits: limits, visited: &visited)
  }

  private mutating func scan(
    directory: Int, depth: Int, order: UDFImageWriter.EntryOrder, limits: ParsingLimits,
    visited: inout Set<[UInt64]>
  ) throws(DiscKitError) {
    let path = nodes[directory].localPath
    guard depth < limits.maxDirectoryDepth else {
      throw DiscKitError.limit(
        path, at: nil, "directories nested deeper than \(limits.maxDirectoryDepth) levels")
    }
    var names = try Self.listDirectory(path)
    if order == .byName { names.sort { $0.name < $1.name } }
    guard names.count <= limits.maxDirectoryEntries else {
      throw DiscKitError.limit(
        path, at: nil, "\(names.count) entries (limit \(limits.maxDirectoryEntries))")
    }
    var seen: Set<String> = []
    var childIndices: [Int] = []
    for entry in names {
      let childPath = path.hasSuffix("/") ? path + entry.name : path + "/" + entry.name
      let encoded = OSTACompressedUnicode.encode(entry.name)
      guard encoded.count <= Self.maxNameBytes else {
        throw DiscKitError(
          .invalidArgument, childPath, at: nil,
          "name needs \(encoded.count) bytes in OSTA Compressed Unicode; UDF allows at most \(Self.maxNameBytes)"
        )
      }
      guard !entry.name.unicodeScalars.contains(where: { $0.value == 0xFEFF || $0.value == 0xFFFE })
      else {
        throw DiscKitError(
          .invalidArgument, childPath, at: nil,
          "name holds U+FEFF or U+FFFE, which UDF file identifiers cannot")
      }
      guard seen.insert(entry.name).inserted else {
        throw DiscKitError(
          .invalidArgument, childPath, at: nil, "two entries have the same Unicode name")
      }
      var info = stat()
      guard stat(childPath, &info) == 0 else {
        throw DiscKitError(.cannotOpen, childPath, at: nil, "cannot read: \(Self.errnoText())")
      }
      let kind = info.st_mode & S_IFMT
      guard kind == S_IFDIR || kind == S_IFREG else {
        throw DiscKitError(
          .unsupported, childPath, at: nil,
          "not a regular file or directory (sockets, devices and pipes cannot be recorded)")
      }
      guard nodes.count < limits.maxTotalEntries else {
        throw DiscKitError.limit(childPath, at: nil, "more than \(limits.maxTotalEntries) entries")
      }
      let isDirectory = kind == S_IFDIR
      let size = isDirectory ? 0 : Int64(info.st_size)
      nodes.append(
        SourceNode(
          name: entry.name, encodedName: encoded, localPath: childPath, isDirectory: isDirectory,
          size: size,
          modificationTime: Self.time(info.st_mtim),
          fileID: [UInt64(info.st_dev), UInt64(info.st_ino)],
          parent: directory))
      let index = nodes.count - 1
      childIndices.append(index)
      if isDirectory {
        directoryCount += 1
        let key = [UInt64(info.st_dev), UInt64(info.st_ino)]
        guard visited.insert(key).inserted else {
          throw DiscKitError(
            .loop, childPath, at: nil, "directory reached twice (a symbolic link loop?)")
        }
        try scan(
          directory: index, depth: depth + 1, order: order, limits: limits, visited: &visited)
        visited.remove(key)
      } else {
        fileCount += 1
        let (sum, overflow) = dataBytes.addingReportingOverflow(size)
        guard !overflow else {
          throw DiscKitError.limit(childPath, at: nil, "total size overflows")
        }
        dataBytes = sum
      }
    }
    nodes[directory].children = childIndices
  }

  static func time(_ spec: timespec) -> UDFTimestamp {
    UDFTimestamp(seconds: Int64(spec.tv_sec), nanoseconds: Int64(spec.tv_nsec))
  }

  static func errnoText() -> String {
    String(cString: strerror(errno))
  }

  /// Directory entries in the order `readdir` returns them, without `.` and `..`.
  static func listDirectory(_ path: String) throws(DiscKitError) -> [(name: String, raw: [UInt8])] {
    guard let dir = opendir(path) else {
      throw DiscKitError(.cannotOpen, path, at: nil, "cannot list directory: \(errnoText())")
    }
    defer { closedir(dir) }
    var result: [(name: String, raw: [UInt8])] = []
    while let entry = readdir(dir) {
      let raw: [UInt8] = withUnsafePointer(to: entry.pointee.d_name) { pointer in
        pointer.withMemoryRebound(to: UInt8.self, capacity: Int(NAME_MAX) + 1) { bytes in
          var out: [UInt8] = []
          var i = 0
          while i <= Int(NAME_MAX), bytes[i] != 0 {
            out.append(bytes[i])
            i += 1
          }
          return out
        }
      }
      if raw == [0x2E] || raw == [0x2E, 0x2E] { continue }
      guard let name = String(validating: raw, as: UTF8.self) else {
        throw DiscKitError(
          .invalidArgument, path + "/" + String(decoding: raw, as: UTF8.self), at: nil,
          "name is not valid UTF-8, so it has no Unicode form UDF can record")
      }
      result.append((name, raw))
    }
    return result
  }
}
