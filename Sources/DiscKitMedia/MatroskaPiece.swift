/// A byte range of a title demuxed on its own (a Blu-ray clip, a DVD cell), with the mapping of
/// its timestamps onto the title timeline: a PTS `p` (90 kHz, the piece's own clock) lands at
/// title time `titleStart90k + ((p - inTime90k) mod 2^33)`, the difference read as signed.
public struct MatroskaPiece: Sendable, Hashable, Codable {
  /// The piece's bytes in the title's byte source.
  public var byteStart: Int64
  /// The end (exclusive) of the piece's bytes.
  public var byteEnd: Int64
  /// The PTS (90 kHz, the piece's clock) that plays at ``titleStart90k``.
  public var inTime90k: UInt64
  /// The title time (90 kHz) at which the piece starts.
  public var titleStart90k: UInt64
  /// How long the piece plays (90 kHz); packets presented at or after `inTime90k + duration90k`
  /// belong to no title time and are dropped. `nil`: no upper limit.
  public var duration90k: UInt64?

  /// A piece.
  public init(
    byteStart: Int64, byteEnd: Int64, inTime90k: UInt64, titleStart90k: UInt64,
    duration90k: UInt64?
  ) {
    self.byteStart = byteStart
    self.byteEnd = byteEnd
    self.inTime90k = inTime90k
    self.titleStart90k = titleStart90k
    self.duration90k = duration90k
  }

  /// The offset of `pts` (90 kHz, any 33-bit epoch or libavformat's unwrapped value) from the
  /// piece's in-time, modulo 2^33, as a signed value in `-2^32..<2^32`.
  public func offset(ofPTS pts: Int64) -> Int64 {
    let wrap: Int64 = 1 << 33
    var d = (pts &- Int64(bitPattern: inTime90k)) % wrap
    if d < 0 { d += wrap }
    return d >= wrap / 2 ? d - wrap : d
  }

  /// The title time (90 kHz, may be negative just before the title's start) of `pts`.
  public func titleTime(ofPTS pts: Int64) -> Int64 {
    Int64(bitPattern: titleStart90k) &+ offset(ofPTS: pts)
  }
}
