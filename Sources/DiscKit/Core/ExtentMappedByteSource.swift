/// A source whose bytes are pieces of other sources (concatenations, windows): copying can then
/// reach the underlying files directly, and the kernel can copy them without user-space buffers.
public protocol ExtentMappedByteSource: ByteSource {
  /// The pieces of `range` (within `0..<size`), in order, each a range of another source.
  func pieces(in range: Range<Int64>) -> [ConcatenatedByteSource.Extent]
}

extension ConcatenatedByteSource: ExtentMappedByteSource {
  public func pieces(in range: Range<Int64>) -> [Extent] {
    guard !range.isEmpty, range.lowerBound >= 0, range.lowerBound < size else { return [] }
    var result: [Extent] = []
    var position = range.lowerBound
    var index = extentIndex(containing: position)
    let end = min(range.upperBound, size)
    while position < end && index < extents.count {
      let extent = extents[index]
      let inExtent = position - starts[index]
      let length = min(extent.length - inExtent, end - position)
      result.append(Extent(source: extent.source, offset: extent.offset + inExtent, length: length))
      position += length
      index += 1
    }
    return result
  }
}

extension SubrangeByteSource: ExtentMappedByteSource {
  public func pieces(in range: Range<Int64>) -> [ConcatenatedByteSource.Extent] {
    let lower = max(0, range.lowerBound)
    let upper = min(size, range.upperBound)
    guard lower < upper else { return [] }
    return [.init(source: base, offset: offset + lower, length: upper - lower)]
  }
}

extension ByteSource {
  /// The pieces of `range` resolved down to sources that are not themselves extent-mapped
  /// (usually ``FileByteSource`` ranges of the image or of files in a folder).
  ///
  /// Nesting deeper than `maxDepth` is left unresolved (read through the outer source).
  public func resolvedPieces(in range: Range<Int64>, maxDepth: Int = 8) -> [ConcatenatedByteSource
    .Extent]
  {
    guard maxDepth > 0, let mapped = self as? any ExtentMappedByteSource else {
      let lower = max(0, range.lowerBound)
      let upper = min(size, range.upperBound)
      return lower < upper ? [.init(source: self, offset: lower, length: upper - lower)] : []
    }
    var result: [ConcatenatedByteSource.Extent] = []
    for piece in mapped.pieces(in: range) {
      result += piece.source.resolvedPieces(
        in: piece.offset..<piece.offset + piece.length, maxDepth: maxDepth - 1)
    }
    return result
  }
}
