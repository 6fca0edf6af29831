/// A small JSON encoder for the CLI's `Encodable` documents, byte-equal to Foundation's
/// `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` (keys in UTF-8 byte order, integers
/// in decimal, floating-point numbers as their Swift description without a trailing `.0`, `"`, `\`
/// and control characters escaped, everything else as is), without Foundation and without the
/// run-time casts `JSONEncoder` makes on every value (Date, Data, URL...), which cost startup time
/// (issue 11). The tests compare it byte for byte with `JSONEncoder` on every document kind.
package enum JSONText {
  /// A value that cannot be written as JSON (a NaN or infinite number).
  package struct InvalidValue: Error, CustomStringConvertible {
    package var description: String
  }

  /// `value` as compact JSON text with sorted keys.
  package static func encode<T: Encodable>(_ value: T) throws -> String {
    let slot = Slot()
    try value.encode(to: ValueEncoder(slot: slot, codingPath: []))
    var out: [UInt8] = []
    out.reserveCapacity(1024)
    write(slot.value ?? .object(ObjectBox()), to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  // MARK: Values

  fileprivate enum Value {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array(ArrayBox)
    case object(ObjectBox)
  }

  fileprivate final class ArrayBox {
    var items: [Slot] = []
  }

  fileprivate final class ObjectBox {
    var entries: [(key: String, slot: Slot)] = []

    /// The slot of `key` (a key written twice keeps its last value, as with `JSONEncoder`).
    func slot(for key: String) -> Slot {
      if let existing = entries.first(where: { $0.key == key }) {
        existing.slot.value = nil
        return existing.slot
      }
      let slot = Slot()
      entries.append((key, slot))
      return slot
    }
  }

  /// Where one value goes; containers fill it in.
  fileprivate final class Slot {
    var value: Value?
  }

  fileprivate static func number<F: BinaryFloatingPoint & CustomStringConvertible>(
    _ value: F, at codingPath: [any CodingKey]
  ) throws -> Value {
    guard value.isFinite else {
      throw InvalidValue(
        description: "cannot encode \(value) at \(codingPath.map(\.stringValue).joined(separator: "."))")
    }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    return .number(text)
  }

  // MARK: Writing

  private static func write(_ value: Value, to out: inout [UInt8]) {
    switch value {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
    case .number(let text): out.append(contentsOf: text.utf8)
    case .string(let text): writeString(text, to: &out)
    case .array(let box):
      out.append(UInt8(ascii: "["))
      for (index, item) in box.items.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        write(item.value ?? .object(ObjectBox()), to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let box):
      out.append(UInt8(ascii: "{"))
      let sorted = box.entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
      for (index, entry) in sorted.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        writeString(entry.key, to: &out)
        out.append(UInt8(ascii: ":"))
        write(entry.slot.value ?? .object(ObjectBox()), to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  private static func writeString(_ text: String, to out: inout [UInt8]) {
    let hex = Array("0123456789abcdef".utf8)
    out.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0..<0x20:
        out.append(contentsOf: "\\u00".utf8)
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0xF)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  // MARK: Encoder

  fileprivate struct ValueEncoder: Encoder {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
      let box: ObjectBox
      if case .object(let existing) = slot.value {
        box = existing
      } else {
        box = ObjectBox()
        slot.value = .object(box)
      }
      return KeyedEncodingContainer(KeyedContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
      let box: ArrayBox
      if case .array(let existing) = slot.value {
        box = existing
      } else {
        box = ArrayBox()
        slot.value = .array(box)
      }
      return UnkeyedContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
      SingleContainer(slot: slot, codingPath: codingPath)
    }
  }

  /// An index key for the coding paths of array elements.
  fileprivate struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
  }

  fileprivate struct SingleContainer: SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.value = .null }
    mutating func encode(_ value: Bool) throws { slot.value = .bool(value) }
    mutating func encode(_ value: String) throws { slot.value = .string(value) }
    mutating func encode(_ value: Double) throws {
      slot.value = try JSONText.number(value, at: codingPath)
    }
    mutating func encode(_ value: Float) throws {
      slot.value = try JSONText.number(value, at: codingPath)
    }
    mutating func encode(_ value: Int) throws { slot.value = .number(String(value)) }
    mutating func encode(_ value: Int8) throws { slot.value = .number(String(value)) }
    mutating func encode(_ value: Int16) throws { slot.value = .number(String(value)) }
    mutating func encode(_ value: Int32) throws { slot.value = .number(String(value)) }
    mutating func encode(_ value: Int64) throws { slot.value = .number(String(value)) }
    mutating func encode(_ value: UInt) throws { slot.value = .number(String(value)) }
    mutating func encode(_ value: UInt8) throws { slot.value = .number(String(value)) }
    mutating func encode(_ value: UInt16) throws { slot.value = .number(String(value)) }
    mutating func encode(_ value: UInt32) throws { slot.value = .number(String(value)) }
    mutating func encode(_ value: UInt64) throws { slot.value = .number(String(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
      try value.encode(to: ValueEncoder(slot: slot, codingPath: codingPath))
    }
  }

  fileprivate struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: ObjectBox
    let codingPath: [any CodingKey]

    private func single(_ key: Key) -> SingleContainer {
      SingleContainer(slot: box.slot(for: key.stringValue), codingPath: codingPath + [key])
    }

    mutating func encodeNil(forKey key: Key) throws { var c = single(key); try c.encodeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
      var c = single(key)
      try c.encode(value)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
      var c = single(key)
      try c.encode(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
      var c = single(key)
      try c.encode(value)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
      var c = single(key)
      try c.encode(value)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
      var c = single(key)
      try c.encode(value)
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
      var c = single(key)
      try c.encode(value)
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
      var c = single(key)
      try c.encode(value)
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
      var c = single(key)
      try c.encode(value)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
      var c = single(key)
      try c.encode(value)
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
      var c = single(key)
      try c.encode(value)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
      var c = single(key)
      try c.encode(value)
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
      var c = single(key)
      try c.encode(value)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
      var c = single(key)
      try c.encode(value)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
      var c = single(key)
      try c.encode(value)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      var c = single(key)
      try c.encode(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      ValueEncoder(slot: box.slot(for: key.stringValue), codingPath: codingPath + [key])
        .container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      ValueEncoder(slot: box.slot(for: key.stringValue), codingPath: codingPath + [key])
        .unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
      ValueEncoder(slot: box.slot(for: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
      ValueEncoder(slot: box.slot(for: key.stringValue), codingPath: codingPath + [key])
    }
  }

  fileprivate struct UnkeyedContainer: UnkeyedEncodingContainer {
    let box: ArrayBox
    let codingPath: [any CodingKey]
    var count: Int { box.items.count }

    private func next() -> ValueEncoder {
      let slot = Slot()
      let path = codingPath + [IndexKey(intValue: box.items.count)]
      box.items.append(slot)
      return ValueEncoder(slot: slot, codingPath: path)
    }

    mutating func encodeNil() throws { next().slot.value = .null }
    mutating func encode<T: Encodable>(_ value: T) throws {
      try value.encode(to: next())
    }
    mutating func encode(_ value: String) throws { next().slot.value = .string(value) }
    mutating func encode(_ value: Bool) throws { next().slot.value = .bool(value) }
    mutating func encode(_ value: Int) throws { next().slot.value = .number(String(value)) }
    mutating func encode(_ value: Int64) throws { next().slot.value = .number(String(value)) }
    mutating func encode(_ value: UInt64) throws { next().slot.value = .number(String(value)) }
    mutating func encode(_ value: Double) throws {
      let encoder = next()
      encoder.slot.value = try JSONText.number(value, at: encoder.codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
      -> KeyedEncodingContainer<NestedKey>
    {
      next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      next().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
      next()
    }
  }
}
