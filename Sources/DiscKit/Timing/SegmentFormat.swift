/// `GstFormat`: the unit of a segment's values.
///
/// DiscKit's segment arithmetic is the same in every format (as in GStreamer, where the `format`
/// argument of the conversion functions only has to match the segment's); times are nanoseconds
/// in ``time``, the format the timing code uses.
public enum SegmentFormat: UInt32, Sendable, Hashable, Codable {
  /// `GST_FORMAT_UNDEFINED`.
  case undefined = 0
  /// `GST_FORMAT_DEFAULT` (samples for audio, frames for video).
  case `default` = 1
  /// `GST_FORMAT_BYTES`.
  case bytes = 2
  /// `GST_FORMAT_TIME`: nanoseconds.
  case time = 3
  /// `GST_FORMAT_BUFFERS`.
  case buffers = 4
  /// `GST_FORMAT_PERCENT`.
  case percent = 5
}
