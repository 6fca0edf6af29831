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
    try MatroskaBench.prepare(
      root: root, script: "bench-uhd-clips.sh", secondsVariable: "DISCKIT_BENCH_UHD_SECONDS",
      defaultSeconds: "20", clips: ["uhd.ts"])
  }

  /// Best wall and CPU times of DiscKit's library and of mkvmerge (and mkvmerge + `sync FILE`,
  /// as DiscKit syncs its output before the rename).
  static func run() throws {
    let folder = try prepare()
    let title = try Disc.open(path: folder).title(key: "00000")
    let matroska = try MatroskaTitle(title: title)
    let tracks = matroska.tracks.map { $0.substream == .ac3Core ? "AC-3 core" : $0.declaredCodec }
    print("   tracks: \(tracks.joined(separator: ", "))")
    try MatroskaBench.compareWithMkvmerge(
      matroska, folder: folder, root: root, label: "UHD title (\(title.size >> 20) MiB) to mkv",
      size: title.size)
  }
}
