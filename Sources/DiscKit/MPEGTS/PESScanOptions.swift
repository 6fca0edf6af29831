/// Settings of ``PESPreScanner``.
public struct PESScanOptions: Sendable, Hashable {
  /// Bytes of each video PES payload scanned for start codes (SEI before an IDR can be long).
  public var payloadBound = 4096
  /// The packet layout, when known; nil detects it.
  public var format: TransportPacketFormat?
  /// Bytes read per call by ``PESPreScanner/scan(source:offset:window:options:)``.
  public var chunkSize = 1 << 20
  /// Warnings kept in the report (the rest are counted in ``PESScanReport/warningsOmitted``).
  public var maxWarnings = 64
  /// PIDs carrying PES packets that are followed (more are counted, not followed).
  public var maxTrackedPIDs = 128
  /// Absolute offsets where a new stream file begins (the clips of a Blu-ray title): continuity
  /// counters restart there, so the jump is not reported as a continuity error. Sorted.
  public var streamBoundaries: [Int64] = []

  /// Creates the default options.
  public init() {}
}
