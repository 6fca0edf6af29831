/// A clip information file (`BDMV/CLIPINF/xxxxx.clpi`).
@_spi(Formats)
public struct ClipInformation: Sendable, Hashable, Codable {
  /// The header version.
  public var version: BDMVVersion
  /// ClipInfo fields.
  public var clipStreamType: UInt8
  /// `application_type` (1 for the main TS of a movie; other values for slide shows and sub-paths).
  public var applicationType: UInt8
  /// `is_ATC_delta`.
  public var isATCDelta: Bool
  /// `TS_recording_rate`: the stream's maximum rate, in bytes per second.
  public var tsRecordingRate: UInt32
  /// The number of 192-byte source packets in the clip's stream file.
  public var sourcePacketCount: UInt32
  /// TS type info format identifier (`"HDMV"`).
  public var formatID: String
  /// SequenceInfo.
  public var sequence: ClipSequenceInfo
  /// ProgramInfo.
  public var program: ClipProgramInfo
  /// The EP map (`nil` when the CPI is empty).
  public var epMap: EPMap?

  /// Creates clip information (for authoring and tests).
  public init(
    version: BDMVVersion = .v0200, applicationType: UInt8 = 1, tsRecordingRate: UInt32 = 6_000_000,
    sourcePacketCount: UInt32, sequence: ClipSequenceInfo, program: ClipProgramInfo, epMap: EPMap?
  ) {
    self.version = version
    self.clipStreamType = 1
    self.applicationType = applicationType
    self.isATCDelta = false
    self.tsRecordingRate = tsRecordingRate
    self.sourcePacketCount = sourcePacketCount
    self.formatID = "HDMV"
    self.sequence = sequence
    self.program = program
    self.epMap = epMap
  }

  /// Parses a whole `.clpi` file held by `reader`.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    version = try BDMVVersion.readHeader(&reader, type: "HDMV")
    guard reader.count >= 40 else {
      throw DiscKitError.truncated(
        reader.structure, at: reader.absoluteOffset(ofRelative: 8), needed: 32)
    }
    let sequenceStart = Int(try reader.readUInt32BE())
    let programStart = Int(try reader.readUInt32BE())
    let cpiStart = Int(try reader.readUInt32BE())

    let structure = reader.structure
    reader.structure = structure + " ClipInfo"
    try reader.seek(toRelative: 40)
    try reader.skip(6)
    clipStreamType = try reader.readUInt8()
    applicationType = try reader.readUInt8()
    isATCDelta = try reader.readUInt32BE() & 1 != 0
    tsRecordingRate = try reader.readUInt32BE()
    sourcePacketCount = try reader.readUInt32BE()
    try reader.skip(128)
    let typeInfoLength = Int(try reader.readUInt16BE())
    formatID = ""
    if typeInfoLength > 0 {
      let start = reader.relativePosition
      try reader.skip(1)
      formatID = try reader.readIdentifier(4)
      try reader.seek(toRelative: start + typeInfoLength)
    }

    func section(_ name: String, _ start: Int, _ r: inout BinaryReader) throws(DiscKitError) {
      r.structure = structure + " " + name
      guard start <= r.count else {
        throw r.malformed(
          "\(name) start \(start) lies past the end of the \(r.count)-byte file", atRelative: 8)
      }
      try r.seek(toRelative: start)
    }
    try section("SequenceInfo", sequenceStart, &reader)
    sequence = try ClipSequenceInfo(parsing: &reader)
    try section("ProgramInfo", programStart, &reader)
    program = try ClipProgramInfo(parsing: &reader)
    try section("CPI", cpiStart, &reader)
    epMap = try EPMap.parse(&reader)
    reader.structure = structure
  }

  /// Parses clip information from its bytes.
  public init(bytes: [UInt8], name: String = "CLPI", baseOffset: Int64 = 0) throws(DiscKitError) {
    var reader = BinaryReader(bytes, baseOffset: baseOffset, structure: name)
    try self.init(parsing: &reader)
  }

  /// The STC sequence `stcID` (nil when the clip has none by that id).
  public func stcSequence(stcID: UInt8) -> ClipSequenceInfo.STCSequence? {
    for atc in sequence.atcSequences
    where Int(stcID) >= Int(atc.offsetSTCID)
      && Int(stcID) < Int(atc.offsetSTCID) + atc.stcSequences.count
    {
      return atc.stcSequences[Int(stcID) - Int(atc.offsetSTCID)]
    }
    return nil
  }

  /// Whether the presentation times of STC sequence `stcID` cross the 33-bit PTS wrap (its
  /// presentation end is before its start, by a plausible wrapped duration).
  public func wrapsPTS(stcID: UInt8) -> Bool {
    guard let stc = stcSequence(stcID: stcID) else { return false }
    return stc.presentationEndTime < stc.presentationStartTime
      && stc.presentationEndTime &- stc.presentationStartTime < PlayItem.maxWrappedDuration45k
  }

  /// ``lookupPacket(pts45k:before:stcID:)`` for clips whose PTS cross the 33-bit wrap, where
  /// libbluray's search (comparing raw PTS values) fails: entry points and `pts45k` are compared
  /// as times after `origin` (modulo 2^32 at 45 kHz), `origin` being a time at or before the
  /// clip's first entry point (its presentation start, less a margin).
  ///
  /// - Returns: `before`: the last entry point at or after the STC sequence's first packet whose
  ///   time is at or before `pts45k` (0 if none); otherwise the first one after it
  ///   (``sourcePacketCount`` if none), as libbluray's search does on a clip that does not wrap.
  public func lookupPacket(pts45k timestamp: UInt32, before: Bool, stcID: UInt8, origin: UInt32)
    -> UInt32
  {
    guard let stream = epMap?.streams.first else { return before ? 0 : sourcePacketCount }
    let stcSPN = sequence.stcStartPacket(stcID: stcID)
    let target = timestamp &- origin
    var last: UInt32?
    for entry in stream.entryPoints where entry.spn >= stcSPN {
      if entry.pts45k &- origin > target {
        return before ? (last ?? 0) : entry.spn
      }
      last = entry.spn
    }
    return before ? (last ?? 0) : sourcePacketCount
  }

  /// The packet lookup a title uses: libbluray's (``lookupPacket(pts45k:before:stcID:)``) unless
  /// STC sequence `stcID` crosses the PTS wrap, then the wrap-aware one from the sequence's
  /// presentation start less 10 s.
  public func titleLookupPacket(pts45k timestamp: UInt32, before: Bool, stcID: UInt8) -> UInt32 {
    if wrapsPTS(stcID: stcID), let stc = stcSequence(stcID: stcID) {
      return lookupPacket(
        pts45k: timestamp, before: before, stcID: stcID,
        origin: stc.presentationStartTime &- 450_000)
    }
    return lookupPacket(pts45k: timestamp, before: before, stcID: stcID)
  }

  /// libbluray's `clpi_lookup_spn`, reproduced exactly (including its quirks) over `epMap.streams[0]`.
  ///
  /// - Parameters:
  ///   - pts45k: the time in the clip (45 kHz).
  ///   - before: `true`: the last entry point at or before `pts45k` (0 if none); `false`: the first
  ///     entry point after it (``sourcePacketCount`` if none).
  ///   - stcID: the STC sequence; the search starts at that sequence's first packet.
  public func lookupPacket(pts45k timestamp: UInt32, before: Bool, stcID: UInt8) -> UInt32 {
    guard let entry = epMap?.streams.first else {
      return before ? 0 : sourcePacketCount
    }
    let stcSPN = sequence.stcStartPacket(stcID: stcID)
    // The tables through unsafe buffers (a title's clips each look up two packets, scanning the
    // coarse table from its start: bounds-checked element reads cost most of a listing's
    // title building); the indices are checked as libbluray's code checks them.
    return entry.coarse.withUnsafeBufferPointer { coarse in
      entry.fine.withUnsafeBufferPointer { fine in
        Self.lookup(
          coarse: coarse, fine: fine, stcSPN: stcSPN, timestamp: timestamp, before: before,
          sourcePacketCount: sourcePacketCount)
      }
    }
  }

  private static func lookup(
    coarse: UnsafeBufferPointer<EPMap.Coarse>, fine: UnsafeBufferPointer<EPMap.Fine>,
    stcSPN: UInt32, timestamp: UInt32, before: Bool, sourcePacketCount: UInt32
  ) -> UInt32 {
    let n = coarse.count
    func finePTS(_ j: Int) -> UInt32 { j >= 0 && j < fine.count ? UInt32(fine[j].pts) &<< 8 : 0 }
    func fineSPN(_ j: Int) -> UInt32 { j >= 0 && j < fine.count ? fine[j].spn : 0 }
    func coarsePTS(_ i: Int) -> UInt32 { UInt32(coarse[i].pts & ~1) &<< 18 }

    var ii = 0
    var ref = 0
    while ii < n {
      ref = Int(coarse[ii].refFineID)
      if coarse[ii].spn >= stcSPN { break }
      ii += 1
    }
    if ii >= n { return sourcePacketCount }
    var jj = 0
    var end = 0
    var pts = coarsePTS(ii) &+ finePTS(ref)
    if pts > timestamp && ii > 0 {
      ii -= 1
      let cpts = coarsePTS(ii)
      let cspn = coarse[ii].spn
      let start = Int(coarse[ii].refFineID)
      end = Int(coarse[ii + 1].refFineID)
      jj = start
      while jj < end {
        pts = cpts &+ finePTS(jj)
        let spn = (cspn & ~0x1FFFF) &+ fineSPN(jj)
        if stcSPN >= spn && pts > timestamp { break }
        jj += 1
      }
    } else {
      let first = ii
      ii = first
      while ii < n {
        ref = Int(coarse[ii].refFineID)
        pts = coarsePTS(ii) &+ finePTS(ref)
        if pts > timestamp { break }
        ii += 1
      }
      if ii == 0 { return 0 }
      ii -= 1
      let cpts = coarsePTS(ii)
      let start = Int(coarse[ii].refFineID)
      end = ii < n - 1 ? Int(coarse[ii + 1].refFineID) : fine.count
      jj = start
      while jj < end {
        pts = cpts &+ finePTS(jj)
        if pts > timestamp { break }
        jj += 1
      }
    }
    if before { jj -= 1 }
    if jj == end {
      ii += 1
      if ii >= n { return sourcePacketCount }
      jj = Int(coarse[ii].refFineID)
    }
    return (coarse[ii].spn & ~0x1FFFF) &+ fineSPN(jj)
  }
}
