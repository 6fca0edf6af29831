@_spi(Formats) import DiscKit

/// What the BDMV builder learnt about one source transport stream while converting it into a
/// `BDMV/STREAM/nnnnn.m2ts` clip: its program, streams, presentation times and random access
/// points. Everything a clip information file (`.clpi`) and the playlists need.
public struct BDMVClipAnalysis: Sendable, Hashable {
  /// One random access point of the video stream, as the EP map records it.
  public struct EntryPoint: Sendable, Hashable {
    /// The PTS of the access unit (33 bits, 90 kHz).
    public var pts90k: UInt64
    /// The source packet number of the packet where its PES starts.
    public var spn: UInt32
    /// `I_end_position_offset`: how far the picture reaches (1: under 128 KiB, ..., 7: 1.25 MiB
    /// or more).
    public var iEndPositionOffset: UInt8
  }

  /// The source file.
  public var source: String
  /// Its packet layout (188-byte packets are converted to 192-byte source packets).
  public var inputFormat: TransportPacketFormat
  /// Source packets in the converted clip (`num_source_packets`).
  public var packetCount: UInt32
  /// The program's number and PMT PID.
  public var programNumber: UInt16
  public var pmtPID: UInt16
  /// The PCR PID.
  public var pcrPID: UInt16
  /// The streams Blu-ray can carry, with their ProgramInfo attributes, in PMT order.
  @_spi(Formats)
  public var streams: [ClipProgramInfo.Stream]
  /// Streams of the PMT that Blu-ray cannot carry (e.g. AAC); they stay in the stream file but
  /// are not listed in the clip information or the playlists.
  public var ignoredStreams: [UInt16]
  /// The first video stream (the EP map's stream); in an audio-only clip (a sub-path's), its
  /// first audio stream.
  public var videoPID: UInt16
  public var videoCodec: StreamCodec
  /// The HEVC video's colour description (SPS VUI, HDR10 SEI messages) from its first access
  /// unit; `nil` for other codings or when the first PES does not parse.
  package var videoColour: HEVCColourMetadata? = nil
  /// The Dolby Vision enhancement layer's PID (0x1015 on UHD Blu-ray), listed in the playlists'
  /// Dolby Vision STN entries; `nil` without one.
  package var enhancementLayerPID: UInt16? = nil
  /// The random access points of the video stream, in stream order.
  public var entryPoints: [EntryPoint]
  /// The first presented video PTS (33 bits, 90 kHz) and how long the video lasts (to the end of
  /// the last frame).
  public var presentationStart90k: UInt64
  public var duration90k: UInt64
  /// The measured video frame rate.
  public var frameRate: Double
  /// `TS_recording_rate` (bytes per second).
  public var recordingRate: UInt32
  /// Bytes of the input that were not whole transport packets (dropped).
  public var skippedBytes: Int64

  /// Whether the clip carries no video (a sub-path clip of audio only).
  public var isAudioOnly: Bool { videoCodec.kind == .audio }

  /// One STC sequence of the clip: where it starts and its video's presentation times.
  package struct STCSequence: Sendable, Hashable {
    /// `SPN_STC_start`: the source packet with the sequence's first PCR.
    package var spnStart: UInt32
    /// The first presented video PTS (33 bits, 90 kHz).
    package var start90k: UInt64
    /// How long the sequence's video lasts (to the end of its last frame).
    package var duration90k: UInt64

    /// The presentation end (33 bits, 90 kHz).
    package var end90k: UInt64 { (start90k &+ duration90k) & BDMVClipAnalysis.ptsMask }
    /// The in and out times (45 kHz) of a play item playing the whole sequence.
    package var inTime45k: UInt32 { UInt32(truncatingIfNeeded: start90k >> 1) }
    package var outTime45k: UInt32 { UInt32(truncatingIfNeeded: end90k >> 1) }
  }

  /// The clip's STC sequences, when its PCR restarts (empty: one sequence, from
  /// ``presentationStart90k`` for ``duration90k``).
  package var stcSequences: [STCSequence] = []

  /// Every STC sequence (one for a clip whose time base never restarts).
  package var sequences: [STCSequence] {
    stcSequences.count > 1
      ? stcSequences
      : [STCSequence(spnStart: 0, start90k: presentationStart90k, duration90k: duration90k)]
  }

  /// The entry points of STC sequence `k` (those from its first source packet to the next
  /// sequence's).
  package func entryPoints(stc k: Int) -> [EntryPoint] {
    let all = sequences
    guard all.count > 1, k < all.count else { return entryPoints }
    let from = all[k].spnStart
    let to = k + 1 < all.count ? all[k + 1].spnStart : UInt32.max
    return entryPoints.filter { $0.spn >= from && $0.spn < to }
  }

  /// The presentation end (33 bits, 90 kHz).
  public var presentationEnd90k: UInt64 { (presentationStart90k &+ duration90k) & Self.ptsMask }

  /// The in and out times of the whole clip (45 kHz), as a play item and SequenceInfo use them.
  public var inTime45k: UInt32 { UInt32(truncatingIfNeeded: presentationStart90k >> 1) }
  public var outTime45k: UInt32 { UInt32(truncatingIfNeeded: presentationEnd90k >> 1) }

  static let ptsMask: UInt64 = (1 << 33) - 1

  /// The clip's time of `pts90k` relative to the presentation start (unwrapped), in 90 kHz.
  func offset(of pts90k: UInt64) -> UInt64 {
    (pts90k &- presentationStart90k) & Self.ptsMask
  }

  /// The clip information file for this clip.
  func clipInformation() -> ClipInformation {
    let stcs = sequences.map {
      ClipSequenceInfo.STCSequence(
        pcrPID: pcrPID, spnSTCStart: $0.spnStart, presentationStartTime: $0.inTime45k,
        presentationEndTime: $0.outTime45k)
    }
    let sequence = ClipSequenceInfo(atcSequences: [
      ClipSequenceInfo.ATCSequence(stcSequences: stcs)
    ])
    let program = ClipProgramInfo(programs: [
      ClipProgramInfo.Program(programMapPID: pmtPID, streams: streams)
    ])
    // An audio-only clip (a sub-path's) maps its audio (EP_stream_type 3) and is a sub TS for
    // a sub-path of elementary streams (application type 7).
    let audioOnly = isAudioOnly
    let ep = EPMapLayout.stream(
      pid: videoPID, streamType: audioOnly ? 3 : 1, entries: entryPoints)
    return ClipInformation(
      applicationType: audioOnly ? 7 : 1, tsRecordingRate: recordingRate,
      sourcePacketCount: packetCount, sequence: sequence,
      program: program, epMap: EPMap(type: 1, streams: [ep]))
  }
}

/// The EP map layout of the Blu-ray format (the CPI's `EP_map_for_one_stream_PID`): each entry
/// point splits into a coarse part (`PTS_EP_coarse` = PTS bits 32..19, the full SPN) and a fine
/// part (`PTS_EP_fine` = PTS bits 19..9, SPN bits 16..0). A new coarse entry starts whenever the
/// coarse PTS bits or the SPN bits above the 17 low ones change, so that every fine entry
/// completes its coarse entry: readers rebuild the PTS as `((coarse & ~1) << 19) + (fine << 9)`
/// and the SPN as `(coarse_spn & ~0x1FFFF) + fine_spn`.
public enum EPMapLayout {
  /// Builds the coarse and fine entries of one stream from its entry points (in SPN order).
  @_spi(Formats)
  public static func stream(
    pid: UInt16, streamType: UInt8, entries: [BDMVClipAnalysis.EntryPoint]
  ) -> EPMap.Stream {
    var coarse: [EPMap.Coarse] = []
    var fine: [EPMap.Fine] = []
    coarse.reserveCapacity(entries.count / 8 + 1)
    fine.reserveCapacity(entries.count)
    var lastPTS: UInt64 = .max
    var lastSPN: UInt32 = .max
    for e in entries {
      let coarsePTS = (e.pts90k >> 19) & 0x3FFF
      let coarseSPN = e.spn & ~0x1FFFF
      if coarsePTS != lastPTS || coarseSPN != lastSPN {
        coarse.append(
          EPMap.Coarse(
            refFineID: UInt32(fine.count), pts: UInt16(coarsePTS), spn: e.spn))
        lastPTS = coarsePTS
        lastSPN = coarseSPN
      }
      fine.append(
        EPMap.Fine(
          isAngleChangePoint: true, iEndPositionOffset: e.iEndPositionOffset,
          pts: UInt16((e.pts90k >> 9) & 0x7FF), spn: e.spn & 0x1FFFF))
    }
    return EPMap.Stream(pid: pid, streamType: streamType, coarse: coarse, fine: fine)
  }

  /// `I_end_position_offset` for a picture of `bytes` bytes (the thresholds authoring tools use:
  /// 128 KiB, 256 KiB, 384 KiB, 576 KiB, 896 KiB, 1.25 MiB).
  public static func iEndCode(bytes: Int64) -> UInt8 {
    switch bytes {
    case ..<131_072: 1
    case ..<262_144: 2
    case ..<393_216: 3
    case ..<589_824: 4
    case ..<917_504: 5
    case ..<1_310_720: 6
    default: 7
    }
  }
}
