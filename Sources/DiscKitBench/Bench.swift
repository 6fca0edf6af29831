import DiscKit
import Foundation

/// `make bench`: runs DiscKit and the reference tools on the same inputs and prints ratios.
///
/// Each benchmark is a function registered in ``benchmarks``; `DiscKitBench NAME...` runs some,
/// no argument runs all. Timings are wall-clock, best of several runs, measured in one process
/// run so that DiscKit and the reference see the same machine state.
@main
struct Bench {
  static func main() async throws {
    let wanted = Set(CommandLine.arguments.dropFirst())
    for benchmark in benchmarks where wanted.isEmpty || wanted.contains(benchmark.name) {
      print("== \(benchmark.name): \(benchmark.summary)")
      do {
        try await benchmark.run()
      } catch {
        print("   skipped: \(error)")
      }
    }
  }
}

/// A named benchmark.
struct Benchmark: Sendable {
  let name: String
  let summary: String
  let run: @Sendable () async throws -> Void
}

/// Every benchmark, in the order `make bench` prints them.
let benchmarks: [Benchmark] =
  startupBenchmarks + fileSystemBenchmarks + transportStreamBenchmarks + blurayBenchmarks
  + floodBenchmarks + dvdBenchmarks + authoringBenchmarks + matroskaBenchmarks
  + matroskaUHDBenchmarks + serverBenchmarks + fmp4Benchmarks + transcodeBenchmarks
  + bdjBenchmarks + subtitleBenchmarks + episodeBenchmarks + listingBenchmarks

/// Shared timing helpers for the benchmarks.
enum Timing {
  /// The best wall-clock time of `runs` runs of `body`, in seconds.
  static func best(runs: Int = 3, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
      let start = DispatchTime.now().uptimeNanoseconds
      try body()
      let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      best = min(best, seconds)
    }
    return best
  }

  /// Runs an external command with its output discarded; throws when it fails.
  static func tool(_ executable: String, _ arguments: [String], stdout: String = "/dev/null") throws
  {
    let process = Process()
    process.executableURL = URL(
      fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/\(executable)")
    process.arguments = arguments
    process.standardOutput = FileHandle(forWritingAtPath: stdout)
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw DiscKitError(
        .io, executable, at: nil, "exited with status \(process.terminationStatus)")
    }
  }

  /// Prints one result row: DiscKit's time, the reference's time and the ratio.
  static func report(
    _ what: String, disckit: Double, reference: Double, referenceName: String, bytes: Int64? = nil
  ) {
    var line = "   \(what): disckit \(format(disckit)) s, \(referenceName) \(format(reference)) s"
    line += String(format: ", ratio disckit/%@ = %.2f", referenceName, disckit / reference)
    if let bytes {
      line += String(format: " (disckit %.0f MB/s)", Double(bytes) / disckit / 1e6)
    }
    print(line)
  }

  static func format(_ seconds: Double) -> String { String(format: "%.3f", seconds) }
}
