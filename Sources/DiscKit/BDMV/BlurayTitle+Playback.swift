extension BlurayTitle {
  /// Where playback from a title time starts: an offset in the title's bytes, plus the packets a
  /// player must send first.
  public struct PlaybackStart: Sendable, Hashable {
    /// The offset in the title's bytes (``byteSource()``).
    public var offset: Int64
    /// PAT/PMT/PCR source packets (192 bytes each) of the clip that precede its range in the title
    /// (a non-seamless clip's range starts at an EP-map entry, after the clip's first PSI
    /// packets). Send them before the title bytes from `offset`; usually empty.
    public var prefix: [UInt8]
  }

  /// Where playback from title time `time90k` should start: the random access point at or before
  /// it (``byteOffset(forTitleTime:)``), moved back over the PAT, PMT and PCR packets (PID ≤
  /// 0x1001) that directly precede it in the same 6144-byte aligned unit.
  ///
  /// libbluray does the same on its first read after a seek: `prefix` followed by the title bytes
  /// from `offset` are exactly the bytes `bd_read` returns after `bd_seek_time`. It matters to
  /// demuxers with a PAT gate (GStreamer's tsdemux drops every PES that arrives before the first
  /// PAT): started at the bare EP-map position they drop the IDR picture there.
  ///
  public func playbackStart(forTitleTime time90k: UInt64)
    throws(DiscKitError) -> PlaybackStart
  {
    try playbackStart(atRandomAccessPoint: byteOffset(forTitleTime: time90k))
  }

  /// The title time (90 kHz) of the EP-map random access point playback from `time90k` starts
  /// at: `titleTime(forByteOffset: byteOffset(forTitleTime:))`.
  package func keyframeTime(forTitleTime time90k: UInt64) -> MediaTime {
    MediaTime(clamping: titleTime(forByteOffset: byteOffset(forTitleTime: time90k)))
  }

  /// Where playback from the random access point at title byte `offset` starts (a time's EP-map
  /// position, a chapter's ``Chapter/offset``): moved back over the PSI packets before it, as
  /// libbluray's first read after `bd_seek_time` or `bd_seek_chapter`.
  package func playbackStart(atRandomAccessPoint offset: Int64)
    throws(DiscKitError) -> PlaybackStart
  {
    guard
      let clip = clips.last(where: { $0.byteCount > 0 && $0.titleOffset <= offset }),
      offset < clip.titleOffset + clip.byteCount
    else { return PlaybackStart(offset: offset, prefix: []) }
    let rangeStart = Int64(clip.startPacket) * 192
    let clipPosition = rangeStart + (offset - clip.titleOffset)
    let unitStart = clipPosition / 6144 * 6144
    guard unitStart < clipPosition else { return PlaybackStart(offset: offset, prefix: []) }
    // Read the unit up to the seek point from the clip's own stream file (it may begin before
    // the clip's range in the title).
    let file = try disc.fileSystem.openFile(atPath: "/BDMV/STREAM/" + clip.streamFileName)
    let bytes = try file.bytes(
      at: unitStart, count: Int(clipPosition - unitStart), structure: clip.streamFileName)
    var position = bytes.count
    while position >= 192 {
      let packet = position - 192
      let pid = (UInt16(bytes[packet + 5] & 0x1F) << 8) | UInt16(bytes[packet + 6])
      guard bytes[packet + 4] == 0x47, pid <= 0x1001 else { break }
      position = packet
    }
    let newClipPosition = unitStart + Int64(position)
    if newClipPosition >= rangeStart {
      return PlaybackStart(offset: clip.titleOffset + (newClipPosition - rangeStart), prefix: [])
    }
    let prefixEnd = Int(rangeStart - unitStart)
    return PlaybackStart(offset: clip.titleOffset, prefix: Array(bytes[position..<prefixEnd]))
  }

  /// ``playbackStart(forTitleTime:)``'s offset (its `prefix` is usually empty).
  public func playbackOffset(forTitleTime time90k: UInt64) throws(DiscKitError) -> Int64 {
    try playbackStart(forTitleTime: time90k).offset
  }
}

extension BlurayTitle.PlaybackStart {
  /// The title's bytes with ``prefix`` spliced in just before ``offset``, and the offset to read
  /// from: reading the result from there gives exactly what libbluray's `bd_read` returns after
  /// the seek, at the positions libbluray reports (`bd_tell`). Without a prefix this is `source`
  /// and ``offset`` unchanged.
  public func splice(into source: any ByteSource) throws(DiscKitError) -> (
    source: any ByteSource, offset: Int64
  ) {
    let count = Int(min(Int64(prefix.count), offset))
    guard count > 0 else { return (source, offset) }
    let from = offset - Int64(count)
    let spliced = try ConcatenatedByteSource(
      [
        .init(source: source, offset: 0, length: from),
        .init(
          source: MemoryByteSource(Array(prefix.suffix(count))), offset: 0, length: Int64(count)),
        .init(source: source, offset: offset, length: source.size - offset),
      ], structure: "title with playback prefix")
    return (spliced, from)
  }
}
