/// A chapter (part of title) of a ``DVDTitle``.
public struct DVDChapter: Sendable, Hashable {
  /// 1-based chapter number.
  public var number: Int
  /// The PGC and program the chapter starts at (1-based).
  public var programChain: Int
  /// The program within that PGC where the chapter starts (1-based).
  public var program: Int
  /// The chapter's first cell within its PGC (1-based).
  public var firstCell: Int
  /// Start time within the title and duration, in 90 kHz ticks (libdvdnav's frame convention).
  public var start90k: Int64
  /// The chapter's duration, in 90 kHz ticks.
  public var duration90k: Int64
  /// The chapter's cells as indices into ``DVDTitle/cells``.
  public var cellRange: Range<Int>
}
