@_spi(Formats) import DiscKit

/// Lists every file of a file system and reads each where a reader would (what `ls -R` and `cat`
/// do, sampled: see ``sample(_:window:)``).
func walk(_ fileSystem: any DiscFileSystem) {
  guard let entries = try? fileSystem.recursiveContents(atPath: "/") else { return }
  for entry in entries.prefix(256) where !entry.isDirectory {
    if let file = try? fileSystem.openFile(atPath: entry.path) { sample(file, window: 4096) }
  }
}

/// UDF: anchor, volume descriptors, partition and metadata maps, file entries, directories and
/// allocation extent chains, over a sparse in-memory image (``SparseImage``).
enum UDFHarness: FuzzHarnessBody {
  static let name = "udf"
  static let takesSparseImage = true
  static func run(_ bytes: UnsafeRawBufferPointer) {
    let source = SparseImage(bytes)
    _ = try? UDFFileSystem.hasVolumeRecognitionSequence(source)
    if let fs = try? UDFFileSystem(source: source) { walk(fs) }
  }
}

/// ISO9660: volume descriptors, path through directories, Joliet and Rock Ridge names, over a sparse
/// in-memory image (``SparseImage``).
enum ISO9660Harness: FuzzHarnessBody {
  static let name = "iso9660"
  static let takesSparseImage = true
  static func run(_ bytes: UnsafeRawBufferPointer) {
    let source = SparseImage(bytes)
    _ = try? ISO9660FileSystem.hasPrimaryVolumeDescriptor(source)
    for names in [ISO9660FileSystem.NamePreference.automatic, .plain] {
      if let fs = try? ISO9660FileSystem(source: source, names: names) { walk(fs) }
    }
  }
}
