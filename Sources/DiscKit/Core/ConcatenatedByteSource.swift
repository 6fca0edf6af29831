/// Several byte ranges of other sources presented as one contiguous source.
///
/// This is how DiscKit exposes a UDF file made of many extents, a Blu-ray title made of clip
/// ranges, or a DVD title made of cells spread over several VOB files. Lookups are a binary
/// search over the extents' starting offsets; reads that cross extent boundaries are split.
public struct ConcatenatedByteSource: ByteSource {
  /// One piece of the concatenation: `length` bytes at `offset` in `source`.
  public struct Extent: Sendable {
    /// The source the bytes come from.
    public let source: any ByteSource
    /// The offset in `source` of the extent's first byte.
    public let offset: Int64
    /// The number of bytes taken from `source`.
    public let length: Int64

    /// Creates an extent. `offset` and `length` must lie within `source`.
    public init(source: any ByteSource, offset: Int64, length: Int64) {
      self.source = source
      self.offset = offset
      self.length = length
    }
  }

  /// The extents, in order.
  public let extents: [Extent]
  /// `starts[i]` is the offset in this source where `extents[i]` begins.
  public let starts: [Int64]
  public let size: Int64

  /// Creates a concatenation; empty extents are dropped.
  ///
  /// - Throws: ``DiscKitError/Code/malformed`` when an extent lies outside its source or the
  ///   total size overflows.
  public init(_ extents: [Extent], structure: String = "concatenated source") throws(DiscKitError) {
    var kept: [Extent] = []
    var starts: [Int64] = []
    var total: Int64 = 0
    kept.reserveCapacity(extents.count)
    starts.reserveCapacity(extents.count)
    for extent in extents where extent.length != 0 {
      guard extent.offset >= 0, extent.length > 0, extent.offset <= extent.source.size,
        extent.length <= extent.source.size - extent.offset
      else {
        throw DiscKitError(
          .malformed, structure, at: extent.offset,
          "extent of \(extent.length) bytes at \(extent.offset) lies outside its \(extent.source.size)-byte source"
        )
      }
      let (sum, overflow) = total.addingReportingOverflow(extent.length)
      guard !overflow else {
        throw DiscKitError(.malformed, structure, at: nil, "total size overflows")
      }
      kept.append(extent)
      starts.append(total)
      total = sum
    }
    self.extents = kept
    self.starts = starts
    self.size = total
  }

  /// The index of the extent containing `offset` (which must be in `0..<size`).
  public func extentIndex(containing offset: Int64) -> Int {
    var lo = 0
    var hi = starts.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if starts[mid] <= offset { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer)
    throws(DiscKitError) -> Int
  {
    var remaining = try clampRead(
      offset: offset, count: buffer.count, size: size, structure: "concatenated source")
    var done = 0
    var index = remaining > 0 ? extentIndex(containing: offset) : 0
    var position = offset
    while remaining > 0 && index < extents.count {
      let extent = extents[index]
      let inExtent = position - starts[index]
      let take = Int(min(Int64(remaining), extent.length - inExtent))
      let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[done..<done + take])
      let got = try extent.source.readFully(at: extent.offset + inExtent, into: slice)
      guard got == take else {
        throw DiscKitError.truncated(
          "extent \(index) of concatenated source", at: extent.offset + inExtent,
          needed: Int64(take))
      }
      done += take
      remaining -= take
      position += Int64(take)
      index += 1
    }
    return done
  }
}
