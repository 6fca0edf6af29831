// PLACEHOLDER: replaced by the ISO9660 reader (issue 2). Defines the contract DiscImage relies on.

/// The ISO9660 side of an image.
public struct ISO9660FileSystem: DiscFileSystem {
  public var kind: FileSystemKind { .iso9660 }
  public var revision: String? { nil }
  public let volumeLabel: String

  /// Whether `source` has a primary volume descriptor (`CD001` at byte 32769).
  public static func hasPrimaryVolumeDescriptor(_ source: any ByteSource) throws(DiscKitError)
    -> Bool
  {
    false
  }

  /// Reads the ISO9660 volume of `source` (Joliet names when a Joliet SVD exists).
  public init(source: any ByteSource, limits: ParsingLimits = .default) throws(DiscKitError) {
    throw DiscKitError(.unsupported, "ISO9660", at: nil, "ISO9660 reader not yet built")
  }

  public func contentsOfDirectory(atPath path: String) throws(DiscKitError) -> [DiscFileEntry] {
    []
  }
  public func openFile(atPath path: String) throws(DiscKitError) -> any ByteSource {
    MemoryByteSource([])
  }
}
