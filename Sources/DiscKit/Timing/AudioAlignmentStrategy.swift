/// Which rule ``AudioStartupAlignment`` used to find the target audio PTS (tried in this order).
public enum AudioAlignmentStrategy: String, Sendable, Hashable, Codable, CaseIterable {
  /// 1. The first audio buffer actually observed is at the timeline origin (its stream time is
  ///    within the tolerance, 250 ms by default, of the video segment's `time`), so the target is
  ///    that observed PTS plus the video offset: `observedFirstAudioPTS + videoOffset`.
  case observedAudioOrigin
  /// 2. The video's absolute stream time mapped through the audio segment:
  ///    `audio.positionFromStreamTime(videoStreamTime)`, i.e.
  ///    `audio.start + (videoStreamTime − audio.time) / |audio.appliedRate|`.
  case absoluteVideoAnchor
  /// 3. The requested start (in audio timestamps) plus the video offset:
  ///    `requestedStart + videoOffset`.
  case requestedStartOffset
  /// 4. Nothing is known well enough; no audio is dropped.
  case unavailable
}
