import DiscKit
import Foundation

/// DVD benchmarks: listing titles against `lsdvd`, extraction against `cat` of the VOB.
let dvdBenchmarks: [Benchmark] = [
  Benchmark(
    name: "dvd-titles", summary: "DVD title listing (DVDDisc + smart selection) vs lsdvd -x"
  ) {
    let folder = dvdBenchInput("dvd-ntsc")
    let realData = ProcessInfo.processInfo.environment["DISCKIT_REALDATA"] ?? "../shared/realdata"
    let real = realData + "/dvd/dvdread_idiocracy"
    for path in [folder, real] where FileManager.default.fileExists(atPath: path) {
      let ours = try Timing.best(runs: 5) {
        for _ in 0..<20 {
          let disc = try DVDDisc(fileSystem: try FolderFileSystem(root: path))
          _ = DVDSmartTitleSelector.select(disc)
          _ = LsdvdTitleSelector.report(disc)
        }
      }
      let theirs = try Timing.best(runs: 5) {
        for _ in 0..<20 { try Timing.tool("lsdvd", ["-x", path]) }
      }
      Timing.report("titles x20 \(path)", disckit: ours, reference: theirs, referenceName: "lsdvd")
    }
  },
  Benchmark(
    name: "dvd-extract", summary: "DVD title extraction (title byte source copy) vs cat of the VOB"
  ) {
    let folder = dvdBenchInput("dvd-ntsc")
    let disc = try DVDDisc(fileSystem: try FolderFileSystem(root: folder))
    let source = try disc.byteSource(title: 4)
    let output = NSTemporaryDirectory() + "disckit-dvd-bench.vob"
    let ours = try Timing.best(runs: 5) {
      let writer = try AtomicFileWriter(destination: output, overwrite: true)
      try source.copy(to: writer)
      try writer.commit()
    }
    let vob = folder + "/VIDEO_TS/VTS_02_1.VOB"
    let theirs = try Timing.best(runs: 5) { try Timing.tool("cat", [vob], stdout: output) }
    try? FileManager.default.removeItem(atPath: output)
    // DiscKit's time includes AtomicFileWriter's fsync + rename; cat's does not.
    Timing.report(
      "extract title 4", disckit: ours, reference: theirs, referenceName: "cat", bytes: source.size)
  },
]

/// A generated DVD folder (TestImages/generated), made on demand by make-dvd.sh.
func dvdBenchInput(_ name: String) -> String {
  let path = "TestImages/generated/" + name
  if !FileManager.default.fileExists(atPath: path) {
    try? Timing.tool("/bin/bash", ["TestImages/scripts/make-dvd.sh"])
  }
  return path
}
