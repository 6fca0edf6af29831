/// What the start codes at the head of one PES payload announce, under every video coding at
/// once (so a PES can be classified before its PMT is known). Filled by `StartCodeScanner`.
@_spi(Formats)
public struct AccessUnitFlags: Sendable, Hashable {
  /// H.264: a coded slice of an IDR picture (NAL unit type 5).
  public var h264IDR = false
  /// H.264: a recovery point SEI message (payload type 6) in an SEI NAL unit (type 6).
  public var h264RecoveryPoint = false
  /// H.264: the first coded slice (NAL unit type 1 or 5) is an I slice starting the picture
  /// (`first_mb_in_slice` 0, `slice_type` 2 or 7).
  public var h264ISlice = false
  /// H.264 MVC: a coded slice extension (NAL unit type 20) of an IDR view component
  /// (`non_idr_flag` 0).
  public var mvcIDR = false
  /// H.264 MVC: any coded slice extension (NAL 20) or subset SPS (NAL 15): a dependent view.
  public var mvcDependentView = false
  /// HEVC: the first IRAP NAL unit type (16-18 BLA, 19-20 IDR, 21 CRA) of layer 0, if any.
  public var hevcIRAPType: UInt8?
  /// MPEG-1/2 video: a sequence header (`00 00 01 B3`).
  public var mpeg2SequenceHeader = false
  /// MPEG-1/2 video: an I-picture (`picture_coding_type` 1) after a sequence header.
  public var mpeg2IPictureAfterSequenceHeader = false
  /// VC-1: an entry-point header (`00 00 01 0E`).
  public var vc1EntryPoint = false

  /// Creates flags with nothing found.
  public init() {}

  /// The random access point this PES begins, read under `codec`. With `h264RecoveryPoints`
  /// an H.264 I picture with a recovery point SEI (an open GOP's entry, where retail Blu-ray
  /// discs put their EP entries) is one too (`.iPicture`), as ffmpeg's parser takes it.
  public func accessPoint(for codec: StreamCodec, h264RecoveryPoints: Bool = false)
    -> AccessPointKind?
  {
    switch codec {
    case .h264:
      if h264IDR { return .idr }
      return h264RecoveryPoints && h264RecoveryPoint && h264ISlice ? .iPicture : nil
    case .h264MVC: return (mvcIDR || h264IDR) ? .idr : nil
    case .hevc:
      guard let t = hevcIRAPType else { return nil }
      return t == 19 || t == 20 ? .idr : t == 21 ? .cra : .bla
    case .mpeg1Video, .mpeg2Video: return mpeg2IPictureAfterSequenceHeader ? .iPicture : nil
    case .vc1: return vc1EntryPoint ? .entryPoint : nil
    default: return nil
    }
  }
}
