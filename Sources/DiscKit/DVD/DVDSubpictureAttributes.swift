/// Attributes of one subpicture stream of a title set (`subp_attr_t`, 6 bytes).
@_spi(Formats)
public struct DVDSubpictureAttributes: Sendable, Hashable {
  /// Coding mode (0 = run length).
  public var codingMode: Int
  /// 1 when ``languageCode`` holds a language.
  public var languageType: Int
  /// Two ASCII bytes of an ISO 639 code, big-endian.
  public var languageCode: UInt16
  /// Language extension.
  public var languageExtension: UInt8
  /// Code extension: 1 normal, 2 large, 3 children, 5 normal captions, 9 forced, 13 director ...
  public var codeExtension: UInt8

  /// Reads the six attribute bytes.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let b0 = try reader.readUInt8()
    codingMode = Int(b0 >> 5)
    languageType = Int(b0 & 3)
    try reader.skip(1)
    languageCode = try reader.readUInt16BE()
    languageExtension = try reader.readUInt8()
    codeExtension = try reader.readUInt8()
  }

  /// The ISO 639-1 language (`"en"`), or `nil` when the code is not two letters.
  public var language: String? { DVDLanguage.code(languageCode) }
}
