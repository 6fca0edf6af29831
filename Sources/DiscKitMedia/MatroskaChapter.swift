import DiscKit

/// A chapter of a Matroska file, on the title timeline (0 = the title's start).
public struct MatroskaChapter: Sendable, Hashable, Codable {
  /// The chapter's start, from the title's start.
  public var start: MediaTime
  /// The chapter's end, from the title's start.
  public var end: MediaTime
  /// The chapter's name (`Chapter 01`, ...).
  public var title: String
  /// Where the chapter's bytes start in the title's byte source (a Blu-ray mark's random access
  /// point, a DVD chapter's first cell); `nil` when unknown. ``MatroskaTitle/chapters(_:)``
  /// starts demuxing there.
  public var byteOffset: Int64?

  /// A chapter.
  public init(start: MediaTime, end: MediaTime, title: String, byteOffset: Int64? = nil) {
    self.start = start
    self.end = end
    self.title = title
    self.byteOffset = byteOffset
  }
}
