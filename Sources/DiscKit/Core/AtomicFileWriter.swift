import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes an output file atomically: bytes go to a temporary file beside the destination, which is
/// renamed over the destination only by ``commit()``. A writer that is not committed removes its
/// temporary file, so a failed extraction leaves nothing half-written.
///
/// Two destinations are streamed instead (not atomic): `-` (standard output) and an existing
/// character device or FIFO such as `/dev/null` (renaming a file over `/dev/full` would replace the
/// device node).
public final class AtomicFileWriter {
  /// How the bytes reach the destination.
  public enum Mode: Sendable, Equatable {
    /// A temporary file renamed over the destination on commit.
    case atomic(temporaryPath: String)
    /// Standard output.
    case standardOutput
    /// An existing character device or FIFO, written directly.
    case device
  }

  /// The final path (`-` for standard output).
  public let destination: String
  /// How the bytes reach the destination.
  public let mode: Mode
  /// The descriptor being written.
  public let descriptor: FileDescriptor
  private var finished = false
  /// Bytes written so far.
  public private(set) var bytesWritten: Int64 = 0

  /// The temporary file's path, when writing atomically.
  public var temporaryPath: String? {
    if case .atomic(let path) = mode { return path }
    return nil
  }
  /// Whether this writer streams to standard output.
  public var isStandardOutput: Bool { mode == .standardOutput }
  /// Whether bytes are streamed (standard output or a device): no total size, no rename.
  public var isStreaming: Bool { mode != .atomic(temporaryPath: temporaryPath ?? "") }

  /// Prepares to write `destination`.
  ///
  /// - Parameter overwrite: replace an existing regular file (the CLI's `--force`).
  /// - Throws: ``DiscKitError/Code/alreadyExists`` when a regular file exists at the destination
  ///   and `overwrite` is false; ``DiscKitError/Code/cannotCreate`` when the temporary file
  ///   cannot be created or the destination is a directory.
  public init(destination: String, overwrite: Bool) throws(DiscKitError) {
    self.destination = destination
    if destination == "-" {
      self.mode = .standardOutput
      self.descriptor = .standardOutput
      return
    }
    var st = stat()
    if stat(destination, &st) == 0 {
      let type = st.st_mode & S_IFMT
      if type == S_IFCHR || type == S_IFIFO {
        do {
          self.descriptor = try FileDescriptor.open(
            FilePath(destination), .writeOnly, options: [.closeOnExec])
        } catch {
          throw DiscKitError(.cannotCreate, destination, at: nil, "cannot open: \(error)")
        }
        self.mode = .device
        return
      }
      guard type != S_IFDIR else {
        throw DiscKitError(.cannotCreate, destination, at: nil, "is a directory")
      }
      guard overwrite else {
        throw DiscKitError(
          .alreadyExists, destination, at: nil, "already exists (use --force to overwrite)")
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
        self.mode = .atomic(temporaryPath: candidate)
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

  /// Records bytes that reached the descriptor by other means (`copy_file_range`).
  func advance(by count: Int64) { bytesWritten += count }

  /// Flushes the file to disk and renames it over the destination.
  public func commit() throws(DiscKitError) {
    guard !finished else { return }
    guard case .atomic(let temporaryPath) = mode else {
      finished = true
      if mode == .device { try? descriptor.close() }
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

  /// Discards the temporary file (or closes the device).
  public func abort() {
    guard !finished else { return }
    finished = true
    switch mode {
    case .atomic(let temporaryPath):
      try? descriptor.close()
      _ = unlink(temporaryPath)
    case .device:
      try? descriptor.close()
    case .standardOutput:
      break
    }
  }
}

extension ByteSource {
  /// Copies `range` (default: everything) of this source to `writer`.
  ///
  /// Pieces that resolve to a local file are copied by the kernel (`copy_file_range`) when the
  /// output is a regular file; everything else moves in large reads and writes through one
  /// reused buffer.
  ///
  /// - Parameter progress: called with the bytes copied so far.
  public func copy(
    to writer: AtomicFileWriter, range: Range<Int64>? = nil, chunkSize: Int = 8 << 20,
    progress: ((Int64) -> Void)? = nil
  ) throws(DiscKitError) {
    let range = range ?? 0..<size
    guard range.lowerBound >= 0, range.upperBound <= size else {
      throw DiscKitError(
        .invalidArgument, "copy", at: range.lowerBound,
        "range \(range) lies outside the \(size)-byte source")
    }
    guard !range.isEmpty else { return }
    let buffer = UnsafeMutableRawBufferPointer.allocate(
      byteCount: max(chunkSize, 4096), alignment: 4096)
    defer { buffer.deallocate() }
    var done: Int64 = 0
    var zeroCopy = ZeroCopy.isAvailable && writer.temporaryPath != nil
    for piece in resolvedPieces(in: range) {
      var copied: Int64 = 0
      if zeroCopy, let file = piece.source as? FileByteSource {
        var offset = piece.offset
        kernel: while copied < piece.length {
          let want = Int(min(Int64(1 << 30), piece.length - copied))
          switch ZeroCopy.copy(
            from: file.descriptor.rawValue, at: &offset, to: writer.descriptor.rawValue, at: nil,
            length: want)
          {
          case .copied(0):
            throw DiscKitError.truncated(file.path, at: offset, needed: piece.length - copied)
          case .copied(let n):
            copied += Int64(n)
            writer.advance(by: Int64(n))
            progress?(done + copied)
          case .unsupported:
            zeroCopy = false
            break kernel
          case .failed(let e):
            throw DiscKitError(
              .io, writer.destination, at: writer.bytesWritten,
              "copy_file_range failed: \(String(cString: strerror(e)))")
          }
        }
      }
      while copied < piece.length {
        let want = Int(min(Int64(buffer.count), piece.length - copied))
        let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want])
        let got = try piece.source.readFully(at: piece.offset + copied, into: slice)
        guard got == want else {
          throw DiscKitError.truncated(
            "copy source", at: piece.offset + copied + Int64(got), needed: Int64(want - got))
        }
        try writer.write(UnsafeRawBufferPointer(slice))
        copied += Int64(want)
        progress?(done + copied)
      }
      done += piece.length
    }
  }
}
