import DiscKit

extension StagingTree {
  /// Writes files given by relative path (`BDMV/BDJO/00000.bdjo`, `BDMV/JAR/00000/a.xml`) after
  /// the builder's own, creating missing directories; a file the builder wrote is replaced (so
  /// a test can put in its own `index.bdmv`).
  func writeExtraFiles(_ files: [String: [UInt8]]) throws(DiscKitError) {
    for (relative, bytes) in files.sorted(by: { $0.key < $1.key }) {
      let parts = relative.split(separator: "/").map(String.init)
      guard !parts.isEmpty, !parts.contains(".."), !parts.contains(".") else {
        throw DiscKitError(
          .invalidArgument, relative, at: nil, "an extra file's path must be relative and plain")
      }
      var directory = ""
      for part in parts.dropLast() {
        directory += directory.isEmpty ? part : "/" + part
        if !LocalPath.exists(path(directory)) { try makeDirectory(directory) }
      }
      try writeFile(relative, bytes)
    }
  }
}
