/// What to do with an audio buffer at startup (``AudioStartupAlignment/decision(pts:duration:)``).
public enum AudioSampleDecision: String, Sendable, Hashable, Codable {
  /// Pass the buffer on: it ends after the target (or cannot be placed).
  case keep
  /// Drop the buffer: all of it lies before the target.
  case drop
}
