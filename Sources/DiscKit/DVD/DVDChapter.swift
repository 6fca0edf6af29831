/// A chapter (part of title) of a ``DVDTitle``, as the IFO gives it (the public form is
/// ``DiscTitle/Chapter``).
package struct DVDChapter: Sendable, Hashable {
  /// 1-based chapter number.
  package var number: Int
  /// The PGC and program the chapter starts at (1-based).
  package var programChain: Int
  /// The program within that PGC where the chapter starts (1-based).
  package var program: Int
  /// The chapter's first cell within its PGC (1-based).
  package var firstCell: Int
  /// Start time within the title and duration, in 90 kHz ticks (libdvdnav's frame convention).
  package var start90k: Int64
  /// The chapter's duration, in 90 kHz ticks.
  package var duration90k: Int64
  /// The chapter's cells as indices into ``DVDTitle/cells``.
  package var cellRange: Range<Int>
}
