@_spi(Benchmark) import DiscKit
import Foundation

/// Whole-process benchmarks (issue 11): `disckit` started as a command, against the C tools, with
/// hyperfine (medians) and `/usr/bin/time` (peak RSS). Inputs: every real disc in
/// ../shared/realdata (or $DISCKIT_REALDATA), as a folder and wrapped into a UDF image once
/// (`.bench/realdata-images`, made with `disckit author`), and the generated test streams.
let startupBenchmarks: [Benchmark] = [
  Benchmark(
    name: "startup",
    summary:
      "disckit --version as a process vs a C program that does nothing (/bin/true) and lsdvd -h (hyperfine medians)"
  ) {
    let disckit = try Startup.disckit()
    print("   disckit links: \(Startup.linkedLibraries(disckit).joined(separator: " "))")
    let times = try Startup.hyperfineTimes(
      [[disckit, "--version"], ["/bin/true"], ["lsdvd", "-h"]], runs: Startup.runs)
    Startup.report(
      "disckit --version", disckit: times[0].median, reference: times[1].median,
      referenceName: "/bin/true")
    Startup.reportCPU(
      "disckit --version", disckit: times[0].cpu, reference: times[1].cpu,
      referenceName: "/bin/true")
    Startup.report(
      "disckit --version", disckit: times[0].median, reference: times[2].median,
      referenceName: "lsdvd -h")
    let rss = try Startup.peakRSS([disckit, "--version"])
    print("   peak RSS of disckit --version: \(Startup.mib(rss)) MiB")
  },
  Benchmark(
    name: "titles-real",
    summary:
      "disckit titles on every real disc (folder and UDF image) vs bd_list_titles / lsdvd: medians, peak RSS"
  ) {
    let disckit = try Startup.disckit()
    let discs = try Startup.realBlurays()
    let images = try Startup.images(of: discs, disckit: disckit)
    var ratios: [Double] = []
    var cpuRatios: [Double] = []
    var slower: [String] = []
    var maxRSS: Int64 = 0
    var maxReferenceRSS: Int64 = 0
    for (label, path) in discs.map({ ($0, $0) }) + images.map({ ($0, $0) }) {
      let times = try Startup.hyperfineTimes(
        [[disckit, "titles", path], ["bd_list_titles", path]], runs: Startup.runs)
      let medians = times.map(\.median)
      let ratio = medians[0] / medians[1]
      ratios.append(ratio)
      cpuRatios.append(times[0].cpu / times[1].cpu)
      if ratio > 1 { slower.append((label as NSString).lastPathComponent) }
      maxRSS = max(maxRSS, try Startup.peakRSS([disckit, "titles", path]))
      maxReferenceRSS = max(maxReferenceRSS, try Startup.peakRSS(["bd_list_titles", path]))
      Startup.report(
        "titles \((label as NSString).lastPathComponent)", disckit: medians[0],
        reference: medians[1], referenceName: "bd_list_titles")
    }
    print(
      String(
        format:
          "   Blu-ray: %d discs (folders + images): ratio disckit/bd_list_titles median %.2f, max %.2f (geometric mean %.2f); slower on: %@",
        ratios.count, Startup.median(ratios), ratios.max() ?? .nan, Startup.geometricMean(ratios),
        slower.count <= 5
          ? (slower.isEmpty ? "none" : slower.joined(separator: ", "))
          : "\(slower.count) of \(ratios.count)"))
    print(
      String(
        format:
          "   Blu-ray, CPU time (user + system): ratio disckit/bd_list_titles median %.2f, max %.2f (geometric mean %.2f)",
        Startup.median(cpuRatios), cpuRatios.max() ?? .nan, Startup.geometricMean(cpuRatios)))
    print(
      "   peak RSS: disckit titles max \(Startup.mib(maxRSS)) MiB, bd_list_titles max \(Startup.mib(maxReferenceRSS)) MiB"
    )
    // DVD: lsdvd reads the generated dvdauthor discs (folders and images) completely; on the real
    // IFO sets it stops early ("Couldn't read enough bytes for title"), so those are no baseline.
    var dvdRatios: [Double] = []
    for dvd in Startup.generatedDVDs() {
      let times = try Startup.hyperfineTimes(
        [[disckit, "titles", dvd], ["lsdvd", dvd]], runs: Startup.runs)
      dvdRatios.append(times[0].median / times[1].median)
      Startup.report(
        "titles \((dvd as NSString).lastPathComponent) (DVD)", disckit: times[0].median,
        reference: times[1].median, referenceName: "lsdvd")
      Startup.reportCPU(
        "titles \((dvd as NSString).lastPathComponent) (DVD)", disckit: times[0].cpu,
        reference: times[1].cpu, referenceName: "lsdvd")
      print(
        "   peak RSS: disckit titles \(Startup.mib(try Startup.peakRSS([disckit, "titles", dvd]))) MiB, lsdvd \(Startup.mib(try Startup.peakRSS(["lsdvd", dvd]))) MiB"
      )
    }
    if !dvdRatios.isEmpty {
      print(
        String(
          format:
            "   DVD: %d generated discs (folders + images): ratio disckit/lsdvd median %.2f, max %.2f",
          dvdRatios.count, Startup.median(dvdRatios), dvdRatios.max() ?? .nan))
    }
  },
  Benchmark(
    name: "titles-batch",
    summary:
      "disckit titles --batch over every real Blu-ray (folders + images) vs a shell loop of bd_list_titles"
  ) {
    let disckit = try Startup.disckit()
    let discs = try Startup.realBlurays()
    let images = try Startup.images(of: discs, disckit: disckit)
    // One root holding links to every disc (followed out of the root: --follow-links), so both
    // sides see the same list.
    let root = FileManager.default.currentDirectoryPath + "/.bench/batch-root"
    try? FileManager.default.removeItem(atPath: root)
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    for (i, path) in (discs + images).enumerated() {
      let name = String(format: "%03d-", i) + (path as NSString).lastPathComponent
      try FileManager.default.createSymbolicLink(
        atPath: root + "/" + name, withDestinationPath: path)
    }
    let count = discs.count + images.count
    let loop = "for d in '\(root)'/*; do bd_list_titles \"$d\"; done >/dev/null 2>&1"
    let medians = try Startup.hyperfine(
      [[disckit, "titles", "--batch", root, "--follow-links"], ["/bin/sh", "-c", loop]], runs: 10)
    Startup.report(
      "\(count) discs, --batch (\(ProcessInfo.processInfo.activeProcessorCount) cores)",
      disckit: medians[0], reference: medians[1], referenceName: "sh loop of bd_list_titles")
    let one = try Startup.hyperfine(
      [[disckit, "titles", "--batch", root, "--jobs", "1", "--follow-links"]], runs: 10)
    Startup.report(
      "\(count) discs, --batch --jobs 1", disckit: one[0], reference: medians[1],
      referenceName: "sh loop of bd_list_titles")
  },
  Benchmark(
    name: "scan-throughput",
    summary: "PES pre-scanner over memory and disckit scan over a cached file vs cat (GB/s)"
  ) {
    let disckit = try Startup.disckit()
    let input = "TestImages/generated/ts/bench-h264.m2ts"
    guard FileManager.default.fileExists(atPath: input) else {
      throw DiscKitError(.notFound, input, at: nil, "run `make images` first")
    }
    // About 512 MiB: the generated stream repeated (the page cache holds it).
    let big = FileManager.default.currentDirectoryPath + "/.bench/scan-512m.m2ts"
    let piece = try Data(contentsOf: URL(fileURLWithPath: input))
    let copies = max(1, (512 << 20) / max(1, piece.count))
    if (try? FileManager.default.attributesOfItem(atPath: big)[.size] as? Int)
      != piece.count * copies
    {
      try FileManager.default.createDirectory(
        atPath: (big as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      var all = Data(capacity: piece.count * copies)
      for _ in 0..<copies { all.append(piece) }
      try all.write(to: URL(fileURLWithPath: big))
    }
    let bytes = Int64(piece.count * copies)
    // The scanner alone over memory: 30 MiB window (the default) and the whole 512 MiB.
    let memory = [UInt8](try Data(contentsOf: URL(fileURLWithPath: big)))
    func scanMemory(_ count: Int, fastPath: Bool = true) -> Double {
      Timing.best(runs: 5) {
        var scanner = PESPreScanner()
        scanner.skipsQuietPayloads = fastPath
        memory.withUnsafeBytes { raw in
          var i = 0
          while i < count {
            let n = min(1 << 20, count - i)
            scanner.feed(UnsafeRawBufferPointer(rebasing: raw[i..<i + n]))
            i += n
          }
        }
        _ = scanner.finish()
      }
    }
    let window = Int(PESPreScanner.defaultWindow)
    let windowTime = scanMemory(window)
    let wholeTime = scanMemory(memory.count)
    let generalWindow = scanMemory(window, fastPath: false)
    let generalWhole = scanMemory(memory.count, fastPath: false)
    _ = try Startup.hyperfine([["cat", big]], runs: 3)  // warm the page cache
    let cat = try Startup.hyperfine([["cat", big]], runs: 10)[0]
    let scan = try Startup.hyperfine(
      [[disckit, "scan", big, "--bytes", String(bytes), "--json"]], runs: 10)[0]
    let gbps = { (b: Int64, s: Double) in Double(b) / s / 1e9 }
    print(
      String(
        format:
          "   scanner over memory, 30 MiB window: %.2f GB/s (every packet through the general path: %.2f GB/s; ratio %.2f)",
        gbps(Int64(window), windowTime), gbps(Int64(window), generalWindow),
        generalWindow / windowTime))
    print(
      String(
        format: "   scanner over memory, %d MiB, every packet through the general path: %.2f GB/s",
        Int(bytes >> 20), gbps(bytes, generalWhole)))
    print(
      String(
        format:
          "   scanner over memory, %d MiB: %.2f GB/s; cat of the cached file: %.2f GB/s; ratio scanner/cat = %.2f",
        Int(bytes >> 20), gbps(bytes, wholeTime), gbps(bytes, cat), cat / wholeTime))
    print(
      String(
        format:
          "   disckit scan --bytes %d (whole process, cached file): %.2f GB/s; ratio disckit/cat time = %.2f",
        Int(bytes), gbps(bytes, scan), scan / cat))
  },
]

/// Helpers of the whole-process benchmarks.
enum Startup {
  /// The release `disckit` beside this benchmark.
  /// The release `disckit`, installed (copied) into `.bench/bin` as `make install` would: the
  /// reference tools are installed files too. Measured on this machine, the linker's own output
  /// file starts ~0.3 ms slower per process than any copy of it (same bytes, same page-fault
  /// count; the page cache holds the file as the linker wrote it, and once evicted and read back
  /// it starts as fast as a copy), which would make every whole-process ratio a build artifact.
  static func disckit() throws -> String {
    var path = (CommandLine.arguments[0] as NSString).deletingLastPathComponent + "/disckit"
    if !path.hasPrefix("/") { path = FileManager.default.currentDirectoryPath + "/" + path }
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw DiscKitError(
        .notFound, path, at: nil, "build it: swift build -c release --product disckit")
    }
    return try installedCopy(of: path)
  }

  /// `path` copied byte for byte (read, then written: like `install`) into `.bench/bin`, once
  /// per build.
  static func installedCopy(of path: String) throws -> String {
    let directory = FileManager.default.currentDirectoryPath + "/.bench/bin"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let target = directory + "/" + (path as NSString).lastPathComponent
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    if (try? Data(contentsOf: URL(fileURLWithPath: target))) != bytes {
      let temporary = target + ".tmp"
      try bytes.write(to: URL(fileURLWithPath: temporary))
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: temporary)
      guard rename(temporary, target) == 0 else {
        throw DiscKitError(.cannotCreate, target, at: nil, "cannot install the benchmark copy")
      }
      // The pages just written stay in the page cache as written (large folios): a process
      // mapping them counts ~10 MiB more resident memory (21.9 against 11.8 MiB peak RSS for one
      // `titles`) and takes fewer page faults than once they are read back from disk.
      // DISCKIT_BENCH_EVICT_COPY=1 writes them back and drops them, so the first run reads them
      // back as after a reboot.
      let fd =
        ProcessInfo.processInfo.environment["DISCKIT_BENCH_EVICT_COPY"] == "1"
        ? open(target, O_RDONLY) : -1
      if fd >= 0 {
        _ = fsync(fd)
        _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
        close(fd)
      }
    }
    return target
  }

  static var realData: String {
    ProcessInfo.processInfo.environment["DISCKIT_REALDATA"] ?? "../shared/realdata"
  }

  /// Every real Blu-ray folder.
  static func realBlurays() throws -> [String] {
    let root = realData + "/bluray"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else {
      throw DiscKitError(.notFound, root, at: nil, "no real data (set DISCKIT_REALDATA)")
    }
    return names.sorted().map { root + "/" + $0 }.filter {
      FileManager.default.fileExists(atPath: $0 + "/BDMV")
    }
  }

  /// hyperfine runs per command of the startup benchmarks (`DISCKIT_BENCH_RUNS`, default 100).
  static var runs: Int {
    ProcessInfo.processInfo.environment["DISCKIT_BENCH_RUNS"].flatMap { Int($0) } ?? 100
  }

  /// The dvdauthor discs of TestImages/generated (`make images`), as folders and as images, and
  /// the menu discs whose main title DiscKit finds by running the DVD-Video VM through the menus
  /// (the damaged one is left out: lsdvd fails on it).
  static func generatedDVDs() -> [String] {
    [
      "dvd-pal", "dvd-ntsc", "dvd-pal.iso", "dvd-ntsc.iso", "dvd-menu-clean", "dvd-menu-decoy",
      "dvd-menu-lying", "dvd-menu-register", "dvd-menu-99", "dvd-menu-timer", "dvd-menu-timer-cut",
      "dvd-menu-random", "dvd-menu-intitle",
    ].map { "TestImages/generated/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
  }

  /// UDF 2.50 images of `discs`, made once with `disckit author` under `.bench/realdata-images`.
  static func images(of discs: [String], disckit: String) throws -> [String] {
    let dir = FileManager.default.currentDirectoryPath + "/.bench/realdata-images"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return try discs.map { disc in
      let image = dir + "/" + (disc as NSString).lastPathComponent + ".iso"
      if !FileManager.default.fileExists(atPath: image) {
        try Timing.tool(disckit, ["author", disc, "-o", image])
      }
      return image
    }
  }

  /// Runs hyperfine on the commands (no shell) and returns their median times in seconds.
  static func hyperfine(_ commands: [[String]], runs: Int) throws -> [Double] {
    try hyperfineTimes(commands, runs: runs).map(\.median)
  }

  /// Runs hyperfine on the commands (no shell): each command's median wall-clock time and its
  /// mean CPU time (user + system), in seconds. On a loaded machine the CPU time is the steadier
  /// figure (a process waiting for a core does not accumulate it).
  static func hyperfineTimes(_ commands: [[String]], runs: Int) throws -> [(
    median: Double, cpu: Double
  )] {
    let json = NSTemporaryDirectory() + "disckit-bench-hyperfine-\(getpid()).json"
    defer { try? FileManager.default.removeItem(atPath: json) }
    var arguments = [
      "-N", "-i", "--style", "none", "--warmup", "10", "--runs", String(runs), "--export-json",
      json,
    ]
    arguments += commands.map { $0.map(shellQuoted).joined(separator: " ") }
    try Timing.tool("hyperfine", arguments)
    let data = try Data(contentsOf: URL(fileURLWithPath: json))
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let results = object["results"] as? [[String: Any]]
    else { throw DiscKitError(.malformed, "hyperfine JSON", at: nil, "no results") }
    return results.map {
      (
        ($0["median"] as? Double) ?? .nan,
        (($0["user"] as? Double) ?? .nan) + (($0["system"] as? Double) ?? .nan)
      )
    }
  }

  /// One line: DiscKit's and the reference's CPU time (user + system) and their ratio.
  static func reportCPU(_ what: String, disckit: Double, reference: Double, referenceName: String) {
    print(
      String(
        format: "   %@, CPU time: disckit %.2f ms, %@ %.2f ms, ratio %.2f", what, disckit * 1000,
        referenceName, reference * 1000, disckit / reference))
  }

  /// Peak resident set size of one run, in bytes (`/usr/bin/time -f %M`).
  static func peakRSS(_ command: [String]) throws -> Int64 {
    let out = NSTemporaryDirectory() + "disckit-bench-rss-\(getpid()).txt"
    defer { try? FileManager.default.removeItem(atPath: out) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    process.arguments = ["-f", "%M", "-o", out] + command
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let text = try String(contentsOfFile: out, encoding: .utf8)
    let kib = text.split(whereSeparator: \.isNewline).compactMap { Int64($0) }.last ?? 0
    return kib * 1024
  }

  /// The shared libraries `path` loads (ldd), by file name.
  static func linkedLibraries(_ path: String) -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
    process.arguments = [path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe  // "not a dynamic executable" goes to stderr
    guard (try? process.run()) != nil else { return [] }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    if text.contains("not a dynamic executable") { return ["nothing (a static executable)"] }
    return text.split(separator: "\n").compactMap {
      $0.split(separator: " ").first.map { String($0).trimmingCharacters(in: .whitespaces) }
    }.filter { !$0.hasPrefix("linux-vdso") }
  }

  static func report(_ what: String, disckit: Double, reference: Double, referenceName: String) {
    print(
      String(
        format: "   %@: disckit %.2f ms, %@ %.2f ms, ratio disckit/%@ = %.2f", what, disckit * 1000,
        referenceName, reference * 1000, referenceName, disckit / reference))
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
  }

  static func geometricMean(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    return exp(values.map { log($0) }.reduce(0, +) / Double(values.count))
  }

  static func mib(_ bytes: Int64) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }

  static func shellQuoted(_ word: String) -> String {
    word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:".contains($0) }
      ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
