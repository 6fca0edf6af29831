/// A random-access source of bytes: an image file, a file inside an image, a title.
///
/// Reads are positional (`pread`-style): a source has no cursor, so one value can serve many
/// tasks and threads at once. Every implementation in DiscKit is `Sendable` and safe for
/// concurrent reads.
public protocol ByteSource: Sendable {
  /// The number of bytes in the source.
  var size: Int64 { get }

  /// Reads up to `buffer.count` bytes starting at `offset`.
  ///
  /// - Returns: the number of bytes read. It is less than `buffer.count` only when the read
  ///   reaches the end of the source (`0` when `offset >= size`).
  /// - Throws: ``DiscKitError`` with code ``DiscKitError/Code/io`` on an I/O failure, or
  ///   ``DiscKitError/Code/invalidArgument`` for a negative offset.
  func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(DiscKitError)
    -> Int
}

extension ByteSource {
  /// Reads exactly `count` bytes at `offset`.
  ///
  /// - Parameter structure: the name of what is being read, used in the error when the source
  ///   ends first.
  /// - Throws: ``DiscKitError/Code/truncated`` when fewer than `count` bytes are available.
  public func bytes(at offset: Int64, count: Int, structure: String = "data")
    throws(DiscKitError) -> [UInt8]
  {
    guard count >= 0, offset >= 0 else {
      throw DiscKitError(
        .invalidArgument, structure, at: offset, "negative read (\(count) bytes)")
    }
    if count == 0 { return [] }
    var result = [UInt8](repeating: 0, count: count)
    let outcome = result.withUnsafeMutableBytes { raw in
      Result { () throws(DiscKitError) -> Int in try readFully(at: offset, into: raw) }
    }
    let got = try outcome.get()
    guard got == count else {
      throw DiscKitError.truncated(structure, at: offset, needed: Int64(count))
    }
    return result
  }

  /// Reads until `buffer` is full or the source ends; returns the number of bytes read.
  public func readFully(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer)
    throws(DiscKitError) -> Int
  {
    var done = 0
    while done < buffer.count {
      let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[done...])
      let n = try read(at: offset + Int64(done), into: slice)
      if n == 0 { break }
      done += n
    }
    return done
  }

  /// Reads the whole source into memory, refusing sources larger than `limit` bytes.
  public func readAll(
    limit: Int = ParsingLimits.default.maxMetadataFileBytes, structure: String = "file"
  )
    throws(DiscKitError) -> [UInt8]
  {
    guard size <= Int64(limit) else {
      throw DiscKitError.limit(
        structure, at: nil, "\(size) bytes is more than the limit of \(limit)")
    }
    return try bytes(at: 0, count: Int(size), structure: structure)
  }
}

/// Validates a read request against a source size; returns the number of bytes available.
@inline(__always)
func clampRead(offset: Int64, count: Int, size: Int64, structure: String) throws(DiscKitError)
  -> Int
{
  guard offset >= 0 else {
    throw DiscKitError(.invalidArgument, structure, at: offset, "negative offset")
  }
  if offset >= size { return 0 }
  let available = size - offset
  return available < Int64(count) ? Int(available) : count
}
