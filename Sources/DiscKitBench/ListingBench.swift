@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringFixtures
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 29: what listing a disc costs. `disckit titles` as a whole process against
/// `bd_list_titles` on retail-like discs WITH their stream files (``RetailDiscWriter``: an IG
/// stream in every one of 22 clips, gigabytes of sparse streams; a film and a series, the main
/// title decided by the navigation or by a menu; folders and UDF images) and on the real
/// metadata trees (folders and images). Both programs run interleaved, one after the other for
/// every disc, round after round, so a loaded machine slows both alike; each disc's figure is the
/// median of its rounds. Beside the times: the bytes each program reads from the disc's stream
/// files (strace of one run: reads of `BDMV/STREAM` files in a folder, reads of an image that
/// fall in their extents) and `disckit titles`'s peak RSS (wait4's `ru_maxrss`).
let listingBenchmarks: [Benchmark] = [
  Benchmark(
    name: "titles-listing",
    summary:
      "disckit titles vs bd_list_titles, interleaved: retail-like discs with their stream files and the real trees (folders, images): ratios, stream bytes read, peak RSS"
  ) {
    let disckit = try Startup.disckit()
    var discs: [(label: String, path: String, retail: Bool)] = []
    for disc in try ListingBench.retailDiscs(disckit: disckit) {
      discs.append((disc.label, disc.path, true))
    }
    if let real = try? Startup.realBlurays() {
      let images = try Startup.images(of: real, disckit: disckit)
      for path in real + images {
        discs.append(((path as NSString).lastPathComponent, path, false))
      }
      for disc in try ListingBench.realWithStreams(real) {
        discs.append((disc.label, disc.path, true))
      }
    }
    let rounds = ListingBench.rounds
    var times = [[ProcessSample]](repeating: [], count: discs.count)
    var theirs = [[ProcessSample]](repeating: [], count: discs.count)
    // Two warm-up rounds (page cache, the binaries), then the measured ones; the order of the
    // two programs alternates from round to round.
    for round in -2..<rounds {
      for (k, disc) in discs.enumerated() {
        let ours = [disckit, "titles", disc.path]
        let reference = ["/usr/bin/bd_list_titles", disc.path]
        let first = round % 2 == 0
        let a = try ProcessSample.run(first ? ours : reference)
        let b = try ProcessSample.run(first ? reference : ours)
        if round >= 0 {
          times[k].append(first ? a : b)
          theirs[k].append(first ? b : a)
        }
      }
    }
    print(
      "   \(rounds) interleaved rounds per disc (medians); the machine's load average at the end: \(ListingBench.loadAverage())"
    )
    var rows: [(label: String, retail: Bool, ratio: Double, cpuRatio: Double)] = []
    var maxRSS: Int64 = 0
    for (k, disc) in discs.enumerated() {
      let ours = Startup.median(times[k].map(\.wall))
      let reference = Startup.median(theirs[k].map(\.wall))
      let cpu = Startup.median(times[k].map(\.cpu)) / Startup.median(theirs[k].map(\.cpu))
      // wait4's ru_maxrss of a posix_spawn child counts this process's own pages (the child
      // shares them until exec): /usr/bin/time's fork is small.
      let rss = try Startup.peakRSS([disckit, "titles", disc.path])
      maxRSS = max(maxRSS, rss)
      let bytes = try ListingBench.streamBytes([disckit, "titles", disc.path], disc: disc.path)
      let referenceBytes = try ListingBench.streamBytes(
        ["/usr/bin/bd_list_titles", disc.path], disc: disc.path)
      rows.append((disc.label, disc.retail, ours / reference, cpu))
      print(
        String(
          format:
            "   %@: disckit %.2f ms, bd_list_titles %.2f ms, ratio %.2f (CPU %.2f); stream bytes read: disckit %@, bd_list_titles %@ (all bytes: %@, %@); disckit peak RSS %@ MiB",
          disc.label, ours * 1000, reference * 1000, ours / reference, cpu,
          ListingBench.size(bytes.stream), ListingBench.size(referenceBytes.stream),
          ListingBench.size(bytes.total), ListingBench.size(referenceBytes.total),
          Startup.mib(rss)))
    }
    for (name, subset) in [
      ("retail-like discs with stream files", rows.filter(\.retail)),
      ("real trees (metadata)", rows.filter { !$0.retail }), ("all", rows),
    ] where !subset.isEmpty {
      let ratios = subset.map(\.ratio)
      let worst = subset.max { $0.ratio < $1.ratio }
      print(
        String(
          format:
            "   %@, %d discs: ratio disckit/bd_list_titles median %.2f, max %.2f (%@); CPU ratio median %.2f, max %.2f; above 1.5x: %d",
          name, subset.count, Startup.median(ratios), ratios.max() ?? .nan, worst?.label ?? "",
          Startup.median(subset.map(\.cpuRatio)), subset.map(\.cpuRatio).max() ?? .nan,
          ratios.filter { $0 > 1.5 }.count))
    }
    print("   disckit titles peak RSS, every disc: max \(Startup.mib(maxRSS)) MiB")
  }
]

/// One process run: wall-clock and CPU time, peak RSS.
struct ProcessSample {
  var wall: Double
  var cpu: Double
  var maxRSS: Int64

  /// Runs `command` (output discarded) and waits for it; throws when it does not exit with 0.
  static func run(_ command: [String], environment: [String: String]? = nil) throws
    -> ProcessSample
  {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var env: [UnsafeMutablePointer<CChar>?] = []
    if let environment {
      env = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    }
    defer { for p in env { free(p) } }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned =
      environment == nil
      ? posix_spawn(&pid, command[0], &actions, nil, argv, environ)
      : posix_spawn(&pid, command[0], &actions, nil, argv, env)
    guard spawned == 0 else {
      throw DiscKitError(.io, command[0], at: nil, "cannot start (\(spawned))")
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    guard status == 0 else {
      throw DiscKitError(
        .io, command.joined(separator: " "), at: nil, "exited with status \(status)")
    }
    let cpu =
      Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    return ProcessSample(wall: wall, cpu: cpu, maxRSS: Int64(usage.ru_maxrss) * 1024)
  }
}

enum ListingBench {
  /// Rounds per disc (`DISCKIT_BENCH_LISTING_ROUNDS`, default 41).
  static var rounds: Int {
    ProcessInfo.processInfo.environment["DISCKIT_BENCH_LISTING_ROUNDS"].flatMap { Int($0) } ?? 41
  }

  /// The retail-like discs (a film and a series of six episodes; the main title decided by the
  /// navigation or by a menu), written once under `.bench/retail` with 30 Mbit/s of sparse stream
  /// files (20,000 packets a second), as folders and as UDF images.
  static func retailDiscs(disckit: String) throws -> [(label: String, path: String)] {
    let root = FileManager.default.currentDirectoryPath + "/.bench/retail-v1"
    var out: [(String, String)] = []
    for (name, layout) in [
      ("film", RetailDiscWriter.Layout.movie), ("series", .series(episodes: 6)),
    ] {
      for (how, reach) in [
        ("navigation", RetailDiscWriter.Reach.navigation), ("menu", .menu),
      ] {
        let label = "retail \(name), \(how) decides"
        let folder = root + "/\(name)-\(how)"
        let image = folder + ".iso"
        if !FileManager.default.fileExists(atPath: image) {
          try? FileManager.default.removeItem(atPath: folder)
          try RetailDiscWriter.write(at: folder, reach: reach, layout: layout)
          try UDFImageWriter(folder: folder, options: .init(volumeLabel: "RETAIL")).write(
            to: image)
        }
        out.append((label + " (folder)", folder))
        out.append((label + " (UDF image)", image))
      }
    }
    return out
  }

  /// The real trees given stream files (``RetailDiscWriter/copyWithStreams(_:to:)``: as large
  /// as their clip information says, the disc's own menu at the head of every IG clip where the
  /// tree has it, holes), written once under `.bench/real-streams`, as folders and UDF images.
  static func realWithStreams(_ trees: [String]) throws -> [(label: String, path: String)] {
    let root = FileManager.default.currentDirectoryPath + "/.bench/real-streams-v1"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    var out: [(String, String)] = []
    for tree in trees {
      let name = (tree as NSString).lastPathComponent
      let folder = root + "/" + name
      let image = folder + ".iso"
      if !FileManager.default.fileExists(atPath: image) {
        try? FileManager.default.removeItem(atPath: folder)
        try RetailDiscWriter.copyWithStreams(tree, to: folder)
        try UDFImageWriter(folder: folder, options: .init(volumeLabel: "REAL")).write(to: image)
      }
      out.append((name + " with streams (folder)", folder))
      out.append((name + " with streams (UDF image)", image))
    }
    return out
  }

  /// The bytes one run of `command` reads from the disc at `disc` (a folder or an image): in all,
  /// and from its stream files (`/BDMV/STREAM/` files of a folder; for an image, the reads that
  /// fall in those files' extents), counted from `strace -y` (read, pread64, readv, preadv,
  /// preadv2, with lseek followed).
  static func streamBytes(_ command: [String], disc: String) throws -> (total: Int64, stream: Int64)
  {
    let out = NSTemporaryDirectory() + "disckit-bench-strace-\(getpid()).txt"
    defer { try? FileManager.default.removeItem(atPath: out) }
    _ = try ProcessSample.run(
      [
        "/usr/bin/strace", "-f", "-qq", "-y", "-s", "0", "-o", out, "-e",
        "trace=read,pread64,readv,preadv,preadv2,lseek",
      ] + command)
    let text = try String(contentsOfFile: out, encoding: .utf8)
    let root = URL(fileURLWithPath: disc).resolvingSymlinksInPath().path
    var isDirectory: ObjCBool = false
    let isImage =
      !(FileManager.default.fileExists(atPath: disc, isDirectory: &isDirectory)
      && isDirectory.boolValue)
    var streamExtents: [Range<Int64>] = []
    if isImage, let fs = try DiscImage.open(path: disc).fileSystem as? UDFFileSystem {
      for entry in (try? fs.contentsOfDirectory(atPath: "/BDMV/STREAM")) ?? []
      where !entry.isDirectory {
        for extent in try fs.extents(ofFileAtPath: "/BDMV/STREAM/" + entry.name) {
          if let offset = extent.offset { streamExtents.append(offset..<(offset + extent.length)) }
        }
      }
    }
    var positions: [String: Int64] = [:]
    var total: Int64 = 0
    var stream: Int64 = 0
    for line in text.split(separator: "\n") {
      // `1234 pread64(3</path>, ""..., 65536, 0) = 65536`
      guard let open = line.firstIndex(of: "("), let lt = line.firstIndex(of: "<"),
        let gt = line[lt...].firstIndex(of: ">"),
        let equals = line.range(of: ") = ", options: .backwards)
      else { continue }
      let call = line[..<open].split(separator: " ").last.map(String.init) ?? ""
      let fd = String(line[line.index(after: open)..<lt])
      let path = String(line[line.index(after: lt)..<gt])
      guard path.hasPrefix(root),
        let result = Int64(line[equals.upperBound...].prefix { $0 != " " })
      else { continue }
      let key = fd + " " + path
      let arguments = line[line.index(after: gt)..<equals.lowerBound].split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      var offset: Int64?
      switch call {
      case "lseek":
        positions[key] = result
        continue
      case "pread64", "preadv":
        offset = arguments.last.flatMap { Int64($0) }
      case "preadv2":
        offset = arguments.dropLast().last.flatMap { Int64($0) }
      case "read", "readv":
        offset = positions[key] ?? 0
        positions[key] = (offset ?? 0) + max(result, 0)
      default:
        continue
      }
      guard result > 0, let at = offset else { continue }
      total += result
      if isImage {
        let read = at..<(at + result)
        for extent in streamExtents where extent.overlaps(read) {
          stream +=
            min(extent.upperBound, read.upperBound) - max(extent.lowerBound, read.lowerBound)
        }
      } else if path.contains("/BDMV/STREAM/") {
        stream += result
      }
    }
    return (total, stream)
  }

  static func size(_ bytes: Int64) -> String {
    bytes >= 1 << 20
      ? String(format: "%.1f MiB", Double(bytes) / 1_048_576)
      : bytes >= 1024 ? String(format: "%.0f KiB", Double(bytes) / 1024) : "\(bytes) B"
  }

  static func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))
      .map { $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "?"
  }
}
