import ArgumentParser
import DiscKit

// @preconcurrency: `stdout` is a C global; `line` locks it as `print` does.
#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Musl)
  @preconcurrency import Musl
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

/// Output helpers shared by the commands (and by the helper programs).
package enum Output {
  /// Encodes `value` as stable JSON (sorted keys, no escaped slashes) without a newline: the
  /// bytes of Foundation's `JSONEncoder` with those options, written by ``JSONText``.
  package static func json<T: Encodable>(_ value: T) throws -> String {
    try JSONText.encode(value)
  }

  /// Writes a line to standard output (the C library's buffered `stdout`, as `print` does,
  /// without `print`'s dynamic casts of its `Any` arguments).
  package static func line(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      flockfile(stdout)
      if let base = bytes.baseAddress { fwrite(base, 1, bytes.count, stdout) }
      putc_unlocked(0x0A, stdout)
      funlockfile(stdout)
    }
  }

  /// Writes a line to standard error.
  package static func error(_ text: String) {
    writeError(text + "\n")
  }

  /// Writes `text` to standard error as it is (no newline added).
  package static func writeError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return }
      var done = 0
      while done < bytes.count {
        let n = write(2, base + done, bytes.count - done)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return }
        done += n
      }
    }
  }

  /// Reads standard input to its end.
  package static func readStandardInput() throws(DiscKitError) -> [UInt8] {
    var input: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw DiscKitError(
          .io, "standard input", at: Int64(input.count), "read failed: errno \(errno)")
      }
      if n == 0 { return input }
      input.append(contentsOf: chunk[0..<n])
    }
  }

  /// Whether standard error is a terminal (progress is shown only then).
  package static var stderrIsTerminal: Bool { isatty(2) != 0 }
}

extension DiscKitError.Code {
  /// The `sysexits(3)` exit code of the CLI for this kind of failure.
  public var exitCode: Int32 {
    switch self {
    case .truncated, .malformed, .unsupported, .limitExceeded, .loop, .checksumMismatch: 65
    case .notFound, .cannotOpen: 66
    case .cannotCreate, .alreadyExists: 73
    case .io: 74
    case .invalidArgument: 64
    default: 70
    }
  }
}

extension DiscKitError {
  /// What to do about the error in the command line's own terms (an option, a command), or nil.
  /// The library's message says what is wrong; the CLI adds how to get past it here.
  package var commandLineHint: String? {
    if code == .alreadyExists && detail == "already exists" { return "use --force to overwrite" }
    if code == .notFound && (structure.hasPrefix("title ") || structure.hasPrefix("playlist ")) {
      return "see `disckit titles`"
    }
    return nil
  }

  /// The one line the CLI prints on stderr for the error.
  package var commandLineMessage: String {
    "disckit: \(self)" + (commandLineHint.map { " (\($0))" } ?? "")
  }
}

/// Runs a command body, turning a ``DiscKitError`` into one stderr line and its sysexits code.
package func reportingErrors(_ body: () throws -> Void) throws {
  do {
    try body()
  } catch let error as DiscKitError {
    Output.error(error.commandLineMessage)
    throw ExitCode(error.code.exitCode)
  }
}

/// Async variant of ``reportingErrors(_:)``.
package func reportingErrors(_ body: () async throws -> Void) async throws {
  do {
    try await body()
  } catch let error as DiscKitError {
    Output.error(error.commandLineMessage)
    throw ExitCode(error.code.exitCode)
  }
}

/// Shows a one-line progress bar on stderr when it is a terminal.
package final class ProgressBar {
  private let total: Int64
  private let label: String
  private let enabled: Bool
  private var lastPercent = -1

  package init(total: Int64, label: String) {
    self.total = total
    self.label = label
    self.enabled = Output.stderrIsTerminal && total > 0
  }

  package func update(_ done: Int64) {
    update(done, of: total)
  }

  /// Shows `done` out of `total` (for work whose size is known only as a fraction).
  package func update(_ done: Int64, of total: Int64) {
    guard enabled else { return }
    let percent = Int(min(100, max(0, done * 100 / max(total, 1))))
    guard percent != lastPercent else { return }
    lastPercent = percent
    let width = 30
    let filled = percent * width / 100
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    Output.writeError("\r\(label) [\(bar)] \(percent)%")
  }

  package func finish() {
    guard enabled else { return }
    Output.writeError("\n")
  }
}
