extension BlurayTitle {
  /// The continuous timeline's join edits, one per piece of `shifts` (``timestampShifts``): the
  /// continuity counters renumbered so that each clip range follows on from the ones before it,
  /// and a PES cut by a range's edge or presented outside the play item's in and out times
  /// turned into null packets, as libbluray's m2ts filter wipes them (not at a seamless join,
  /// connection condition 5 or 6, whose two sides are one stream)
  /// (``TransportStreamJoinScanner``; it waits for the video and audio PIDs of each clip's
  /// program).
  func joins(of original: any ByteSource, shifts: [TimestampShift]) throws(DiscKitError)
    -> [TransportStreamJoin]
  {
    let clipsWithBytes = clips.filter { $0.packetCount > 0 && $0.endPacket > $0.startPacket }
    let expected = clipsWithBytes.map { clip -> Set<UInt16> in
      guard let info = disc.clipInformation(clip.clipID) else { return [] }
      let streams = info.program.programs.flatMap(\.streams)
      // Video and audio (not PG, IG or text subtitles, whose packets are sparse).
      return Set(streams.filter { !(0x90...0x92).contains($0.codingType) }.map(\.pid))
    }
    let presentation = clipsWithBytes.map { clip -> (in90k: UInt64, out90k: UInt64)? in
      (clip.inTime90k, clip.outTime90k)
    }
    return try TransportStreamJoinScanner.joins(
      source: original, pieces: shifts.map { $0.start..<$0.end }, packetSize: 192,
      expectedPIDs: expected, presentation: presentation,
      seamless: clipsWithBytes.enumerated().map { k, clip in
        k > 0 && (clip.connectionCondition == 5 || clip.connectionCondition == 6)
      })
  }
}
