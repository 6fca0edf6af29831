@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// The UDF helpers that need libudfread (through `DiscKitReference`).
extension UDFTesting {
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
}
