/// A DEFLATE decoder (RFC 1951: stored, fixed-Huffman and dynamic-Huffman blocks) with an output
/// limit, for the members of JAR files.
///
/// Every step either produces output or consumes input, so decoding takes time linear in the
/// input plus the output, and the output never exceeds `limit`: a zip bomb ends with
/// ``DiscKitError/Code/limitExceeded`` as soon as its output passes the limit.
package struct Inflater {
  /// Decodes the raw DEFLATE stream `input[range]`.
  ///
  /// - Parameters:
  ///   - baseOffset: the absolute offset of `input[range.lowerBound]`, used in errors.
  ///   - expectedSize: the size the container declares (reserved up front, never trusted beyond
  ///     `limit`).
  ///   - limit: the most bytes the stream may produce.
  /// - Throws: ``DiscKitError/Code/truncated`` when the stream ends early,
  ///   ``DiscKitError/Code/malformed`` for an invalid code or distance,
  ///   ``DiscKitError/Code/limitExceeded`` past `limit`.
  package static func inflate(
    _ input: [UInt8], range: Range<Int>? = nil, baseOffset: Int64 = 0, expectedSize: Int = 0,
    limit: Int, structure: String = "DEFLATE stream"
  ) throws(DiscKitError) -> [UInt8] {
    var state = Inflater(
      input: input, range: range ?? 0..<input.count, baseOffset: baseOffset, limit: limit,
      structure: structure)
    state.output.reserveCapacity(max(0, min(expectedSize, limit)))
    try state.run()
    return state.output
  }

  private let input: [UInt8]
  private var position: Int
  private let end: Int
  private let start: Int
  private let baseOffset: Int64
  private let limit: Int
  private let structure: String
  private var bitBuffer: UInt64 = 0
  private var bitCount = 0
  private var output: [UInt8] = []

  private init(input: [UInt8], range: Range<Int>, baseOffset: Int64, limit: Int, structure: String)
  {
    self.input = input
    self.position = range.lowerBound
    self.start = range.lowerBound
    self.end = range.upperBound
    self.baseOffset = baseOffset
    self.limit = limit
    self.structure = structure
  }

  /// The absolute offset of the next unread input byte (bits in the buffer not yet used count as
  /// unread).
  private var offset: Int64 { baseOffset + Int64(position - start - bitCount / 8) }

  private func malformed(_ detail: String) -> DiscKitError {
    DiscKitError(.malformed, structure, at: offset, detail)
  }

  private func truncated() -> DiscKitError {
    DiscKitError(.truncated, structure, at: offset, "the DEFLATE stream ends inside a block")
  }

  @inline(__always)
  private mutating func refill() {
    while bitCount <= 56, position < end {
      bitBuffer |= UInt64(input[position]) << UInt64(bitCount)
      position += 1
      bitCount += 8
    }
  }

  @inline(__always)
  private mutating func bits(_ n: Int) throws(DiscKitError) -> Int {
    if bitCount < n {
      refill()
      guard bitCount >= n else { throw truncated() }
    }
    let value = Int(bitBuffer & ((1 << UInt64(n)) - 1))
    bitBuffer >>= UInt64(n)
    bitCount -= n
    return value
  }

  private mutating func run() throws(DiscKitError) {
    var last = false
    while !last {
      last = try bits(1) == 1
      switch try bits(2) {
      case 0: try storedBlock()
      case 1: try huffmanBlock(literals: Self.fixedLiterals, distances: Self.fixedDistances)
      case 2:
        let (literals, distances) = try dynamicTables()
        try huffmanBlock(literals: literals, distances: distances)
      default: throw malformed("block type 3 is reserved")
      }
    }
  }

  private mutating func storedBlock() throws(DiscKitError) {
    _ = try bits(bitCount % 8)
    let length = try bits(16)
    let complement = try bits(16)
    guard length == ~complement & 0xFFFF else {
      throw malformed("stored block length \(length) does not match its complement")
    }
    guard output.count + length <= limit else { throw overLimit(output.count + length) }
    var left = length
    while left > 0, bitCount >= 8 {
      output.append(UInt8(try bits(8)))
      left -= 1
    }
    guard left <= end - position else { throw truncated() }
    output.append(contentsOf: input[position..<position + left])
    position += left
  }

  private func overLimit(_ size: Int) -> DiscKitError {
    DiscKitError(
      .limitExceeded, structure, at: offset,
      "inflates to more than \(limit) bytes (at least \(size)); refused as a probable zip bomb")
  }

  private mutating func decode(_ table: HuffmanTable) throws(DiscKitError) -> Int {
    if bitCount < 15 { refill() }
    let entry = table.fast[Int(bitBuffer & UInt64(HuffmanTable.fastMask))]
    let length = Int(entry & 15)
    if entry != 0, length <= bitCount {
      bitBuffer >>= UInt64(length)
      bitCount -= length
      return Int(entry >> 4)
    }
    // Codes longer than the fast table's reach, read one bit at a time (canonical order).
    var code = 0
    var first = 0
    var index = 0
    for len in 1...15 {
      code |= try bits(1)
      let count = Int(table.counts[len])
      if code - first < count { return Int(table.symbols[index + code - first]) }
      index += count
      first = (first + count) << 1
      code <<= 1
    }
    throw malformed("no Huffman code matches the input")
  }

  private mutating func huffmanBlock(literals: HuffmanTable, distances: HuffmanTable)
    throws(DiscKitError)
  {
    while true {
      let symbol = try decode(literals)
      if symbol < 256 {
        guard output.count < limit else { throw overLimit(output.count + 1) }
        output.append(UInt8(symbol))
        continue
      }
      if symbol == 256 { return }
      let l = symbol - 257
      guard l < 29 else { throw malformed("length symbol \(symbol) is invalid") }
      let length = Int(Self.lengthBase[l]) + (try bits(Int(Self.lengthExtra[l])))
      let d = try decode(distances)
      guard d < 30 else { throw malformed("distance symbol \(d) is invalid") }
      let distance = Int(Self.distanceBase[d]) + (try bits(Int(Self.distanceExtra[d])))
      guard distance <= output.count else {
        throw malformed("distance \(distance) reaches before the start of the output")
      }
      guard output.count + length <= limit else { throw overLimit(output.count + length) }
      var from = output.count - distance
      for _ in 0..<length {
        output.append(output[from])
        from += 1
      }
    }
  }

  private static let codeLengthOrder = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
  ]

  private mutating func dynamicTables() throws(DiscKitError) -> (HuffmanTable, HuffmanTable) {
    let literalCount = try bits(5) + 257
    let distanceCount = try bits(5) + 1
    let codeLengthCount = try bits(4) + 4
    guard literalCount <= 286, distanceCount <= 30 else {
      throw malformed("\(literalCount) literal/length and \(distanceCount) distance codes")
    }
    var codeLengths = [UInt8](repeating: 0, count: 19)
    for i in 0..<codeLengthCount { codeLengths[Self.codeLengthOrder[i]] = UInt8(try bits(3)) }
    let lengthTable = try table(codeLengths[...], "code length")
    var lengths: [UInt8] = []
    lengths.reserveCapacity(literalCount + distanceCount)
    while lengths.count < literalCount + distanceCount {
      let symbol = try decode(lengthTable)
      switch symbol {
      case 0...15: lengths.append(UInt8(symbol))
      case 16:
        guard let previous = lengths.last else {
          throw malformed("a repeat code comes before any code length")
        }
        lengths.append(contentsOf: repeatElement(previous, count: 3 + (try bits(2))))
      case 17: lengths.append(contentsOf: repeatElement(0, count: 3 + (try bits(3))))
      default: lengths.append(contentsOf: repeatElement(0, count: 11 + (try bits(7))))
      }
    }
    guard lengths.count == literalCount + distanceCount else {
      throw malformed("code length repeats run past the declared code count")
    }
    guard lengths[256] != 0 else { throw malformed("the end-of-block code has no length") }
    return (
      try table(lengths[0..<literalCount], "literal/length"),
      try table(lengths[literalCount...], "distance")
    )
  }

  private func table(_ lengths: ArraySlice<UInt8>, _ name: String) throws(DiscKitError)
    -> HuffmanTable
  {
    guard let table = HuffmanTable(lengths: lengths) else {
      throw malformed("the \(name) code lengths are over-subscribed")
    }
    return table
  }

  private static let fixedLiterals: HuffmanTable = {
    var lengths = [UInt8](repeating: 8, count: 288)
    for i in 144..<256 { lengths[i] = 9 }
    for i in 256..<280 { lengths[i] = 7 }
    return HuffmanTable(lengths: lengths[...]) ?? HuffmanTable.empty
  }()

  private static let fixedDistances: HuffmanTable =
    HuffmanTable(lengths: [UInt8](repeating: 5, count: 30)[...]) ?? HuffmanTable.empty

  private static let lengthBase: [UInt16] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
  ]
  private static let lengthExtra: [UInt8] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  private static let distanceBase: [UInt16] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  private static let distanceExtra: [UInt8] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]
}

/// A canonical Huffman code (RFC 1951 3.2.2): symbols by code length, and a lookup table for the
/// codes of up to ``fastBits`` bits.
struct HuffmanTable: Sendable {
  static let fastBits = 9
  static let fastMask = (1 << fastBits) - 1
  /// Codes per length (index 0 unused).
  var counts: [UInt16]
  /// Symbols in canonical order.
  var symbols: [UInt16]
  /// By the next `fastBits` input bits (least significant first): `symbol << 4 | length`, or 0.
  var fast: [UInt16]

  static let empty = HuffmanTable(
    counts: [UInt16](repeating: 0, count: 16), symbols: [],
    fast: [UInt16](repeating: 0, count: 1 << fastBits))

  private init(counts: [UInt16], symbols: [UInt16], fast: [UInt16]) {
    self.counts = counts
    self.symbols = symbols
    self.fast = fast
  }

  /// A table from per-symbol code lengths (0: unused); `nil` when the lengths are
  /// over-subscribed. Incomplete codes are accepted (an unused code fails when decoded).
  init?(lengths: ArraySlice<UInt8>) {
    var counts = [UInt16](repeating: 0, count: 16)
    for l in lengths { counts[Int(l & 15)] += 1 }
    counts[0] = 0
    var left = 1
    for len in 1...15 {
      left = (left << 1) - Int(counts[len])
      if left < 0 { return nil }
    }
    var offsets = [Int](repeating: 0, count: 16)
    for len in 1..<15 { offsets[len + 1] = offsets[len] + Int(counts[len]) }
    var symbols = [UInt16](repeating: 0, count: lengths.count)
    for (i, l) in lengths.enumerated() where l != 0 {
      symbols[offsets[Int(l)]] = UInt16(i)
      offsets[Int(l)] += 1
    }
    var fast = [UInt16](repeating: 0, count: 1 << Self.fastBits)
    var code = 0
    var index = 0
    for len in 1...Self.fastBits {
      for _ in 0..<Int(counts[len]) {
        // Codes are sent most significant bit first: reverse them for the LSB-first buffer.
        var reversed = 0
        for b in 0..<len where code & (1 << b) != 0 { reversed |= 1 << (len - 1 - b) }
        let entry = symbols[index] << 4 | UInt16(len)
        var slot = reversed
        while slot < 1 << Self.fastBits {
          fast[slot] = entry
          slot += 1 << len
        }
        code += 1
        index += 1
      }
      code <<= 1
    }
    self.counts = counts
    self.symbols = symbols
    self.fast = fast
  }
}
