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

/// Shows a one-line progress bar on stderr when it is a terminal: the bar, the percentage, and
/// (as curl and pv do) the amount done of the total, the average rate and the time left.
package final class ProgressBar {
  /// What the counts are.
  package enum Unit: Sendable {
    /// Bytes: shown as `1.2 GiB / 2.9 GiB  85.3 MiB/s`.
    case bytes
    /// Items of a kind (`discs`): shown as `12/50 discs  4.0/s`.
    case items(String)
  }

  private let total: Int64
  private let label: String
  private let unit: Unit
  private let enabled: Bool
  private let start = ContinuousClock.now
  private var lastPercent = -1
  private var lastDraw = ContinuousClock.now

  package init(total: Int64, label: String, unit: Unit = .bytes) {
    self.total = total
    self.label = label
    self.unit = unit
    self.enabled = Output.stderrIsTerminal && total > 0
  }

  package func update(_ done: Int64) {
    update(done, of: total)
  }

  /// Shows `done` out of `total`.
  package func update(_ done: Int64, of total: Int64) {
    guard enabled else { return }
    let percent = Int(min(100, max(0, done * 100 / max(total, 1))))
    let now = ContinuousClock.now
    // Redrawn when the percentage changes, and twice a second for the rate and the time left.
    guard percent != lastPercent || now - lastDraw >= .milliseconds(500) else { return }
    lastPercent = percent
    lastDraw = now
    let elapsed = now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    Output.writeError(
      "\r" + ProgressText.line(label: label, done: done, total: total, elapsed: seconds, unit: unit)
        + "\u{1B}[K")
  }

  package func finish() {
    guard enabled else { return }
    Output.writeError("\n")
  }
}

/// The text of a progress line: a pure function of what is done, the total and the time spent.
package enum ProgressText {
  /// `label [#########---------------------] 30%  1.2 GiB / 4.0 GiB  85.3 MiB/s  ETA 0:34`.
  /// The rate is the average since the start; the time left assumes it holds. Before any time
  /// has passed or anything is done, rate and time left are `--`.
  package static func line(
    label: String, done: Int64, total: Int64, elapsed: Double, unit: ProgressBar.Unit = .bytes
  ) -> String {
    let clamped = min(max(done, 0), max(total, 0))
    let percent = Int(clamped * 100 / max(total, 1))
    let width = 30
    let filled = percent * width / 100
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    let rate = elapsed > 0 && clamped > 0 ? Double(clamped) / elapsed : 0
    let amount: String
    let speed: String
    switch unit {
    case .bytes:
      amount = bytes(clamped) + " / " + bytes(total)
      speed = rate > 0 ? bytes(rate) + "/s" : "-- B/s"
    case .items(let name):
      amount = "\(clamped)/\(total) \(name)"
      speed = rate > 0 ? tenths(rate) + "/s" : "--/s"
    }
    let left: String
    if clamped >= total {
      left = "ETA 0:00"
    } else if rate > 0 {
      left = "ETA " + duration(Double(total - clamped) / rate)
    } else {
      left = "ETA --:--"
    }
    return "\(label) [\(bar)] \(percent)%  \(amount)  \(speed)  \(left)"
  }

  /// Bytes in binary units with one decimal (`512 B`, `1.5 KiB`, `85.3 MiB`, `4.0 GiB`).
  package static func bytes(_ count: Int64) -> String { bytes(Double(max(count, 0))) }

  /// Bytes (or bytes per second) in binary units with one decimal.
  package static func bytes(_ count: Double) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
    var value = count
    var index = 0
    // Move up while the value, rounded to tenths, would reach 1024.
    while index < units.count - 1 && (value * 10).rounded() >= 1024 * 10 {
      value /= 1024
      index += 1
    }
    if index == 0 { return "\(Int(value.rounded())) B" }
    return tenths(value) + " " + units[index]
  }

  /// A non-negative value with one decimal, rounded half up (`85.3`).
  package static func tenths(_ value: Double) -> String {
    let scaled = Int64((max(value, 0) * 10).rounded())
    return "\(scaled / 10).\(scaled % 10)"
  }

  /// Seconds as `M:SS` or `H:MM:SS` (rounded up to a whole second; `--:--` past 100 hours).
  package static func duration(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds < 360_000 else { return "--:--" }
    let whole = Int64(max(seconds, 0).rounded(.up))
    let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60)
    func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
  }
}
