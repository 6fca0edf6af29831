@_spi(Formats) import DiscKit
import DiscKitOutput
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
    name: "dvd-extract",
    summary:
      "extract the main title of a 2-minute DVD (built once in .bench/dvd-large) vs cat of its VOB"
  ) {
    let folder = try largeDVD()
    let disc = try DVDDisc(fileSystem: try FolderFileSystem(root: folder))
    guard let main = DVDSmartTitleSelector.select(disc).title else {
      throw DiscKitError(.notFound, folder, at: nil, "no main title")
    }
    let source = try disc.byteSource(title: main)
    let output = ".bench/dvd-extract.vob"
    let ours = try Timing.best(runs: 5) {
      let writer = try AtomicFileWriter(destination: output, overwrite: true)
      try source.copy(to: writer)
      try writer.commit()
    }
    let oursNoSync = try Timing.best(runs: 5) {
      let writer = try AtomicFileWriter(destination: output, overwrite: true)
      try source.copy(to: writer)
      writer.abort()
    }
    let vob = folder + "/VIDEO_TS/VTS_01_1.VOB"
    let catSync = try Timing.best(runs: 5) {
      try? FileManager.default.removeItem(atPath: output)
      try Timing.tool("/bin/sh", ["-c", "cat '\(vob)' > '\(output)' && sync '\(output)'"])
    }
    let cat = try Timing.best(runs: 5) {
      try? FileManager.default.removeItem(atPath: output)
      _ = FileManager.default.createFile(atPath: output, contents: nil)
      try Timing.tool("cat", [vob], stdout: output)
    }
    try? FileManager.default.removeItem(atPath: output)
    Timing.report(
      "extract title \(main) (synced)", disckit: ours, reference: catSync,
      referenceName: "cat+sync",
      bytes: source.size)
    Timing.report(
      "extract title \(main), copy only (no fsync)", disckit: oursNoSync, reference: cat,
      referenceName: "cat", bytes: source.size)
  },
]

/// A DVD folder with one 2-minute title (about 130 MB), authored once with ffmpeg and dvdauthor.
func largeDVD() throws -> String {
  let folder = ".bench/dvd-large"
  if FileManager.default.fileExists(atPath: folder + "/VIDEO_TS/VIDEO_TS.IFO") { return folder }
  print("   building \(folder) (once; about a minute)")
  let script = """
    set -e
    rm -rf .bench/dvd-large .bench/dvd-large.tmp && mkdir -p .bench/dvd-large.tmp
    cd .bench/dvd-large.tmp
    ffmpeg -v error -f lavfi -i testsrc2=size=720x576:rate=25:duration=120 \\
      -f lavfi -i sine=frequency=440:duration=120 -target pal-dvd -b:v 8000k -maxrate 9000k \\
      -aspect 16:9 -y title.mpg
    printf '<dvdauthor><vmgm/><titleset><titles><pgc><vob file="title.mpg" chapters="0,30,60,90"/></pgc></titles></titleset></dvdauthor>' > dvd.xml
    VIDEO_FORMAT=PAL dvdauthor -o ../dvd-large -x dvd.xml 2>/dev/null
    cd .. && rm -rf dvd-large.tmp
    """
  try Timing.tool("/bin/bash", ["-c", script])
  return folder
}

/// A generated DVD folder (TestImages/generated), made on demand by make-dvd.sh.
func dvdBenchInput(_ name: String) -> String {
  let path = "TestImages/generated/" + name
  if !FileManager.default.fileExists(atPath: path) {
    try? Timing.tool("/bin/bash", ["TestImages/scripts/make-dvd.sh"])
  }
  return path
}
