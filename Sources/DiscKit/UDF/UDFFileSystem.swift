// PLACEHOLDER: replaced by the UDF reader (issue 2). Defines the contract DiscImage relies on.

/// The UDF side of an image.
public struct UDFFileSystem: DiscFileSystem {
  public var kind: FileSystemKind { .udf }
  public let revision: String?
  public let volumeLabel: String

  /// Whether `source` carries a UDF volume recognition sequence (BEA01 then NSR02/NSR03).
  public static func hasVolumeRecognitionSequence(_ source: any ByteSource) throws(DiscKitError)
    -> Bool
  {
    false
  }

  /// Reads the UDF volume of `source`.
  public init(source: any ByteSource, limits: ParsingLimits = .default) throws(DiscKitError) {
    throw DiscKitError(.unsupported, "UDF", at: nil, "UDF reader not yet built")
  }

  public func contentsOfDirectory(atPath path: String) throws(DiscKitError) -> [DiscFileEntry] {
    []
  }
  public func openFile(atPath path: String) throws(DiscKitError) -> any ByteSource {
    MemoryByteSource([])
  }
}
