import DiscKit
import Foundation

/// The PES pre-scan against ffprobe on the same 30 MiB window, and the scanner's throughput over
/// a memory-resident stream. Input: TestImages/generated/ts/bench-h264.m2ts (make-ts.sh, ~40 MB).
let transportStreamBenchmarks: [Benchmark] = [
  Benchmark(
    name: "ts-scan",
    summary: "PES pre-scan of a 30 MiB window vs ffprobe -show_packets on the same window"
  ) {
    let path = "TestImages/generated/ts/bench-h264.m2ts"
    guard FileManager.default.fileExists(atPath: path) else {
      throw DiscKitError(
        .notFound, path, at: nil, "run `make images` (TestImages/scripts/make-ts.sh) first")
    }
    let window = PESPreScanner.defaultWindow
    // ffprobe reads a file holding exactly the window (it has no byte-count limit of its own).
    let cut = FileManager.default.temporaryDirectory.appendingPathComponent(
      "disckit-bench-window.m2ts"
    ).path
    let source = try FileByteSource(path: path)
    let bytes = try source.bytes(at: 0, count: Int(min(window, source.size)))
    try Data(bytes).write(to: URL(fileURLWithPath: cut))
    defer { try? FileManager.default.removeItem(atPath: cut) }
    var report: PESScanReport?
    let disckit = try Timing.best(runs: 5) {
      report = try PESPreScanner.scan(source: FileByteSource(path: cut), window: window)
    }
    let reference = try Timing.best(runs: 3) {
      try Timing.tool("ffprobe", ["-v", "quiet", "-show_packets", "-of", "compact", cut])
    }
    Timing.report(
      "scan 30 MiB window", disckit: disckit, reference: reference, referenceName: "ffprobe",
      bytes: Int64(bytes.count))
    if let v = report?.video.first {
      print(
        "   first IDR PTS \(v.firstIDRPTS.map(String.init) ?? "none"), pre-IDR gap \(v.preIDRGapSeconds ?? .nan) s"
      )
    }
    // Throughput over memory: the scanner alone, no I/O.
    var scanned = 0
    let memory = Timing.best(runs: 5) {
      var scanner = PESPreScanner()
      bytes.withUnsafeBytes { raw in
        var i = 0
        while i < raw.count {
          let n = min(1 << 20, raw.count - i)
          scanner.feed(UnsafeRawBufferPointer(rebasing: raw[i..<i + n]))
          i += n
        }
      }
      scanned = Int(scanner.finish().bytesScanned)
    }
    print(
      String(
        format: "   scanner over memory: %.3f s for %d bytes = %.0f MB/s", memory, scanned,
        Double(scanned) / memory / 1e6))
  }
]
