/// A play item's STN table: the streams a player may select while the item plays.
@_spi(Formats)
public struct StreamNumberTable: Sendable, Hashable, Codable {
  /// Primary video streams.
  public var video: [PlaylistStream] = []
  /// Primary audio streams.
  public var audio: [PlaylistStream] = []
  /// Presentation graphics (subtitle) streams, followed by the `pipPGCount` picture-in-picture ones.
  public var presentationGraphics: [PlaylistStream] = []
  /// How many of ``presentationGraphics`` are picture-in-picture PG streams (at the end).
  public var pipPGCount: Int = 0
  /// Interactive graphics (menu) streams.
  public var interactiveGraphics: [PlaylistStream] = []
  /// Secondary audio streams.
  public var secondaryAudio: [PlaylistStream] = []
  /// Secondary (picture-in-picture) video streams.
  public var secondaryVideo: [PlaylistStream] = []
  /// Dolby Vision enhancement-layer streams (UHD).
  public var dolbyVision: [PlaylistStream] = []

  /// The number of primary PG streams (without picture-in-picture PG).
  public var primaryPGCount: Int { presentationGraphics.count - pipPGCount }

  /// An empty table.
  public init() {}

  /// Parses an STN table (`length` u16, reserved u16, eight counts, reserved u32, entries).
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let length = Int(try reader.readUInt16BE())
    let start = reader.relativePosition
    guard length <= reader.remaining else {
      throw reader.error(.truncated, "STN table of \(length) bytes runs past its play item")
    }
    try reader.skip(2)
    var counts: [Int] = []
    for _ in 0..<8 { counts.append(Int(try reader.readUInt8())) }
    try reader.skip(4)
    // Every entry needs at least 2 bytes; reject absurd counts before parsing.
    guard counts.reduce(0, +) * 2 <= reader.remaining + 2 else {
      throw reader.malformed("STN counts \(counts) exceed the table's \(length) bytes")
    }
    func list(_ n: Int, _ r: inout BinaryReader) throws(DiscKitError) -> [PlaylistStream] {
      var out: [PlaylistStream] = []
      for _ in 0..<n { out.append(try PlaylistStream(parsing: &r)) }
      return out
    }
    video = try list(counts[0], &reader)
    audio = try list(counts[1], &reader)
    presentationGraphics = try list(counts[2] + counts[6], &reader)
    pipPGCount = counts[6]
    interactiveGraphics = try list(counts[3], &reader)
    for _ in 0..<counts[4] {
      secondaryAudio.append(try PlaylistStream(parsing: &reader))
      let refs = Int(try reader.readUInt8())
      try reader.skip(1 + refs + (refs % 2))
    }
    for _ in 0..<counts[5] {
      secondaryVideo.append(try PlaylistStream(parsing: &reader))
      let audioRefs = Int(try reader.readUInt8())
      try reader.skip(1 + audioRefs + (audioRefs % 2))
      let pgRefs = Int(try reader.readUInt8())
      try reader.skip(1 + pgRefs + (pgRefs % 2))
    }
    dolbyVision = try list(counts[7], &reader)
    try reader.seek(toRelative: start + length)
  }

  /// libbluray's `_pi_cmp` stream part: equal counts and equal streams.
  func sameForDuplicateCheck(_ other: StreamNumberTable) -> Bool {
    func same(_ a: [PlaylistStream], _ b: [PlaylistStream]) -> Bool {
      a.count == b.count && zip(a, b).allSatisfy { $0.sameForDuplicateCheck($1) }
    }
    return same(video, other.video) && same(audio, other.audio)
      && primaryPGCount == other.primaryPGCount
      && same(
        Array(presentationGraphics.prefix(primaryPGCount)),
        Array(other.presentationGraphics.prefix(other.primaryPGCount)))
      && same(interactiveGraphics, other.interactiveGraphics)
      && same(secondaryAudio, other.secondaryAudio)
      && same(secondaryVideo, other.secondaryVideo)
  }
}
