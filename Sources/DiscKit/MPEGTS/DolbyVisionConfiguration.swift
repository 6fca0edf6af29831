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
