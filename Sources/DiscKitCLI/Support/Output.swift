import ArgumentParser
import DiscKit
import Foundation

/// Output helpers shared by the commands.
enum Output {
  /// Encodes `value` as stable JSON (sorted keys, no escaped slashes) followed by a newline.
  static func json<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(value)
    return String(decoding: data, as: UTF8.self)
  }

  /// Writes a line to standard output.
  static func line(_ text: String) {
    print(text)
  }

  /// Writes a line to standard error.
  static func error(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  /// Whether standard error is a terminal (progress is shown only then).
  static var stderrIsTerminal: Bool { isatty(2) != 0 }
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

/// Runs a command body, turning a ``DiscKitError`` into one stderr line and its sysexits code.
func reportingErrors(_ body: () throws -> Void) throws {
  do {
    try body()
  } catch let error as DiscKitError {
    Output.error("disckit: \(error)")
    throw ExitCode(error.code.exitCode)
  }
}

/// Async variant of ``reportingErrors(_:)``.
func reportingErrors(_ body: () async throws -> Void) async throws {
  do {
    try await body()
  } catch let error as DiscKitError {
    Output.error("disckit: \(error)")
    throw ExitCode(error.code.exitCode)
  }
}

/// Shows a one-line progress bar on stderr when it is a terminal.
final class ProgressBar {
  private let total: Int64
  private let label: String
  private let enabled: Bool
  private var lastPercent = -1

  init(total: Int64, label: String) {
    self.total = total
    self.label = label
    self.enabled = Output.stderrIsTerminal && total > 0
  }

  func update(_ done: Int64) {
    update(done, of: total)
  }

  /// Shows `done` out of `total` (for work whose size is known only as a fraction).
  func update(_ done: Int64, of total: Int64) {
    guard enabled else { return }
    let percent = Int(min(100, max(0, done * 100 / max(total, 1))))
    guard percent != lastPercent else { return }
    lastPercent = percent
    let width = 30
    let filled = percent * width / 100
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(percent)%".utf8))
  }

  func finish() {
    guard enabled else { return }
    FileHandle.standardError.write(Data("\n".utf8))
  }
}
