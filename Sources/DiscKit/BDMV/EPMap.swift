/// The CPI EP map of a clip: for each mapped stream (normally the video PID first), the entry
/// points (random access points) as coarse and fine entries.
///
/// A full entry point has a 45 kHz PTS of `((coarse.pts & ~1) << 18) + (fine.pts << 8)` (the low 8
/// bits are not stored) and a source packet number of `(coarse.spn & ~0x1FFFF) + fine.spn`.
@_spi(Formats)
public struct EPMap: Sendable, Hashable, Codable {
  /// A coarse entry.
  public struct Coarse: Sendable, Hashable, Codable {
    /// Index of the first fine entry of this coarse entry.
    public var refFineID: UInt32
    /// Upper PTS bits (14).
    public var pts: UInt16
    /// Source packet number (full 32 bits; the low 17 bits are refined by the fine entries).
    public var spn: UInt32

    /// Creates a coarse entry.
    public init(refFineID: UInt32, pts: UInt16, spn: UInt32) {
      self.refFineID = refFineID
      self.pts = pts
      self.spn = spn
    }
  }

  /// A fine entry.
  public struct Fine: Sendable, Hashable, Codable {
    /// `is_angle_change_point`: whether the angle may change at this entry point.
    public var isAngleChangePoint: Bool
    /// `I_end_position_offset` (3 bits).
    public var iEndPositionOffset: UInt8
    /// Lower PTS bits (11).
    public var pts: UInt16
    /// Lower SPN bits (17).
    public var spn: UInt32

    /// Creates a fine entry.
    public init(
      isAngleChangePoint: Bool = true, iEndPositionOffset: UInt8 = 1, pts: UInt16, spn: UInt32
    ) {
      self.isAngleChangePoint = isAngleChangePoint
      self.iEndPositionOffset = iEndPositionOffset
      self.pts = pts
      self.spn = spn
    }
  }

  /// The entry points of one stream.
  public struct Stream: Sendable, Hashable, Codable {
    /// `stream_PID`: the PID whose entry points these are (normally the video PID).
    public var pid: UInt16
    /// `EP_stream_type` (1 for a video stream).
    public var streamType: UInt8
    /// The `EP_coarse` entries.
    public var coarse: [Coarse]
    /// The `EP_fine` entries.
    public var fine: [Fine]

    /// Creates a stream's entry points from coarse and fine tables as stored.
    public init(pid: UInt16, streamType: UInt8 = 1, coarse: [Coarse], fine: [Fine]) {
      self.pid = pid
      self.streamType = streamType
      self.coarse = coarse
      self.fine = fine
    }

    /// Builds coarse/fine entries from full entry points `(pts45k, spn)` sorted by SPN (the
    /// layout authoring tools write: a new coarse entry whenever the upper bits change).
    public init(pid: UInt16, streamType: UInt8 = 1, entries: [(pts45k: UInt32, spn: UInt32)]) {
      var coarse: [Coarse] = []
      var fine: [Fine] = []
      var lastCoarsePTS: UInt32 = .max
      var lastCoarseSPN: UInt32 = .max
      for entry in entries {
        let cpts = (entry.pts45k >> 19) & 0x3FFF
        let cspn = entry.spn & ~0x1FFFF
        if coarse.isEmpty || cpts != lastCoarsePTS || cspn != lastCoarseSPN {
          coarse.append(
            Coarse(refFineID: UInt32(fine.count), pts: UInt16(cpts << 1), spn: entry.spn))
          lastCoarsePTS = cpts
          lastCoarseSPN = cspn
        }
        fine.append(Fine(pts: UInt16((entry.pts45k >> 8) & 0x7FF), spn: entry.spn & 0x1FFFF))
      }
      self.init(pid: pid, streamType: streamType, coarse: coarse, fine: fine)
    }

    /// Every entry point as (45 kHz PTS without its low 8 bits, SPN), in map order.
    public var entryPoints: [(pts45k: UInt32, spn: UInt32)] {
      var out: [(UInt32, UInt32)] = []
      out.reserveCapacity(fine.count)
      for (i, c) in coarse.enumerated() {
        let start = Int(c.refFineID)
        let end = i + 1 < coarse.count ? Int(coarse[i + 1].refFineID) : fine.count
        guard start < end, end <= fine.count else { continue }
        for f in fine[start..<end] {
          out.append((Self.pts(c, f), (c.spn & ~0x1FFFF) &+ f.spn))
        }
      }
      return out
    }

    @inline(__always) static func pts(_ c: Coarse, _ f: Fine) -> UInt32 {
      (UInt32(c.pts & ~1) &<< 18) &+ (UInt32(f.pts) &<< 8)
    }
  }

  /// `CPI_type` (1 = EP map).
  public var type: UInt8
  /// The mapped streams; libbluray uses only `streams[0]`.
  public var streams: [Stream]

  /// Creates an EP map.
  public init(type: UInt8 = 1, streams: [Stream]) {
    self.type = type
    self.streams = streams
  }

  /// Parses the CPI at the reader's cursor (`nil` when its length is 0: no EP map).
  ///
  /// - Throws: ``DiscKitError/Code/malformed`` when a coarse entry refers to a fine entry that
  ///   does not exist (libbluray would read past its array).
  package static func parse(_ reader: inout BinaryReader) throws(DiscKitError) -> EPMap? {
    let length = try reader.readUInt32BE()
    if length == 0 { return nil }
    let type = UInt8(try reader.readUInt16BE() & 0x0F)
    let mapPos = reader.relativePosition
    try reader.skip(1)
    let count = Int(try reader.readUInt8())
    guard count * 12 <= reader.remaining else {
      throw reader.malformed("\(count) EP map streams do not fit")
    }
    var headers: [(pid: UInt16, type: UInt8, coarse: Int, fine: Int, start: Int)] = []
    for _ in 0..<count {
      let pid = try reader.readUInt16BE()
      let a = try reader.readUInt32BE()  // 10 reserved, 4 type, 16 coarse, 2 high bits of fine
      let b = try reader.readUInt16BE()  // 16 low bits of fine
      let start = Int(try reader.readUInt32BE())
      headers.append(
        (
          pid, UInt8((a >> 18) & 0x0F), Int((a >> 2) & 0xFFFF), Int((a & 3) << 16 | UInt32(b)),
          mapPos + start
        ))
    }
    var streams: [Stream] = []
    for (index, h) in headers.enumerated() {
      let structure = reader.structure
      reader.structure = "CLPI EP map stream \(index)"
      defer { reader.structure = structure }
      guard h.start <= reader.count else {
        throw reader.malformed("EP map stream starts past the end of the file")
      }
      try reader.seek(toRelative: h.start)
      let fineStart = Int(try reader.readUInt32BE())
      guard h.coarse * 8 <= reader.remaining else {
        throw reader.error(
          .truncated,
          "\(h.coarse) coarse entries need \(h.coarse * 8) bytes, \(reader.remaining) remain")
      }
      // The tables are read straight from the bytes, their length checked above (a clip's map
      // holds thousands of entries: a checked read per word cost most of a disc's parsing).
      let coarseOffset = reader.relativePosition
      var bad: (entry: Int, ref: UInt32)?
      let coarse = reader.bytes.withUnsafeBufferPointer { bytes in
        [Coarse](unsafeUninitializedCapacity: h.coarse) { table, made in
          var at = reader.position
          for i in 0..<h.coarse {
            let w = Self.be32(bytes, at)
            let spn = Self.be32(bytes, at + 4)
            at += 8
            let ref = w >> 14
            guard ref < UInt32(h.fine) else {
              bad = (i, ref)
              return
            }
            table.initializeElement(
              at: i, to: Coarse(refFineID: ref, pts: UInt16(w & 0x3FFF), spn: spn))
            made = i + 1
          }
        }
      }
      if let bad {
        throw reader.malformed(
          "coarse entry \(bad.entry) refers to fine entry \(bad.ref), but there are only \(h.fine)",
          atRelative: coarseOffset + bad.entry * 8)
      }
      try reader.skip(h.coarse * 8)
      guard h.start + fineStart <= reader.count else {
        throw reader.malformed("EP fine table starts past the end")
      }
      try reader.seek(toRelative: h.start + fineStart)
      guard h.fine * 4 <= reader.remaining else {
        throw reader.error(
          .truncated, "\(h.fine) fine entries need \(h.fine * 4) bytes, \(reader.remaining) remain")
      }
      let fine = reader.bytes.withUnsafeBufferPointer { bytes in
        [Fine](unsafeUninitializedCapacity: h.fine) { table, made in
          var at = reader.position
          for i in 0..<h.fine {
            let w = Self.be32(bytes, at)
            at += 4
            table.initializeElement(
              at: i,
              to: Fine(
                isAngleChangePoint: w & 0x8000_0000 != 0,
                iEndPositionOffset: UInt8((w >> 28) & 7), pts: UInt16((w >> 17) & 0x7FF),
                spn: w & 0x1FFFF))
            made = i + 1
          }
        }
      }
      try reader.skip(h.fine * 4)
      streams.append(Stream(pid: h.pid, streamType: h.type, coarse: coarse, fine: fine))
    }
    return EPMap(type: type, streams: streams)
  }

  /// The big-endian word at `at` (the caller has checked that it is in `bytes`).
  @inline(__always)
  private static func be32(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
    UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
      | UInt32(bytes[at + 3])
  }
}
