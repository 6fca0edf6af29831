/// One line of the batch mode of `disckit scan` (NDJSON): `{"path":..., "scan":...}`, or
/// `{"path":..., "error":"..."}` when that disc could not be read (the shape of the library's
/// ``TitlesBatchLine``, which the batch mode of `disckit titles` prints).
///
/// JSON Schema: `Sources/DiscKit/Documents/Schemas/scan-batch-line.schema.json`.
public struct ScanBatchLine: Encodable, Sendable {
  /// The image or folder, as found under the batch root or given on stdin.
  public var path: String
  /// The scan of the disc's title, when the disc could be read.
  public var scan: ScanDocument?
  /// The one-line error (structure and byte offset), when it could not.
  public var error: String?

  /// A line for a disc that was scanned.
  public init(path: String, scan: ScanDocument) {
    self.path = path
    self.scan = scan
    error = nil
  }

  /// A line for a disc that failed.
  public init(path: String, error: DiscKitError) {
    self.path = path
    scan = nil
    self.error = "\(error)"
  }
}
