/// The Dolby Vision decoder configuration of a transport stream's video: the body of a PMT
/// `DOVI_video_stream_descriptor` (tag 0xB0). On a UHD Blu-ray the enhancement layer (PID 0x1015,
/// stream type 0x06) carries one with `bl_present_flag` 0 and the base layer's PID as its
/// `dependency_pid`. The same fields make the ISO BMFF / Matroska `dvcC` record.
@_spi(Formats)
public struct DolbyVisionConfiguration: Sendable, Hashable, Codable {
  /// `dv_version_major`.
  public var versionMajor: UInt8
  /// `dv_version_minor`.
  public var versionMinor: UInt8
  /// `dv_profile` (7 bits; UHD Blu-ray uses 7).
  public var profile: UInt8
  /// `dv_level` (6 bits).
  public var level: UInt8
  /// `rpu_present_flag`.
  public var rpuPresent: Bool
  /// `el_present_flag`.
  public var enhancementLayerPresent: Bool
  /// `bl_present_flag`: `false` on an enhancement-layer-only stream.
  public var baseLayerPresent: Bool
  /// `dependency_pid`: the base layer's PID, present when ``baseLayerPresent`` is `false`.
  public var dependencyPID: UInt16?
  /// `dv_bl_signal_compatibility_id` (0 when the descriptor is too short to carry it).
  public var baseLayerCompatibilityID: UInt8

  /// The descriptor tag.
  public static let descriptorTag: UInt8 = 0xB0

  /// Parses a descriptor body (the bytes after the tag and length). `offset` is the absolute
  /// offset of its first byte, for errors.
  ///
  /// - Throws: ``DiscKitError/Code/truncated`` when the body ends before the flags (4 bytes) or
  ///   before the `dependency_pid` its flags announce.
  public init(parsing body: [UInt8], offset: Int64 = 0) throws(DiscKitError) {
    var reader = BinaryReader(body, baseOffset: offset, structure: "DOVI video descriptor")
    versionMajor = try reader.readUInt8()
    versionMinor = try reader.readUInt8()
    let flags = try reader.readUInt16BE()
    profile = UInt8(flags >> 9)
    level = UInt8(flags >> 3 & 0x3F)
    rpuPresent = flags & 4 != 0
    enhancementLayerPresent = flags & 2 != 0
    baseLayerPresent = flags & 1 != 0
    dependencyPID = baseLayerPresent ? nil : try reader.readUInt16BE() >> 3
    baseLayerCompatibilityID = reader.remaining > 0 ? try reader.readUInt8() >> 4 : 0
  }

  /// A configuration from its fields.
  public init(
    versionMajor: UInt8 = 1, versionMinor: UInt8 = 0, profile: UInt8, level: UInt8,
    rpuPresent: Bool, enhancementLayerPresent: Bool, baseLayerPresent: Bool,
    dependencyPID: UInt16? = nil, baseLayerCompatibilityID: UInt8
  ) {
    self.versionMajor = versionMajor
    self.versionMinor = versionMinor
    self.profile = profile
    self.level = level
    self.rpuPresent = rpuPresent
    self.enhancementLayerPresent = enhancementLayerPresent
    self.baseLayerPresent = baseLayerPresent
    self.dependencyPID = dependencyPID
    self.baseLayerCompatibilityID = baseLayerCompatibilityID
  }

  /// Whether the stream is a dual-layer enhancement layer (no base layer of its own).
  public var isEnhancementLayer: Bool { !baseLayerPresent && enhancementLayerPresent }
}

@_spi(Formats)
extension ElementaryStreamInfo {
  /// The Dolby Vision configuration of the stream's DOVI video descriptor, `nil` when it has
  /// none or the descriptor is malformed.
  public var dolbyVision: DolbyVisionConfiguration? {
    guard let d = descriptors.first(where: { $0.tag == DolbyVisionConfiguration.descriptorTag })
    else { return nil }
    return try? DolbyVisionConfiguration(parsing: d.body)
  }
}

extension DolbyVisionRPU {
  /// `dv_profile` and `dv_level` of the DOVI video descriptor of `pid` in the first program map
  /// table of the 192-byte source packets of `source` at or after `from` (read in 96 KiB steps,
  /// at most 8 MiB), or nil when there is none there or the PID has no such descriptor.
  ///
  /// - Throws: the source's read errors; ``DiscKitError/Code/checksumMismatch`` or
  ///   ``DiscKitError/Code/malformed`` for a program map table that cannot be read.
  package static func descriptor(in source: any ByteSource, from: Int64, pid: UInt16)
    throws(DiscKitError) -> (profile: UInt8, level: UInt8)?
  {
    var pmtPID: UInt16?
    var offset = from - from % 192
    let end = min(source.size, offset + (8 << 20))
    while offset < end {
      let count = Int(min(Int64(192 * 512), end - offset)) / 192 * 192
      guard count > 0 else { break }
      let chunk = try source.bytes(at: offset, count: count, structure: "PMT")
      var i = 0
      while i + 192 <= chunk.count {
        let p = i + 4
        i += 192
        guard chunk[p] == 0x47, chunk[p + 1] & 0x40 != 0, chunk[p + 3] & 0x10 != 0 else {
          continue
        }
        let packetPID = UInt16(chunk[p + 1] & 0x1F) << 8 | UInt16(chunk[p + 2])
        guard packetPID == 0 || packetPID == pmtPID else { continue }
        var start = p + 4
        if chunk[p + 3] & 0x20 != 0 { start += 1 + Int(chunk[p + 4]) }
        guard start < p + 188 else { continue }
        start += 1 + Int(chunk[start])  // pointer_field
        guard start + 3 <= p + 188 else { continue }
        let length = Int(chunk[start + 1] & 0x0F) << 8 | Int(chunk[start + 2])
        // A section within the packet (a Blu-ray's PAT and PMT are).
        guard start + 3 + length <= p + 188 else { continue }
        let section = Array(chunk[start..<(start + 3 + length)])
        if packetPID == 0, section[0] == 0, length >= 9 {
          // PAT: the first program's PMT PID.
          var k = 8
          while k + 4 <= 3 + length - 4 {
            let program = UInt16(section[k]) << 8 | UInt16(section[k + 1])
            if program != 0 {
              pmtPID = UInt16(section[k + 2] & 0x1F) << 8 | UInt16(section[k + 3])
              break
            }
            k += 4
          }
        } else if packetPID == pmtPID, section[0] == 2 {
          var reader = BinaryReader(section, baseOffset: offset + Int64(start), structure: "PMT")
          let pmt = try ProgramMapTable(parsing: &reader)
          return pmt.streams.first { $0.pid == pid }?.dolbyVision.map { ($0.profile, $0.level) }
        }
      }
      guard chunk.count == count else { break }
      offset += Int64(count)
    }
    return nil
  }
}
