import DiscKit

/// An in-memory file system for the fuzz harnesses and the tests (DiscKitTestSupport re-exports
/// it): absolute paths to bytes, directories implied.
package struct MemoryFileSystem: DiscFileSystem {
  package var files: [String: [UInt8]]

  package init(files: [String: [UInt8]]) { self.files = files }
  package var kind: FileSystemKind { .folder }
  package var revision: String? { nil }
  package var volumeLabel: String { "memory" }

  package func contentsOfDirectory(atPath path: String) throws(DiscKitError) -> [DiscFileEntry] {
    let prefix = path == "/" ? "/" : path + "/"
    var names: [String: DiscFileEntry] = [:]
    for (p, bytes) in files where p.hasPrefix(prefix) {
      let rest = p.dropFirst(prefix.count)
      let parts = rest.split(separator: "/")
      guard let first = parts.first else { continue }
      let name = String(first)
      names[name] = DiscFileEntry(
        name: name, path: prefix + name, size: parts.count == 1 ? Int64(bytes.count) : 0,
        isDirectory: parts.count > 1)
    }
    guard !names.isEmpty || path == "/" else {
      throw DiscKitError(.notFound, path, at: nil, "no such directory")
    }
    return names.keys.sorted().compactMap { names[$0] }
  }

  package func openFile(atPath path: String) throws(DiscKitError) -> any ByteSource {
    guard let bytes = files[path] else {
      throw DiscKitError(.notFound, path, at: nil, "no such file")
    }
    return MemoryByteSource(bytes)
  }
}
