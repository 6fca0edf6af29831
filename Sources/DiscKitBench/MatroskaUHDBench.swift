@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
@_spi(Formats) import DiscKitMedia
import Foundation

/// The issue's UHD goal: a Matroska file of a UHD title with TrueHD and its AC-3 core (two
/// tracks) against mkvmerge on the same `.mpls`. The folder is authored under `.bench/mkv-uhd`
/// (kept between runs) from `TestImages/scripts/bench-uhd-clips.sh`,
/// `DISCKIT_BENCH_UHD_SECONDS` seconds (default 20) of HEVC Main 10 HDR10 at 40 Mb/s.
let matroskaUHDBenchmarks: [Benchmark] = [
  Benchmark(
    name: "mkv-uhd",
    summary: "UHD title (HEVC HDR10, TrueHD + AC-3 core) to Matroska vs mkvmerge on the .mpls"
  ) {
    try MatroskaUHDBench.run()
  }
]

enum MatroskaUHDBench {
  static let root = FileManager.default.currentDirectoryPath + "/.bench/mkv-uhd"

  static func prepare() throws -> String {
    let folder = root + "/disc"
    if FileManager.default.fileExists(atPath: folder + "/BDMV/PLAYLIST/00000.mpls") {
      return folder
    }
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    let seconds = ProcessInfo.processInfo.environment["DISCKIT_BENCH_UHD_SECONDS"] ?? "20"
    try Timing.tool(
      "/bin/bash",
      [
        FileManager.default.currentDirectoryPath + "/TestImages/scripts/bench-uhd-clips.sh", root,
        seconds,
      ])
    let builder = try BDMVBuilder(
      clips: ["\(root)/uhd.ts"], titles: [.init(clips: ["\(root)/uhd.ts"], chapterInterval: 60)])
    _ = try builder.writeFolder(to: folder)
    return folder
  }

  /// Best wall and CPU times of DiscKit's library and of mkvmerge (and mkvmerge + `sync FILE`,
  /// as DiscKit syncs its output before the rename).
  static func run() throws {
    let folder = try prepare()
    let title = try Disc.open(path: folder).title(key: "00000")
    let size = title.size
    let ours = root + "/disckit.mkv"
    let theirs = root + "/mkvmerge.mkv"
    let matroska = try MatroskaTitle(title: title)
    let tracks = matroska.tracks.map { $0.substream == .ac3Core ? "AC-3 core" : $0.declaredCodec }
    print("   tracks: \(tracks.joined(separator: ", "))")
    let library = try MatroskaBench.measure(RUSAGE_SELF.rawValue) {
      try MatroskaWriter.write(matroska, toPath: ours, overwrite: true)
    }
    let mpls = folder + "/BDMV/PLAYLIST/00000.mpls"
    let mkvmerge = try MatroskaBench.measure(RUSAGE_CHILDREN.rawValue) {
      try Timing.tool("mkvmerge", ["-q", "-o", theirs, mpls])
    }
    let mkvmergeSynced = try MatroskaBench.measure(RUSAGE_CHILDREN.rawValue) {
      try Timing.tool("mkvmerge", ["-q", "-o", theirs, mpls])
      try Timing.tool("sync", [theirs])
    }
    let label = "UHD title (\(size >> 20) MiB) to mkv"
    Timing.report(
      "\(label), library (synced) vs mkvmerge", disckit: library.wall, reference: mkvmerge.wall,
      referenceName: "mkvmerge", bytes: size)
    Timing.report(
      "\(label), library vs mkvmerge + sync FILE", disckit: library.wall,
      reference: mkvmergeSynced.wall, referenceName: "mkvmerge+sync", bytes: size)
    Timing.report(
      "\(label), library, CPU time (user+sys)", disckit: library.cpu, reference: mkvmerge.cpu,
      referenceName: "mkvmerge")
  }
}
