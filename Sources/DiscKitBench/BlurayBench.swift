@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringFixtures
import DiscKitOutput
import Foundation

/// Blu-ray benchmarks: `titles` on a disc with many playlists against `bd_list_titles`, and title
/// extraction against `cat` of the same clip ranges and `bd_splice`.
let blurayBenchmarks: [Benchmark] = [
  Benchmark(
    name: "bluray-titles", summary: "title list of a disc with 1000 playlists vs bd_list_titles"
  ) {
    let dir = try BenchDirectory()
    try BlurayBenchDisc.writeManyPlaylists(at: dir.path, count: 1000)
    var mainName = ""
    let ours = try Timing.best(runs: 5) {
      let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: dir.path))
      let result = LibblurayTitleSelector.select(
        disc.playlists.map { ($0.name, $0.playlist) }, flags: .relevant)
      mainName = result.titles.isEmpty ? "" : result.titles[result.mainTitle]
    }
    let theirs = try Timing.best(runs: 5) { try Timing.tool("bd_list_titles", [dir.path]) }
    Timing.report(
      "titles (libbluray selection, main \(mainName))", disckit: ours, reference: theirs,
      referenceName: "bd_list_titles")
  },
  Benchmark(
    name: "bluray-extract",
    summary: "extract a title (DISCKIT_BENCH_BLURAY_MIB, default 2048 MiB) vs cat and bd_splice"
  ) {
    let dir = try BenchDirectory()
    let mib = Int(ProcessInfo.processInfo.environment["DISCKIT_BENCH_BLURAY_MIB"] ?? "") ?? 2048
    try BlurayBenchDisc.writeLargeTitle(at: dir.path, totalMiB: mib)
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: dir.path))
    let title = try disc.title(playlist: "00001.mpls")
    let source = try title.byteSource()
    let out = dir.path + "/out.m2ts"
    let ours = try Timing.best(runs: 3) {
      try? FileManager.default.removeItem(atPath: out)
      let sink = try AtomicFileWriter(destination: out, overwrite: true)
      try source.copy(to: sink)
      try sink.commit()
    }
    // The same copy without the final fsync+rename (AtomicFileWriter.commit syncs; cat does not).
    let oursNoSync = try Timing.best(runs: 3) {
      let sink = try AtomicFileWriter(destination: out, overwrite: true)
      try source.copy(to: sink)
      sink.abort()
    }
    let oursRead = try Timing.best(runs: 3) {
      let sink = try AtomicFileWriter(destination: "/dev/null", overwrite: true)
      try source.copy(to: sink)
      try sink.commit()
    }
    // cat of the same ranges: the clips are whole files here (first item from packet 0, last to the end).
    let files = title.fileRanges().map { dir.path + $0.path }
    // cat into a new file each time, as the extraction creates one.
    let cat = try Timing.best(runs: 3) {
      try? FileManager.default.removeItem(atPath: out)
      _ = FileManager.default.createFile(atPath: out, contents: nil)
      try Timing.tool("cat", files, stdout: out)
    }
    let catNull = try Timing.best(runs: 3) { try Timing.tool("cat", files, stdout: "/dev/null") }
    // The durable equivalent of what the atomic writer does: a new file, written and synced.
    let quoted = files.map { "'\($0)'" }.joined(separator: " ")
    let catSync = try Timing.best(runs: 3) {
      try? FileManager.default.removeItem(atPath: out)
      try Timing.tool("/bin/sh", ["-c", "cat \(quoted) > '\(out)' && sync '\(out)'"])
    }
    Timing.report(
      "extract to a file (synced)", disckit: ours, reference: catSync, referenceName: "cat+sync",
      bytes: source.size)
    Timing.report(
      "extract to a file", disckit: ours, reference: cat, referenceName: "cat", bytes: source.size)
    Timing.report(
      "extract to a file, copy only (no fsync)", disckit: oursNoSync, reference: cat,
      referenceName: "cat", bytes: source.size)
    Timing.report(
      "extract to /dev/null (read/write path)", disckit: oursRead, reference: catNull,
      referenceName: "cat", bytes: source.size)
    let splice = try Timing.best(runs: 3) {
      try Timing.tool("bd_splice", ["-p", "1", dir.path, out])
    }
    Timing.report(
      "extract to a file", disckit: ours, reference: splice, referenceName: "bd_splice",
      bytes: source.size)
  },
  Benchmark(
    name: "bluray-timeline",
    summary:
      "extract a 2-clip title on the continuous timeline vs the original (DISCKIT_BENCH_TIMELINE_MIB, default 512)"
  ) {
    let dir = try BenchDirectory()
    let mib = Int(ProcessInfo.processInfo.environment["DISCKIT_BENCH_TIMELINE_MIB"] ?? "") ?? 512
    try BlurayBenchDisc.writeLargeTitle(at: dir.path, totalMiB: mib, timestamps: true)
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: dir.path))
    let title = try disc.title(playlist: "00001.mpls")
    let original = try title.byteSource(timeline: .original)
    let continuous = try title.byteSource(timeline: .continuous)
    let out = dir.path + "/out.m2ts"
    func extract(_ source: any ByteSource, to path: String) throws {
      let sink = try AtomicFileWriter(destination: path, overwrite: true)
      try source.copy(to: sink)
      if path == "/dev/null" { try sink.commit() } else { sink.abort() }
    }
    let o = try Timing.best(runs: 3) { try extract(original, to: out) }
    let c = try Timing.best(runs: 3) { try extract(continuous, to: out) }
    let oNull = try Timing.best(runs: 3) { try extract(original, to: "/dev/null") }
    let cNull = try Timing.best(runs: 3) { try extract(continuous, to: "/dev/null") }
    Timing.report(
      "extract to a file (no fsync), continuous vs original", disckit: c, reference: o,
      referenceName: "original", bytes: continuous.size)
    Timing.report(
      "extract to /dev/null (read/write path), continuous vs original", disckit: cNull,
      reference: oNull, referenceName: "original", bytes: continuous.size)
  },
  Benchmark(
    name: "bluray-joins",
    summary:
      "extract a 20-clip non-seamless title on the continuous timeline (timestamps moved, counters renumbered at every join) vs the original (DISCKIT_BENCH_TIMELINE_MIB, default 512)"
  ) {
    let dir = try BenchDirectory()
    let mib = Int(ProcessInfo.processInfo.environment["DISCKIT_BENCH_TIMELINE_MIB"] ?? "") ?? 512
    try BlurayBenchDisc.writeLargeTitle(at: dir.path, totalMiB: mib, timestamps: true, clips: 20)
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: dir.path))
    let title = try disc.title(playlist: "00001.mpls")
    let original = try title.byteSource(timeline: .original)
    let opened = try Timing.best(runs: 3) { _ = try title.byteSource(timeline: .continuous) }
    let continuous = try title.byteSource(timeline: .continuous)
    let out = dir.path + "/out.m2ts"
    func extract(_ source: any ByteSource, to path: String) throws {
      let sink = try AtomicFileWriter(destination: path, overwrite: true)
      try source.copy(to: sink)
      if path == "/dev/null" { try sink.commit() } else { sink.abort() }
    }
    // Interleaved, best of five each: page-cache and writeback noise hits all three alike.
    var (o, c, r) = (Double.infinity, Double.infinity, Double.infinity)
    for _ in 0..<5 {
      o = min(o, try Timing.best(runs: 1) { try extract(original, to: out) })
      c = min(c, try Timing.best(runs: 1) { try extract(continuous, to: out) })
      // The original timeline through the same reads and writes as the continuous one (no
      // kernel copy): what the rewrite itself costs.
      r = min(r, try Timing.best(runs: 1) { try extract(ReadWriteOnly(base: original), to: out) })
    }
    // The floor for any copy that changes bytes: the clip files in plain 768 KiB preads and
    // writes, one continuity-counter nibble changed per packet, nothing else.
    let clipPaths = (1...20).map { dir.path + String(format: "/BDMV/STREAM/%05d.m2ts", $0) }
    let floor = try Timing.best(runs: 5) { try RewriteFloor.copy(clipPaths, to: out) }
    Timing.report(
      "20 clips: extract to a file (no fsync), continuous vs original", disckit: c, reference: o,
      referenceName: "original", bytes: continuous.size)
    Timing.report(
      "20 clips: continuous vs original through read/write (no copy_file_range)", disckit: c,
      reference: r, referenceName: "original read/write", bytes: continuous.size)
    Timing.report(
      "20 clips: plain pread + one nibble per packet + write (the floor of any rewrite) vs original",
      disckit: floor, reference: o, referenceName: "original", bytes: continuous.size)
    // What a user runs: `disckit extract` to a file, committed (fsync, rename), so the disk's
    // writeback is in it. Interleaved; the medians of seven.
    func committed(_ source: any ByteSource) throws -> Double {
      let path = dir.path + "/committed.m2ts"
      let start = DispatchTime.now().uptimeNanoseconds
      let sink = try AtomicFileWriter(destination: path, overwrite: true)
      try source.copy(to: sink)
      try sink.commit()
      let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      try FileManager.default.removeItem(atPath: path)
      return seconds
    }
    var (oc, cc) = ([Double](), [Double]())
    for _ in 0..<7 {
      oc.append(try committed(original))
      cc.append(try committed(continuous))
    }
    Timing.report(
      "20 clips: extract committed to disk (fsync, as `disckit extract`), median of 7, continuous vs original",
      disckit: cc.sorted()[3], reference: oc.sorted()[3], referenceName: "original",
      bytes: continuous.size)
    print(
      String(
        format: "   opening the continuous source (join scan of 20 clips): %.1f ms", opened * 1000))
  },
]

/// A source read only through `read(at:into:)` (not extent-mapped, so copies go through user
/// space as the continuous timeline's do).
struct ReadWriteOnly: ByteSource {
  let base: any ByteSource
  var size: Int64 { base.size }
  func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(DiscKitError)
    -> Int
  {
    try base.read(at: offset, into: buffer)
  }
}

/// The least work a copy that changes every packet does: read, touch, write, no parsing.
enum RewriteFloor {
  static func copy(_ paths: [String], to destination: String) throws {
    let out = open(destination, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard out >= 0 else { throw CocoaError(.fileWriteUnknown) }
    defer {
      close(out)
      unlink(destination)
    }
    let size = 4096 * 192
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 4096)
    defer { buffer.deallocate() }
    let bytes = buffer.bindMemory(to: UInt8.self)
    for path in paths {
      let input = open(path, O_RDONLY)
      guard input >= 0 else { throw CocoaError(.fileReadNoSuchFile) }
      defer { close(input) }
      var offset: off_t = 0
      while true {
        let got = pread(input, buffer.baseAddress, size, offset)
        guard got > 0 else { break }
        for i in stride(from: 7, to: got, by: 192) {
          bytes[i] = (bytes[i] & 0xF0) | ((bytes[i] &+ 1) & 0x0F)
        }
        guard write(out, buffer.baseAddress, got) == got else {
          throw CocoaError(.fileWriteUnknown)
        }
        offset += off_t(got)
      }
    }
  }
}

/// A temporary directory for benchmark inputs, removed afterwards.
final class BenchDirectory {
  let path: String
  init() throws {
    path = NSTemporaryDirectory() + "disckit-bench-bluray-\(UUID().uuidString)"
    for sub in ["BDMV/PLAYLIST", "BDMV/CLIPINF", "BDMV/STREAM"] {
      try FileManager.default.createDirectory(
        atPath: path + "/" + sub, withIntermediateDirectories: true)
    }
  }
  deinit {
    // DISCKIT_BENCH_KEEP=1 leaves the inputs for profiling.
    if ProcessInfo.processInfo.environment["DISCKIT_BENCH_KEEP"] != nil {
      print("   (kept \(path))")
    } else {
      try? FileManager.default.removeItem(atPath: path)
    }
  }
}

enum BlurayBenchDisc {
  static func clipInfo(seconds: Int, packets: UInt32) -> ClipInformation {
    FixtureClipInformation.make(seconds: seconds, packets: packets)
  }

  static var stn: StreamNumberTable {
    var s = StreamNumberTable()
    s.video = [PlaylistStream(pid: 0x1011, codingType: 0x1B, format: 6, rate: 1)]
    s.audio = [PlaylistStream(pid: 0x1100, codingType: 0x81, format: 3, rate: 1, language: "eng")]
    return s
  }

  static func index() -> [UInt8] {
    BDMVIndex(
      firstPlay: .none, topMenu: .none,
      titles: [.init(object: .hdmv(movieObject: 0, playbackType: 0))]
    ).serialize()
  }

  /// 1000 obfuscated playlists over 20 clips plus index.bdmv/MovieObject.bdmv.
  static func writeManyPlaylists(at root: String, count: Int) throws {
    for c in 0..<20 {
      try Data(clipInfo(seconds: 400, packets: 400_000).serialize()).write(
        to: URL(fileURLWithPath: root + String(format: "/BDMV/CLIPINF/%05d.clpi", c)))
    }
    var items = (0..<20).map {
      PlayItem(
        clips: [PlayItemClip(clipID: String(format: "%05d", $0))], inTime: 27000,
        outTime: 27000 + 300 * 45000, streams: stn)
    }
    var rng = SystemRandomNumberGenerator()
    for n in 0..<count {
      items.shuffle(using: &rng)
      let marks = items.indices.map { PlaylistMark(playItemRef: UInt16($0), time: 27000) }
      try Data(MoviePlaylist(playItems: items, marks: marks).serialize()).write(
        to: URL(fileURLWithPath: root + String(format: "/BDMV/PLAYLIST/%05d.mpls", n)))
    }
    try Data(index()).write(to: URL(fileURLWithPath: root + "/BDMV/index.bdmv"))
    try Data(MovieObjectFile(objects: [.init(commands: [.playPlaylist(0)])]).serialize()).write(
      to: URL(fileURLWithPath: root + "/BDMV/MovieObject.bdmv"))
  }

  /// Two clips of null packets (valid sync bytes, so libbluray does not drop units) and a playlist of both.
  static func writeLargeTitle(
    at root: String, totalMiB: Int, timestamps: Bool = false, clips: Int = 2
  ) throws {
    let unit = 6144
    var block = [UInt8](repeating: 0xFF, count: unit * 512)  // 3 MiB of 192-byte packets
    for p in stride(from: 0, to: block.count, by: 192) {
      block[p] = 0
      block[p + 1] = 0
      block[p + 2] = 0
      block[p + 3] = 0
      block[p + 4] = 0x47
      block[p + 5] = 0x1F
      block[p + 6] = 0xFF
      block[p + 7] = 0x10
    }
    if timestamps {
      // A film-like mix: a video PES (PTS+DTS) every 40 packets, an audio PES (PTS) every 10,
      // a PCR every 20; the rest are payload continuation packets of the video PID.
      let pts: [UInt8] = [0x31, 0x00, 0x01, 0x00, 0x01]
      for (i, p) in stride(from: 0, to: block.count, by: 192).enumerated() {
        block[p + 5] = 0x10
        block[p + 6] = 0x11
        if i % 20 == 0 {
          block[p + 6] = 0x01
          block[p + 7] = 0x20
          block[p + 8] = 183
          block[p + 9] = 0x10
          for k in 0..<6 { block[p + 10 + k] = 0x11 }
        } else if i % 40 == 1 {
          block[p + 5] = 0x50
          let h: [UInt8] = [0, 0, 1, 0xE0, 0, 0, 0x80, 0xC0, 0x0A] + pts + pts
          for (k, b) in h.enumerated() { block[p + 8 + k] = b }
        } else if i % 10 == 5 {
          block[p + 5] = 0x51
          block[p + 6] = 0x00
          let h: [UInt8] = [0, 0, 1, 0xBD, 0, 0, 0x80, 0x80, 0x05] + pts
          for (k, b) in h.enumerated() { block[p + 8 + k] = b }
        }
      }
    }
    let blocksPerClip = max(1, totalMiB / max(1, clips) / 3)
    var items: [PlayItem] = []
    for c in 1...max(1, clips) {
      let id = String(format: "%05d", c)
      let path = root + "/BDMV/STREAM/\(id).m2ts"
      _ = FileManager.default.createFile(atPath: path, contents: nil)
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      for _ in 0..<blocksPerClip { try handle.write(contentsOf: block) }
      try handle.close()
      let packets = UInt32(blocksPerClip * block.count / 192)
      try Data(clipInfo(seconds: 60, packets: packets).serialize()).write(
        to: URL(fileURLWithPath: root + "/BDMV/CLIPINF/\(id).clpi"))
      items.append(
        PlayItem(
          clips: [PlayItemClip(clipID: id)], connectionCondition: c == 1 || clips != 2 ? 1 : 5,
          inTime: 27000,
          outTime: 27000 + 61 * 45000, streams: stn))
    }
    // bd_splice needs a chapter to start from.
    let marks = [PlaylistMark(playItemRef: 0, time: 27000)]
    try Data(MoviePlaylist(playItems: items, marks: marks).serialize()).write(
      to: URL(fileURLWithPath: root + "/BDMV/PLAYLIST/00001.mpls"))
    try Data(index()).write(to: URL(fileURLWithPath: root + "/BDMV/index.bdmv"))
  }
}
