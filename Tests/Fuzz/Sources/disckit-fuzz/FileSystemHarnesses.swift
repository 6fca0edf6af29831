import DiscKit

/// Lists every file of a file system and reads each (what `ls -R` and `cat` do).
func walk(_ fileSystem: any DiscFileSystem) {
  guard let entries = try? fileSystem.recursiveContents(atPath: "/") else { return }
  for entry in entries.prefix(256) where !entry.isDirectory {
    if let file = try? fileSystem.openFile(atPath: entry.path) { drain(file, limit: 1 << 20) }
  }
}

/// UDF: anchor, volume descriptors, partition and metadata maps, file entries, directories and
/// allocation extent chains, over an in-memory image.
enum UDFHarness: FuzzHarness {
  static let name = "udf"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    let source = MemoryByteSource([UInt8](bytes))
    _ = try? UDFFileSystem.hasVolumeRecognitionSequence(source)
    if let fs = try? UDFFileSystem(source: source) { walk(fs) }
  }
}

/// ISO9660: volume descriptors, path through directories, Joliet and Rock Ridge names.
enum ISO9660Harness: FuzzHarness {
  static let name = "iso9660"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    let source = MemoryByteSource([UInt8](bytes))
    _ = try? ISO9660FileSystem.hasPrimaryVolumeDescriptor(source)
    for names in [ISO9660FileSystem.NamePreference.automatic, .plain] {
      if let fs = try? ISO9660FileSystem(source: source, names: names) { walk(fs) }
    }
  }
}
