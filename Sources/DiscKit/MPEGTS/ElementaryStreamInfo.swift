/// One elementary stream listed in a program map table.
@_spi(Formats)
public struct ElementaryStreamInfo: Sendable, Hashable {
  /// One descriptor: tag and body.
  public struct Descriptor: Sendable, Hashable {
    /// `descriptor_tag`.
    public var tag: UInt8
    /// The descriptor's payload (`descriptor_length` bytes, after the tag and length bytes).
    public var body: [UInt8]
  }

  /// `stream_type`.
  public var streamType: UInt8
  /// `elementary_PID`.
  public var pid: UInt16
  /// The ES_info descriptors.
  public var descriptors: [Descriptor]

  /// The format identifier of a registration descriptor (tag 0x05), e.g. `"AC-3"`.
  public var registration: String? {
    guard let d = descriptors.first(where: { $0.tag == 0x05 }), d.body.count >= 4 else {
      return nil
    }
    return String(
      decoding: d.body[0..<4].map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") },
      as: UTF8.self)
  }

  /// The language of an ISO 639 language descriptor (tag 0x0A), e.g. `"eng"`.
  public var language: String? {
    guard let d = descriptors.first(where: { $0.tag == 0x0A }), d.body.count >= 3 else {
      return nil
    }
    let code = d.body[0..<3]
    guard code.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
    return String(decoding: code, as: UTF8.self)
  }

  /// The codec, from the stream type and descriptors.
  public var codec: StreamCodec {
    StreamCodec.from(
      streamType: streamType, registration: registration, descriptorTags: descriptors.map(\.tag))
  }

  /// Parses descriptors from a loop of `length` bytes.
  static func parseDescriptors(_ reader: inout BinaryReader) throws(DiscKitError) -> [Descriptor] {
    var result: [Descriptor] = []
    while reader.remaining > 0 {
      let tag = try reader.readUInt8()
      let length = Int(try reader.readUInt8())
      guard length <= reader.remaining else {
        throw reader.malformed(
          "descriptor 0x\(String(tag, radix: 16)) length \(length) exceeds the \(reader.remaining) bytes left"
        )
      }
      result.append(Descriptor(tag: tag, body: try reader.readBytes(length)))
    }
    return result
  }
}
