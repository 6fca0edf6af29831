/// Which timestamps a title's bytes carry.
///
/// A Blu-ray playlist plays clips that each keep their own PTS epoch (and a DVD title plays cells
/// whose timestamps may restart); read verbatim, such a title is a file whose timestamps jump.
public enum TitleTimeline: String, Sendable, Hashable, CaseIterable, Codable {
  /// The disc's bytes as they are (Blu-ray: what libbluray's `bd_read` returns).
  case original
  /// The same bytes with every PTS/DTS and PCR (DVD: pack SCR) moved so that the whole title is
  /// one timeline: a timestamp `t` of play item (cell) `k` becomes `t - in_k + start_k + base`
  /// modulo 2^33, where `start_k` is the item's start in title time and `base` the first item's
  /// in-time. A title whose items already follow each other is unchanged.
  case continuous
}

/// One piece of a title's bytes whose timestamps all move by the same amount.
public struct TimestampShift: Sendable, Hashable {
  /// The piece: `start..<end` in the title's bytes.
  public var start: Int64
  /// The end (exclusive) of the piece in the title's bytes.
  public var end: Int64
  /// What is added to every 33-bit, 90 kHz timestamp of the piece, modulo 2^33.
  public var delta90k: UInt64

  /// Creates a shift.
  public init(start: Int64, end: Int64, delta90k: UInt64) {
    self.start = start
    self.end = end
    self.delta90k = delta90k & TimestampField.mask
  }
}
