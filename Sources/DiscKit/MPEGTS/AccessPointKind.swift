/// The kind of random access point a video PES starts.
public enum AccessPointKind: String, Sendable, Hashable, Codable {
  /// H.264 IDR (NAL 5), MVC IDR view component, or HEVC IDR_W_RADL / IDR_N_LP (19/20).
  case idr
  /// HEVC clean random access picture (CRA, NAL 21): decodable, but leading pictures may not be.
  case cra
  /// HEVC broken link access picture (BLA, NAL 16-18).
  case bla
  /// MPEG-1/2 video I-picture preceded by a sequence header.
  case iPicture
  /// VC-1 entry point.
  case entryPoint
}
