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
      (clip.inTime90k, clip.outTime90k)
    }
    // A play item's bytes end where its STC sequence does. The out-time's EP-map search
    // (libbluray's `clpi_lookup_spn`) gives the next sequence's first random access point, so
    // the item's bytes (as `bd_read` delivers them) also hold the next sequence's first packets
    // (its PAT, PMT and SDT, their continuity counters restarted): on the continuous timeline
    // they become null packets (the tables repeat in the next item).
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
