extension BlurayTitle.Clip {
  /// This clip's GStreamer segment (``Segment``, nanoseconds): `start` = the clip's in-time in its own
  /// PTS epoch, `time` = the title time at which the clip starts, `stop` = the out-time.
  ///
  /// A server that demuxes this clip maps any PTS `p` (converted to nanoseconds with
  /// ``ClockTime/nanoseconds(ticks90kHz:)``) onto the title timeline with
  /// `segment.toStreamTime(p)`, whatever the clip's epoch: the split-epoch fix. `nil` when the
  /// play item's out-time is before its in-time (a broken or obfuscated playlist). An item whose
  /// PTS cross the 33-bit wrap gets `stop` = the out-time plus 2^33 ticks (90 kHz): unwrap its PTS
  /// below the in-time the same way (``BlurayTitle/titleTime(ofPTS:inClip:)`` does).
  public var timeSegment: Segment? {
    guard let titleStart = ClockTime.nanoseconds(ticks45kHz: UInt64(titleTime)) else { return nil }
    let wraps = outTime < inTime && duration < PlayItem.maxWrappedDuration45k
    return try? Segment.forPlaylistClip(
      inTime45kHz: UInt64(inTime), outTime45kHz: UInt64(outTime) + (wraps ? 1 << 32 : 0),
      titleTimeAtClipStart: titleStart)
  }
}

extension BlurayTitle {
  /// Each clip's GStreamer segment (see ``BlurayTitle/Clip/timeSegment``), in play order.
  public var timeSegments: [Segment?] { clips.map(\.timeSegment) }

  /// The title time (nanoseconds) of a 90 kHz PTS demuxed from clip `clipIndex`, or `nil` when the
  /// PTS lies outside the clip's in/out range or the clip has no valid segment.
  public func titleTime(ofPTS pts90k: UInt64, inClip clipIndex: Int) -> UInt64? {
    guard clips.indices.contains(clipIndex), let segment = clips[clipIndex].timeSegment else {
      return nil
    }
    let clip = clips[clipIndex]
    var pts = pts90k & 0x1_FFFF_FFFF
    if clip.outTime < clip.inTime && pts < clip.inTime90k { pts += 1 << 33 }
    guard let position = ClockTime.nanoseconds(ticks90kHz: pts) else { return nil }
    return segment.toStreamTime(position)
  }
}
