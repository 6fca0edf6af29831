import DiscKit

/// One line of `disckit scan --batch` output (NDJSON): `{"path":..., "scan":...}`, or
/// `{"path":..., "error":"..."}` when that disc could not be read (the shape of the library's
/// ``TitlesBatchLine``, which `titles --batch` prints).
package struct ScanBatchLine: Encodable, Sendable {
  /// The image or folder, as found under the batch root or given on stdin.
  package var path: String
  /// The scan of the disc's title, when the disc could be read.
  package var scan: ScanDocument?
  /// The one-line error (structure and byte offset), when it could not.
  package var error: String?

  /// A line for a disc that was scanned.
  package init(path: String, scan: ScanDocument) {
    self.path = path
    self.scan = scan
    error = nil
  }

  /// A line for a disc that failed.
  package init(path: String, error: DiscKitError) {
    self.path = path
    scan = nil
    self.error = "\(error)"
  }
}
