@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
@_spi(Formats) import DiscKitMedia
import Foundation

/// `disckit extract --format mkv` compared with mkvmerge reading the same playlist.
///
/// The input is a Blu-ray folder authored under `.bench/mkv` (kept between runs) from the two
/// clips of `TestImages/scripts/bench-mkv-clips.sh`, `DISCKIT_BENCH_MKV_SECONDS` seconds each
/// (default 60) in different PTS epochs: 1280x720 H.264 at a high bit rate, AC-3 and 24-bit
/// LPCM (so the LPCM conversion is part of the work, as it is for mkvmerge).
let matroskaBenchmarks: [Benchmark] = [
  Benchmark(
    name: "mkv", summary: "title to Matroska (DiscKitMedia, disckit-mkv) vs mkvmerge on the .mpls"
  ) {
    try MatroskaBench.run()
  }
]

enum MatroskaBench {
  static let root = FileManager.default.currentDirectoryPath + "/.bench/mkv"

  static func prepare() throws -> String {
    try prepare(
      root: root, script: "bench-mkv-clips.sh", secondsVariable: "DISCKIT_BENCH_MKV_SECONDS",
      defaultSeconds: "60", clips: ["c1.ts", "c2.ts"])
  }

  /// A disc folder under `root` with one title of `clips`, made from what `script` (in
  /// TestImages/scripts, given `root` and the seconds) writes there; made once and kept.
  static func prepare(
    root: String, script: String, secondsVariable: String, defaultSeconds: String,
    clips: [String]
  ) throws -> String {
    let folder = root + "/disc"
    if FileManager.default.fileExists(atPath: folder + "/BDMV/PLAYLIST/00000.mpls") {
      return folder
    }
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    let seconds = ProcessInfo.processInfo.environment[secondsVariable] ?? defaultSeconds
    try Timing.tool(
      "/bin/bash",
      [FileManager.default.currentDirectoryPath + "/TestImages/scripts/" + script, root, seconds])
    let paths = clips.map { "\(root)/\($0)" }
    let builder = try BDMVBuilder(
      clips: paths, titles: [.init(clips: paths, chapterInterval: 60)])
    _ = try builder.writeFolder(to: folder)
    return folder
  }

  /// Writes `matroska` with the library and `folder`'s playlist 00000 with mkvmerge (and
  /// mkvmerge + `sync FILE`), reports the three ratios and returns mkvmerge's times.
  @discardableResult
  static func compareWithMkvmerge(
    _ matroska: MatroskaTitle, folder: String, root: String, label: String, size: Int64
  ) throws -> (mkvmerge: (wall: Double, cpu: Double), synced: (wall: Double, cpu: Double)) {
    let ours = root + "/disckit.mkv"
    let theirs = root + "/mkvmerge.mkv"
    let mpls = folder + "/BDMV/PLAYLIST/00000.mpls"
    let library = try measure(RUSAGE_SELF.rawValue) {
      try MatroskaWriter.write(matroska, toPath: ours, overwrite: true)
    }
    let mkvmerge = try measure(RUSAGE_CHILDREN.rawValue) {
      try Timing.tool("mkvmerge", ["-q", "-o", theirs, mpls])
    }
    let mkvmergeSynced = try measure(RUSAGE_CHILDREN.rawValue) {
      try Timing.tool("mkvmerge", ["-q", "-o", theirs, mpls])
      try Timing.tool("sync", [theirs])
    }
    Timing.report(
      "\(label), library (synced) vs mkvmerge", disckit: library.wall, reference: mkvmerge.wall,
      referenceName: "mkvmerge", bytes: size)
    Timing.report(
      "\(label), library vs mkvmerge + sync FILE", disckit: library.wall,
      reference: mkvmergeSynced.wall, referenceName: "mkvmerge+sync", bytes: size)
    Timing.report(
      "\(label), library, CPU time (user+sys)", disckit: library.cpu, reference: mkvmerge.cpu,
      referenceName: "mkvmerge")
    return (mkvmerge, mkvmergeSynced)
  }

  /// CPU seconds (user + system) used so far by this process (`RUSAGE_SELF`) or by its waited-for
  /// children (`RUSAGE_CHILDREN`).
  static func cpuSeconds(_ who: Int32) -> Double {
    var usage = rusage()
    getrusage(who, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  /// The best wall time and the best CPU time (user + system, of `who`) of `runs` runs.
  static func measure(_ who: Int32, runs: Int = 3, _ body: () throws -> Void) rethrows -> (
    wall: Double, cpu: Double
  ) {
    var wall = Double.infinity
    var cpu = Double.infinity
    for _ in 0..<runs {
      let c0 = cpuSeconds(who)
      let w = try Timing.best(runs: 1, body)
      wall = min(wall, w)
      cpu = min(cpu, cpuSeconds(who) - c0)
    }
    return (wall, cpu)
  }

  /// DiscKit syncs its output before the rename (atomic, durable); mkvmerge does not. The
  /// like-for-like reference is mkvmerge followed by `sync FILE` (coreutils: fsync of that file).
  /// CPU time is the steadier figure on a loaded machine: wall time there is mostly waiting for
  /// a core.
  static func run() throws {
    let folder = try prepare()
    let title = try Disc.open(path: folder).title(key: "00000")
    let size = title.size
    let ours = root + "/disckit.mkv"
    let label = "title (\(size >> 20) MiB) to mkv"
    let (mkvmerge, mkvmergeSynced) = try compareWithMkvmerge(
      try MatroskaTitle(title: title), folder: folder, root: root, label: label, size: size)
    let children = RUSAGE_CHILDREN.rawValue
    let helper = FileManager.default.currentDirectoryPath + "/.build/release/disckit-mkv"
    if FileManager.default.isExecutableFile(atPath: helper) {
      let cli = try measure(children) {
        try Timing.tool(helper, ["extract", folder, "-o", ours, "--force"])
      }
      Timing.report(
        "\(label), disckit-mkv process (synced) vs mkvmerge", disckit: cli.wall,
        reference: mkvmerge.wall, referenceName: "mkvmerge", bytes: size)
      Timing.report(
        "\(label), disckit-mkv process vs mkvmerge + sync FILE", disckit: cli.wall,
        reference: mkvmergeSynced.wall, referenceName: "mkvmerge+sync", bytes: size)
      Timing.report(
        "\(label), disckit-mkv process, CPU time (user+sys)", disckit: cli.cpu,
        reference: mkvmerge.cpu, referenceName: "mkvmerge")
    }
  }
}
