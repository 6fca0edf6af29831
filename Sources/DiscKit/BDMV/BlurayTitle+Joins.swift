extension BlurayTitle {
  /// The continuous timeline's join edits, one per piece of `shifts` (``timestampShifts``): the
  /// continuity counters renumbered so that each clip range follows on from the ones before it,
  /// and a PES cut by a range's edge or presented outside the play item's in and out times
  /// turned into null packets, as libbluray's m2ts filter wipes them (not at a seamless join,
  /// connection condition 5 or 6, whose two sides are one stream)
  /// (``TransportStreamJoinScanner``; it waits for the video and audio PIDs of each clip's
  /// program), and the bytes of a play item past the end of its STC sequence turned into null
  /// packets.
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
      (UInt64(clip.inTime) * 2, UInt64(clip.outTime) * 2)
    }
    // A play item's bytes end where its STC sequence does. libbluray's EP-map search for the
    // out-time (`clpi_lookup_spn`) starts at the sequence's first packet but does not stop at
    // the next sequence's, so in a clip whose PTS go back at a restart it runs on into the next
    // sequence (whose PTS are lower than the out-time): those bytes are the title's (as
    // `bd_read` delivers them) but become null packets on the continuous timeline.
    let bounds = zip(clipsWithBytes, shifts).map { clip, shift -> Int64? in
      guard let info = disc.clipInformation(clip.clipID), clip.stcID < UInt8.max,
        let next = info.stcSequence(stcID: clip.stcID + 1)?.spnSTCStart,
        next > clip.startPacket, next < clip.endPacket
      else { return nil }
      let bound = shift.start + Int64(next - clip.startPacket) * 192
      return bound < shift.end ? bound : nil
    }
    let joins = try TransportStreamJoinScanner.joins(
      source: original,
      pieces: zip(shifts, bounds).map { shift, bound in shift.start..<(bound ?? shift.end) },
      packetSize: 192,
      expectedPIDs: expected, presentation: presentation,
      seamless: clipsWithBytes.enumerated().map { k, clip in
        k > 0 && (clip.connectionCondition == 5 || clip.connectionCondition == 6)
      })
    return zip(joins, zip(shifts, bounds)).map { join, piece in
      guard let bound = piece.1 else { return join }
      return join.extended(to: piece.0.end, nullingFrom: bound)
    }
  }
}
