/// `GstSeekType`: how a seek's start or stop value is interpreted.
public enum SeekType: String, Sendable, Hashable, Codable, CaseIterable {
  /// `GST_SEEK_TYPE_NONE`: keep the segment's current value.
  case none
  /// `GST_SEEK_TYPE_SET`: the value is absolute.
  case set
  /// `GST_SEEK_TYPE_END`: the value is relative to the segment's duration.
  case end
}
