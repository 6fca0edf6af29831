import DiscKit

#if canImport(Glibc)
  import Glibc
#endif

/// The sparse image encoding of the `udf`, `iso9660` and `image` harnesses (OSS-Fuzz practice for
/// file systems): the fuzz input is a compact list of sectors, not a whole image, so mutations land
/// in the metadata and an execution costs microseconds instead of copying megabytes.
///
///     u32 LE  image size in 2048-byte sectors (capped at `maximumSectors`)
///     then records, until the input ends:
///       u32 LE  sector number
///       u16 LE  n, the number of bytes given (over 2048 counts as 2048)
///       n bytes the start of the sector; the rest of it is zero
///
/// Every sector no record names reads as zeros; a later record for the same sector replaces an
/// earlier one; records past the image size are ignored; a record cut short by the end of the input
/// keeps the bytes that are there. `Tests/Fuzz/sparse-image.py` turns a real image into this form
/// (its non-zero metadata sectors) and back; `SparseImageTests` checks that an image in this form
/// lists what the whole image lists. The input is copied (one copy of a few KiB per fuzz
/// execution).
package struct SparseImage: ByteSource {
  static let sectorSize = 2048
  /// 8 GiB: large enough for any address a UDF or ISO 9660 structure can name in practice, small
  /// enough that sizes computed from it stay far from overflow.
  static let maximumSectors: UInt32 = 1 << 22

  package let size: Int64
  /// The sectors given, in ascending order, and where each one's bytes are in `input` (the rest
  /// of the sector reads as zeros).
  private let sectors: [UInt32]
  private let spans: [(start: Int, length: Int)]
  private let input: [UInt8]

  /// The image `input` encodes.
  package init(_ input: UnsafeRawBufferPointer) {
    func u32(_ at: Int) -> UInt32 {
      (0..<4).reduce(UInt32(0)) { $0 | UInt32(input[at + $1]) << (8 * UInt32($1)) }
    }
    self.input = [UInt8](input)
    guard input.count >= 4 else {
      size = 0
      sectors = []
      spans = []
      return
    }
    let count = min(u32(0), Self.maximumSectors)
    size = Int64(count) * Int64(Self.sectorSize)
    var records: [(sector: UInt32, start: Int, length: Int)] = []
    var at = 4
    while at + 6 <= input.count {
      let sector = u32(at)
      let given = Int(input[at + 4]) | Int(input[at + 5]) << 8
      let start = at + 6
      let length = min(given, Self.sectorSize, input.count - start)
      if sector < count { records.append((sector, start, length)) }
      at = start + min(given, Self.sectorSize)
    }
    // By sector, the last record of a sector winning (a record's start orders records).
    records.sort { $0.sector != $1.sector ? $0.sector < $1.sector : $0.start > $1.start }
    var sectors: [UInt32] = []
    var spans: [(start: Int, length: Int)] = []
    sectors.reserveCapacity(records.count)
    spans.reserveCapacity(records.count)
    for record in records where sectors.last != record.sector {
      sectors.append(record.sector)
      spans.append((record.start, record.length))
    }
    self.sectors = sectors
    self.spans = spans
  }

  /// The index in `sectors` of `sector`, if it was given.
  private func index(of sector: UInt32) -> Int? {
    var low = 0
    var high = sectors.count
    while low < high {
      let middle = (low + high) / 2
      if sectors[middle] < sector { low = middle + 1 } else { high = middle }
    }
    return low < sectors.count && sectors[low] == sector ? low : nil
  }

  package func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer)
    throws(DiscKitError) -> Int
  {
    guard offset >= 0 else {
      throw DiscKitError(.invalidArgument, "sparse image", at: offset, "negative offset")
    }
    guard offset < size, let base = buffer.baseAddress else { return 0 }
    let total = Int(min(Int64(buffer.count), size - offset))
    var done = 0
    input.withUnsafeBytes { stored in
      while done < total {
        let position = offset + Int64(done)
        let sector = UInt32(position / Int64(Self.sectorSize))
        let within = Int(position % Int64(Self.sectorSize))
        let take = min(Self.sectorSize - within, total - done)
        // The part of [within, within + take) that the record gives; zeros after it.
        var given = 0
        if let index = index(of: sector), let stored = stored.baseAddress {
          let span = spans[index]
          given = max(0, min(take, span.length - within))
          if given > 0 {
            (base + done).copyMemory(from: stored + span.start + within, byteCount: given)
          }
        }
        if given < take { memset(base + done + given, 0, take - given) }
        done += take
      }
    }
    return total
  }
}
