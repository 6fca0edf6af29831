/// The playlist records of an authoring project file some discs carry
/// (`BDMV/JAR/xxxxx/bluray_project.bin`).
///
/// The file is the private output of one BD-J authoring tool, not part of any Blu-ray
/// specification. The record layout used here is the one Kodi's parser describes (xbmc/xbmc pull
/// request 29193, from discs that carry the file): a 16-bit big-endian name length and the name
/// (`FPL_MainFeature`, `EPL_01`, ...), 32 reserved bits that are zero, the 16-bit playlist
/// number, a 16-bit marker `0x0002`, a two-character presentation (`2D`/`3D`), the frame rate and
/// the duration in seconds as big-endian IEEE floats, and a 32-bit play-item count. Records are
/// found by scanning every offset and checking every field; a record is evidence only when its
/// duration matches the playlist's (see `matches(duration:)`).
@_spi(Formats)
public struct BlurayProjectFile: Sendable, Hashable {
  /// One playlist record.
  public struct Record: Sendable, Hashable {
    /// The name the playlist was authored under (`FPL_MainFeature`).
    public var name: String
    /// The playlist number.
    public var playlist: Int
    /// `2D` or `3D`.
    public var presentation: String
    /// Frames per second.
    public var frameRate: Float
    /// The duration the project gives.
    public var duration: MediaTime
    /// The number of play items.
    public var playItems: Int
    /// The record's offset in the file.
    public var offset: Int

    /// Whether the name marks the whole feature (`FPL_MainFeature`, `FPL_MainFeature_EXT`,
    /// `SEG_MainFeature`), by the naming convention seen on discs.
    public var namesFeature: Bool {
      name.hasPrefix("FPL_MainFeature") || name == "SEG_MainFeature"
    }

    /// Whether `duration` is within 2 seconds of the record's duration.
    public func matches(duration other: MediaTime) -> Bool {
      abs(other.ticks - duration.ticks) <= 2 * MediaTime.ticksPerSecond
    }
  }

  /// The records, in file order (the first record of a playlist wins).
  public var records: [Record]

  /// Scans `bytes` for records (at most `limit`).
  public init(bytes: [UInt8], limit: Int = 10_000) {
    var records: [Record] = []
    var seen = Set<Int>()
    var i = 0
    while i + 2 <= bytes.count, records.count < limit {
      if let (record, next) = Self.record(bytes, at: i) {
        if seen.insert(record.playlist).inserted { records.append(record) }
        i = next
      } else {
        i += 1
      }
    }
    self.records = records
  }

  private static func record(_ b: [UInt8], at start: Int) -> (Record, Int)? {
    func u16(_ p: Int) -> Int { Int(b[p]) << 8 | Int(b[p + 1]) }
    func u32(_ p: Int) -> UInt32 { UInt32(u16(p)) << 16 | UInt32(u16(p + 2)) }
    func printable(_ r: Range<Int>) -> Bool { b[r].allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
    let nameLength = u16(start)
    guard nameLength >= 1, nameLength <= 64 else { return nil }
    let name = start + 2
    let fields = name + nameLength
    guard fields + 22 <= b.count, printable(name..<fields), u32(fields) == 0,
      u16(fields + 6) == 2, printable(fields + 8..<fields + 10)
    else { return nil }
    let frameRate = Float(bitPattern: u32(fields + 10))
    let seconds = Float(bitPattern: u32(fields + 14))
    guard frameRate.isFinite, frameRate > 0, frameRate <= 60, seconds.isFinite, seconds >= 0,
      seconds < 86_400
    else { return nil }
    let record = Record(
      name: String(decoding: b[name..<fields], as: UTF8.self), playlist: u16(fields + 4),
      presentation: String(decoding: b[fields + 8..<fields + 10], as: UTF8.self),
      frameRate: frameRate, duration: MediaTime(seconds: Double(seconds)),
      playItems: Int(u32(fields + 18)), offset: start)
    return (record, fields + 22)
  }
}
