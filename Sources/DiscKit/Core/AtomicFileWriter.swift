import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a file atomically: bytes go to a temporary file beside the destination, which is
/// renamed over the destination only by ``commit()``. A writer that is not committed removes its
/// temporary file, so a failed extraction leaves nothing half-written.
///
/// The destination `-` means standard output (not atomic: bytes are streamed as they come).
public final class AtomicFileWriter {
  /// The final path (`-` for standard output).
  public let destination: String
  /// The temporary file's path (`nil` for standard output).
  public let temporaryPath: String?
  /// The descriptor being written.
  public let descriptor: FileDescriptor
  private var finished = false
  /// Bytes written so far.
  public private(set) var bytesWritten: Int64 = 0

  /// Whether this writer streams to standard output.
  public var isStandardOutput: Bool { temporaryPath == nil }

  /// Prepares to write `destination`.
  ///
  /// - Parameter overwrite: replace an existing file (the CLI's `--force`).
  /// - Throws: ``DiscKitError/Code/alreadyExists`` when the destination exists and `overwrite`
  ///   is false; ``DiscKitError/Code/cannotCreate`` when the temporary file cannot be created.
  public init(destination: String, overwrite: Bool) throws(DiscKitError) {
    self.destination = destination
    if destination == "-" {
      self.temporaryPath = nil
      self.descriptor = .standardOutput
      return
    }
    if LocalFile.exists(destination) {
      guard overwrite else {
        throw DiscKitError(
          .alreadyExists, destination, at: nil, "already exists (use --force to overwrite)")
      }
      guard !LocalFile.isDirectory(destination) else {
        throw DiscKitError(.cannotCreate, destination, at: nil, "is a directory")
      }
    }
    let components = destination.split(separator: "/", omittingEmptySubsequences: false)
    let name = components.last.map(String.init) ?? destination
    let directory = components.count > 1 ? components.dropLast().joined(separator: "/") : "."
    var lastError = ""
    for attempt in 0..<64 {
      let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
      let candidate =
        (directory.isEmpty ? "" : directory + "/") + ".\(name).disckit-\(suffix)-\(attempt)"
      do {
        let fd = try FileDescriptor.open(
          FilePath(candidate), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
          permissions: [.ownerReadWrite, .groupRead, .otherRead])
        self.temporaryPath = candidate
        self.descriptor = fd
        return
      } catch let errno as Errno where errno == .fileExists {
        continue
      } catch {
        lastError = "\(error)"
        break
      }
    }
    throw DiscKitError(
      .cannotCreate, destination, at: nil, "cannot create a temporary file: \(lastError)")
  }

  deinit {
    if !finished { abort() }
  }

  /// Appends bytes.
  public func write(_ buffer: UnsafeRawBufferPointer) throws(DiscKitError) {
    do {
      _ = try descriptor.writeAll(buffer)
    } catch {
      throw DiscKitError(.io, destination, at: bytesWritten, "write failed: \(error)")
    }
    bytesWritten += Int64(buffer.count)
  }

  /// Appends bytes.
  public func write(_ bytes: [UInt8]) throws(DiscKitError) {
    let outcome = bytes.withUnsafeBytes { raw in
      Result { () throws(DiscKitError) in try write(raw) }
    }
    try outcome.get()
  }

  /// Flushes the file to disk and renames it over the destination.
  public func commit() throws(DiscKitError) {
    guard !finished else { return }
    guard let temporaryPath else {
      finished = true
      return
    }
    if fsync(descriptor.rawValue) != 0 {
      let e = errno
      abort()
      throw DiscKitError(.io, destination, at: nil, "fsync failed: \(String(cString: strerror(e)))")
    }
    do { try descriptor.close() } catch {
      abort()
      throw DiscKitError(.io, destination, at: nil, "close failed: \(error)")
    }
    guard rename(temporaryPath, destination) == 0 else {
      let e = errno
      _ = unlink(temporaryPath)
      finished = true
      throw DiscKitError(
        .cannotCreate, destination, at: nil, "rename failed: \(String(cString: strerror(e)))")
    }
    finished = true
  }

  /// Discards the temporary file.
  public func abort() {
    guard !finished else { return }
    finished = true
    if let temporaryPath {
      try? descriptor.close()
      _ = unlink(temporaryPath)
    }
  }
}

extension ByteSource {
  /// Copies `length` bytes starting at `offset` to `writer` in large reads.
  ///
  /// - Parameter progress: called after each chunk with the bytes copied so far.
  public func copy(
    to writer: AtomicFileWriter, offset: Int64 = 0, length: Int64? = nil, chunkSize: Int = 4 << 20,
    progress: ((Int64) -> Void)? = nil
  ) throws(DiscKitError) {
    let total = length ?? (size - offset)
    guard offset >= 0, total >= 0, offset <= size, total <= size - offset else {
      throw DiscKitError(
        .invalidArgument, "copy", at: offset, "range of \(total) bytes lies outside the source")
    }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 4096)
    defer { buffer.deallocate() }
    var done: Int64 = 0
    while done < total {
      let want = Int(min(Int64(chunkSize), total - done))
      let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want])
      let got = try readFully(at: offset + done, into: slice)
      guard got == want else {
        throw DiscKitError.truncated(
          "copy source", at: offset + done + Int64(got), needed: Int64(want - got))
      }
      try writer.write(UnsafeRawBufferPointer(slice))
      done += Int64(got)
      progress?(done)
    }
  }
}
