/// A chapter of a Matroska file, on the title timeline (90 kHz, 0 = the title's start).
public struct MatroskaChapter: Sendable, Hashable, Codable {
  /// The chapter's start (90 kHz ticks from the title's start).
  public var start90k: UInt64
  /// The chapter's end (90 kHz ticks from the title's start).
  public var end90k: UInt64
  /// The chapter's name (`Chapter 01`, ...).
  public var title: String
  /// Where the chapter's bytes start in the title's byte source (a Blu-ray mark's random access
  /// point, a DVD chapter's first cell); `nil` when unknown. ``MatroskaTitle/chapters(_:)``
  /// starts demuxing there.
  public var byteOffset: Int64?

  /// A chapter.
  public init(start90k: UInt64, end90k: UInt64, title: String, byteOffset: Int64? = nil) {
    self.start90k = start90k
    self.end90k = end90k
    self.title = title
    self.byteOffset = byteOffset
  }
}
