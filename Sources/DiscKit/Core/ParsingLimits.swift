/// Safety limits that bound the time and memory spent on hostile input.
///
/// On-disc counts and lengths are checked against these before anything is allocated or
/// followed, so a crafted image yields a ``DiscKitError`` with code
/// ``DiscKitError/Code/limitExceeded`` or ``DiscKitError/Code/loop`` instead of a hang.
public struct ParsingLimits: Sendable, Hashable {
  /// Volume Descriptor Pointer hops followed in a UDF volume descriptor sequence.
  public var maxDescriptorPointerHops = 16
  /// Volume descriptors read in one UDF volume descriptor sequence (or ISO9660 set).
  public var maxVolumeDescriptors = 512
  /// Allocation Extent Descriptors followed for one UDF file.
  public var maxAllocationExtentHops = 4096
  /// Extents (allocation descriptors) one file may have.
  public var maxExtentsPerFile = 1 << 20
  /// Bytes of a directory (ISO9660 directory extent or UDF directory file).
  public var maxDirectoryBytes = 64 << 20
  /// Entries in one directory.
  public var maxDirectoryEntries = 1 << 18
  /// Depth of nested directories walked recursively.
  public var maxDirectoryDepth = 64
  /// Total entries in a recursive listing.
  public var maxTotalEntries = 1 << 21
  /// Bytes of one metadata file (MPLS, CLPI, IFO, File Entry) read into memory.
  public var maxMetadataFileBytes = 64 << 20
  /// Bytes one archive member (a JAR entry) may inflate to; a larger member is refused as a
  /// probable zip bomb.
  public var maxInflatedEntryBytes = 32 << 20
  /// Bytes all members of the archives of one disc may inflate to together.
  public var maxInflatedTotalBytes = 256 << 20
  /// Entries one archive's central directory may list.
  public var maxArchiveEntries = 1 << 16

  /// The default limits: generous for every real disc, small enough for hostile input.
  public static let `default` = ParsingLimits()

  /// Creates the default limits.
  public init() {}
}
