import DiscKit
import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes an output file atomically and crash-safely: the destination appears, complete and
/// synced, only when ``commit()`` succeeds, and a process killed before that leaves nothing.
///
/// - On Linux the bytes go to an unnamed file (`open(2)` with `O_TMPFILE` in the destination's
///   directory), which ``commit()`` links into place with `linkat(2)`. A process killed at any
///   moment, even by `SIGKILL`, leaves no file at all: the kernel frees an unnamed file when its
///   last descriptor closes.
/// - Where `O_TMPFILE` is not supported (other systems, file systems without it, no `/proc`), or
///   with ``Strategy/namedTemporaryFile``, the bytes go to a temporary file beside the destination
///   named `.NAME.disckit-partial-PID-RANDOM`, renamed over the destination on commit. In a
///   program that opted in (``TemporaryFileCleanup/enableSignalHandlers()``, as the `disckit`
///   executables do) it is removed on `SIGINT`, `SIGTERM` and `SIGHUP`; only `SIGKILL` or a power
///   cut can leave one behind, recognisable by its name. The writer installs no signal handler
///   itself: an embedding program keeps its own.
///
/// A writer that is not committed discards its bytes. Write failures are one ``DiscKitError``
/// naming the cause in plain words: no space left (`ENOSPC`), the file size limit (`EFBIG`, e.g.
/// `ulimit -f`; `SIGXFSZ` is ignored while writing so the limit is an error, not a kill), an I/O
/// error of the device (`EIO`), or an output directory that vanished before commit.
///
/// Two destinations are streamed instead (not atomic): `-` (standard output) and an existing
/// character device or FIFO such as `/dev/null` (renaming a file over `/dev/full` would replace the
/// device node).
public final class AtomicFileWriter {
  /// How the bytes reach the destination.
  public enum Mode: Sendable, Equatable {
    /// An unnamed file (`O_TMPFILE`) in `directory`, linked to the destination on commit.
    case unnamed(directory: String)
    /// A temporary file renamed over the destination on commit.
    case atomic(temporaryPath: String)
    /// Standard output.
    case standardOutput
    /// An existing character device or FIFO, written directly.
    case device
  }

  /// How a regular-file destination is written.
  public enum Strategy: Sendable, Equatable {
    /// An unnamed `O_TMPFILE` file where the system supports it, else a named temporary file.
    /// The environment variable `DISCKIT_OUTPUT_TMPFILE=0` selects ``namedTemporaryFile``.
    case automatic
    /// Always a named temporary file beside the destination (removed on SIGINT/SIGTERM/SIGHUP).
    case namedTemporaryFile
  }

  /// The marker in the names of DiscKit's temporary files: `.NAME.disckit-partial-PID-RANDOM`.
  public static let temporaryNameMarker = ".disckit-partial-"

  /// The final path (`-` for standard output).
  public let destination: String
  /// How the bytes reach the destination.
  public let mode: Mode
  /// The descriptor being written.
  public let descriptor: FileDescriptor
  private let overwrite: Bool
  private var finished = false
  /// Bytes written so far.
  public private(set) var bytesWritten: Int64 = 0

  /// The temporary file's path, when writing to a named temporary file.
  public var temporaryPath: String? {
    if case .atomic(let path) = mode { return path }
    return nil
  }
  /// Whether the bytes go to a regular file (unnamed or named temporary file).
  public var isRegularFile: Bool {
    switch mode {
    case .unnamed, .atomic: true
    case .standardOutput, .device: false
    }
  }
  /// Whether this writer streams to standard output.
  public var isStandardOutput: Bool { mode == .standardOutput }
  /// Whether bytes are streamed (standard output or a device): no total size, no rename.
  public var isStreaming: Bool { !isRegularFile }

  /// Prepares to write `destination`.
  ///
  /// - Parameters:
  ///   - overwrite: replace an existing regular file (the CLI's `--force`).
  ///   - strategy: how a regular file is written (default: unnamed `O_TMPFILE` where supported).
  /// - Throws: ``DiscKitError/Code/alreadyExists`` when a regular file exists at the destination
  ///   and `overwrite` is false; ``DiscKitError/Code/cannotCreate`` when the output cannot be
  ///   created (missing or unwritable directory) or the destination is a directory.
  public init(destination: String, overwrite: Bool, strategy: Strategy = .automatic)
    throws(DiscKitError)
  {
    self.destination = destination
    self.overwrite = overwrite
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
          .alreadyExists, destination, at: nil, "already exists")
      }
    }
    Self.ignoreFileSizeSignal()
    let (directory, name) = Self.split(destination)
    let named = strategy == .namedTemporaryFile || Self.environmentForcesNamed
    #if os(Linux)
      if !named, Self.procFileDescriptorsAvailable {
        let fd = open(directory, Self.oTmpFile | O_WRONLY | O_CLOEXEC, 0o644)
        if fd >= 0 {
          self.descriptor = FileDescriptor(rawValue: fd)
          self.mode = .unnamed(directory: directory)
          return
        }
        let e = errno
        // Not supported here (file system, kernel): fall back to a named temporary file.
        if e != EOPNOTSUPP && e != EISDIR && e != EINVAL && e != ENOSYS {
          throw Self.createError(destination, directory: directory, errno: e)
        }
      }
    #endif
    let (path, fd) = try Self.createNamed(destination, directory: directory, name: name)
    self.descriptor = fd
    self.mode = .atomic(temporaryPath: path)
  }

  deinit {
    if !finished { abort() }
  }

  /// Appends bytes.
  ///
  /// - Throws: ``DiscKitError/Code/io`` naming the cause (no space, file size limit, I/O error).
  public func write(_ buffer: UnsafeRawBufferPointer) throws(DiscKitError) {
    var done = 0
    while done < buffer.count {
      let rest = UnsafeRawBufferPointer(rebasing: buffer[done...])
      let n = posixWrite(descriptor.rawValue, rest.baseAddress, rest.count)
      if n < 0 {
        let e = errno
        if e == EINTR { continue }
        throw writeError(errno: e, after: Int64(done))
      }
      if n == 0 { throw writeError(errno: ENOSPC, after: Int64(done)) }
      done += n
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

  /// The error for a failed write or kernel copy, in plain words.
  func writeError(errno e: Int32, after extra: Int64 = 0) -> DiscKitError {
    let at = bytesWritten + extra
    let what: String
    switch e {
    case ENOSPC:
      what = "no space left on the output's file system after \(at) bytes"
    case EFBIG:
      what =
        "the file size limit was reached after \(at) bytes (ulimit -f, or the file system's largest file)"
    case EIO:
      what = "the device reported an I/O error after \(at) bytes"
    case EDQUOT:
      what = "the disk quota was exceeded after \(at) bytes"
    default:
      what = "write failed after \(at) bytes: \(Self.describe(e))"
    }
    let kept = isRegularFile ? "; nothing was written to \(destination)" : ""
    return DiscKitError(.io, destination, at: nil, what + kept)
  }

  /// Flushes the file to disk and puts it in place under the destination's name.
  ///
  /// - Throws: ``DiscKitError/Code/io`` when the data cannot be synced;
  ///   ``DiscKitError/Code/cannotCreate`` when the output directory vanished or the name cannot be
  ///   linked; ``DiscKitError/Code/alreadyExists`` when, without `overwrite`, a file appeared at
  ///   the destination meanwhile. Nothing is left under the destination's name on failure.
  public func commit() throws(DiscKitError) {
    guard !finished else { return }
    switch mode {
    case .standardOutput, .device:
      finished = true
      if mode == .device { try? descriptor.close() }
      return
    case .unnamed(let directory):
      try sync()
      defer {
        finished = true
        try? descriptor.close()
      }
      try link(directory: directory)
    case .atomic(let temporaryPath):
      try sync()
      do { try descriptor.close() } catch {
        abort()
        throw DiscKitError(.io, destination, at: nil, "close failed: \(error)")
      }
      finished = true
      defer { TemporaryFileCleanup.unregister(temporaryPath) }
      if !overwrite {
        // link(2) refuses an existing name, unlike rename(2): no clobbering a file that
        // appeared meanwhile.
        if posixLink(temporaryPath, destination) == 0 {
          _ = unlink(temporaryPath)
          return
        }
        let e = errno
        if e == EEXIST {
          _ = unlink(temporaryPath)
          throw DiscKitError(
            .alreadyExists, destination, at: nil, "already exists")
        }
        // File systems without hard links: rename.
        if e != EPERM && e != EOPNOTSUPP && e != EXDEV {
          _ = unlink(temporaryPath)
          throw Self.placeError(destination, errno: e)
        }
      }
      guard rename(temporaryPath, destination) == 0 else {
        let e = errno
        _ = unlink(temporaryPath)
        throw Self.placeError(destination, errno: e)
      }
    }
  }

  /// Discards the temporary file (or closes the device).
  public func abort() {
    guard !finished else { return }
    finished = true
    switch mode {
    case .unnamed:
      try? descriptor.close()
    case .atomic(let temporaryPath):
      try? descriptor.close()
      _ = unlink(temporaryPath)
      TemporaryFileCleanup.unregister(temporaryPath)
    case .device:
      try? descriptor.close()
    case .standardOutput:
      break
    }
  }

  // MARK: Internals

  private func sync() throws(DiscKitError) {
    if fsync(descriptor.rawValue) != 0 {
      let e = errno
      abort()
      throw writeError(errno: e)
    }
  }

  /// Links the unnamed file to the destination (through `/proc/self/fd`, which needs no
  /// privilege, unlike `AT_EMPTY_PATH`).
  private func link(directory: String) throws(DiscKitError) {
    let source = "/proc/self/fd/\(descriptor.rawValue)"
    if linkat(AT_FDCWD, source, AT_FDCWD, destination, AT_SYMLINK_FOLLOW) == 0 { return }
    var e = errno
    guard e == EEXIST else { throw Self.placeError(destination, errno: e) }
    guard overwrite else {
      throw DiscKitError(
        .alreadyExists, destination, at: nil, "already exists")
    }
    // Replace atomically: link under a temporary name, then rename over the destination.
    let (dir, name) = Self.split(destination)
    for attempt in 0..<16 {
      let candidate = Self.temporaryName(directory: dir, name: name, attempt: attempt)
      if linkat(AT_FDCWD, source, AT_FDCWD, candidate, AT_SYMLINK_FOLLOW) != 0 {
        e = errno
        if e == EEXIST { continue }
        throw Self.placeError(destination, errno: e)
      }
      guard rename(candidate, destination) == 0 else {
        e = errno
        _ = unlink(candidate)
        throw Self.placeError(destination, errno: e)
      }
      return
    }
    throw Self.placeError(destination, errno: EEXIST)
  }

  private static func createNamed(_ destination: String, directory: String, name: String)
    throws(DiscKitError) -> (String, FileDescriptor)
  {
    for attempt in 0..<64 {
      let candidate = temporaryName(directory: directory, name: name, attempt: attempt)
      // Registered before it exists so that a signal between open and register leaves nothing.
      TemporaryFileCleanup.register(candidate)
      let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      if fd >= 0 { return (candidate, FileDescriptor(rawValue: fd)) }
      let e = errno
      TemporaryFileCleanup.unregister(candidate)
      if e == EEXIST { continue }
      throw createError(destination, directory: directory, errno: e)
    }
    throw DiscKitError(
      .cannotCreate, destination, at: nil, "cannot create a temporary file: too many name clashes")
  }

  static func temporaryName(directory: String, name: String, attempt: Int) -> String {
    let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    return (directory == "." ? "" : directory + "/")
      + ".\(name)\(temporaryNameMarker)\(getpid())-\(suffix)\(attempt == 0 ? "" : "-\(attempt)")"
  }

  /// `(directory, name)` of a path; the directory is `.` for a bare name.
  static func split(_ path: String) -> (String, String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  private static func createError(_ destination: String, directory: String, errno e: Int32)
    -> DiscKitError
  {
    let detail =
      e == ENOENT || e == ENOTDIR
      ? "the output directory \(directory) does not exist"
      : "cannot create a file in \(directory): \(describe(e))"
    return DiscKitError(.cannotCreate, destination, at: nil, detail)
  }

  private static func placeError(_ destination: String, errno e: Int32) -> DiscKitError {
    let (directory, _) = split(destination)
    var st = stat()
    if e == ENOENT || e == ENOTDIR, stat(directory, &st) != 0 || st.st_mode & S_IFMT != S_IFDIR {
      return DiscKitError(
        .cannotCreate, destination, at: nil,
        "the output directory \(directory) vanished before the file was complete; nothing was written"
      )
    }
    return DiscKitError(
      .cannotCreate, destination, at: nil, "cannot put the file in place: \(describe(e))")
  }

  static func describe(_ e: Int32) -> String {
    guard let text = strerror(e) else { return "errno \(e)" }
    return String(cString: text)
  }

  #if os(Linux)
    /// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`): a macro the Glibc module does not import.
    static let oTmpFile: Int32 = 0o20_000_000 | O_DIRECTORY
  #endif

  private static let environmentForcesNamed: Bool = {
    guard let value = getenv("DISCKIT_OUTPUT_TMPFILE") else { return false }
    let text = String(cString: value)
    return text == "0" || text == "no" || text == "off"
  }()

  private static let procFileDescriptorsAvailable: Bool = access("/proc/self/fd", X_OK) == 0

  /// While a regular file is being written, a file size limit must fail the write with `EFBIG`
  /// instead of killing the process with `SIGXFSZ` (its default action). Only a default
  /// disposition is changed; a handler the program installed is kept.
  private static let ignoreFileSizeSignalOnce: Void = {
    #if os(Linux)
      var current = sigaction()
      if sigaction(SIGXFSZ, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil {
        _ = signal(SIGXFSZ, SIG_IGN)
      }
    #endif
  }()

  private static func ignoreFileSizeSignal() { _ = ignoreFileSizeSignalOnce }
}

/// `write(2)` and `link(2)`, named apart from the methods that shadow them.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(fd, buffer, count)
}

private func posixLink(_ from: String, _ to: String) -> Int32 {
  link(from, to)
}
