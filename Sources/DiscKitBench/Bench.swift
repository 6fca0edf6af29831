import DiscKit

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
let benchmarks: [Benchmark] = []
