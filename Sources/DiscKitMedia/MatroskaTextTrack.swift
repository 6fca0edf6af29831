/// A text subtitle track of a Matroska file (`S_TEXT/UTF8`, SubRip text): cues on the title
/// timeline, written beside the title's own tracks (``MatroskaTitle/textTracks``).
public struct MatroskaTextTrack: Sendable, Hashable {
  /// One cue: its text (lines separated by `\n`) from `start90k` to `end90k` (title time).
  public struct Cue: Sendable, Hashable {
    public var start90k: Int64
    public var end90k: Int64
    public var text: String

    /// A cue.
    public init(start90k: Int64, end90k: Int64, text: String) {
      self.start90k = start90k
      self.end90k = end90k
      self.text = text
    }
  }

  /// The Matroska language (ISO 639-2 bibliographic).
  public var language: String
  /// The track's Matroska `Name` (e.g. "English (recognised text)").
  public var name: String
  /// Whether the track holds forced captions only (Matroska `FlagForced`).
  public var forced: Bool
  /// The cues, in time order.
  public var cues: [Cue]

  /// A track.
  public init(language: String, name: String, forced: Bool, cues: [Cue]) {
    self.language = language
    self.name = name
    self.forced = forced
    self.cues = cues
  }
}
