/// A clip's SequenceInfo: its ATC sequences and, in each, the STC (PCR time base) sequences.
@_spi(Formats)
public struct ClipSequenceInfo: Sendable, Hashable, Codable {
  /// One STC sequence: a run of packets with one continuous PCR time base.
  public struct STCSequence: Sendable, Hashable, Codable {
    /// `PCR_PID`: the PID carrying the sequence's PCR.
    public var pcrPID: UInt16
    /// First source packet of the sequence.
    public var spnSTCStart: UInt32
    /// Presentation start/end time (45 kHz).
    public var presentationStartTime: UInt32
    /// `presentation_end_time` (45 kHz).
    public var presentationEndTime: UInt32

    /// Creates an STC sequence.
    public init(
      pcrPID: UInt16, spnSTCStart: UInt32, presentationStartTime: UInt32,
      presentationEndTime: UInt32
    ) {
      self.pcrPID = pcrPID
      self.spnSTCStart = spnSTCStart
      self.presentationStartTime = presentationStartTime
      self.presentationEndTime = presentationEndTime
    }
  }

  /// One ATC (arrival time clock) sequence.
  public struct ATCSequence: Sendable, Hashable, Codable {
    /// `SPN_ATC_start`: the first source packet of the ATC sequence.
    public var spnATCStart: UInt32
    /// The STC id of `stcSequences[0]`.
    public var offsetSTCID: UInt8
    /// The STC sequences; `stcSequences[i]` has STC id `offsetSTCID + i`.
    public var stcSequences: [STCSequence]

    /// Creates an ATC sequence.
    public init(spnATCStart: UInt32 = 0, offsetSTCID: UInt8 = 0, stcSequences: [STCSequence]) {
      self.spnATCStart = spnATCStart
      self.offsetSTCID = offsetSTCID
      self.stcSequences = stcSequences
    }
  }

  /// The ATC sequences.
  public var atcSequences: [ATCSequence]

  /// Creates SequenceInfo from its ATC sequences.
  public init(atcSequences: [ATCSequence]) { self.atcSequences = atcSequences }

  /// Parses SequenceInfo at the reader's cursor.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    try reader.skip(5)
    let atcCount = Int(try reader.readUInt8())
    atcSequences = []
    for _ in 0..<atcCount {
      let spn = try reader.readUInt32BE()
      let stcCount = Int(try reader.readUInt8())
      let offset = try reader.readUInt8()
      guard stcCount * 14 <= reader.remaining else {
        throw reader.malformed("\(stcCount) STC sequences do not fit in the file")
      }
      var stcs: [STCSequence] = []
      for _ in 0..<stcCount {
        stcs.append(
          STCSequence(
            pcrPID: try reader.readUInt16BE(), spnSTCStart: try reader.readUInt32BE(),
            presentationStartTime: try reader.readUInt32BE(),
            presentationEndTime: try reader.readUInt32BE()))
      }
      atcSequences.append(ATCSequence(spnATCStart: spn, offsetSTCID: offset, stcSequences: stcs))
    }
  }

  /// libbluray's `clpi_find_stc_spn`: the first packet of STC sequence `stcID` (0 if unknown).
  ///
  /// libbluray indexes with `stc_id - offset_stc_id` unchecked; DiscKit returns 0 when the id lies
  /// below the ATC sequence's offset (a documented degradation for corrupt input).
  public func stcStartPacket(stcID: UInt8) -> UInt32 {
    for atc in atcSequences where Int(stcID) < Int(atc.offsetSTCID) + atc.stcSequences.count {
      let index = Int(stcID) - Int(atc.offsetSTCID)
      guard index >= 0 else { return 0 }
      return atc.stcSequences[index].spnSTCStart
    }
    return 0
  }
}
