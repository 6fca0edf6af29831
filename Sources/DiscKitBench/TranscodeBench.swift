import DiscKit
import DiscKitStreaming
import DiscKitTranscode
import Foundation

/// The cost of the transcoded audio renditions of the fMP4 HLS (issue 28), on the UHD bench
/// title's TrueHD 5.1 (`.bench/mkv-uhd`):
/// - the middle segment made alone as stereo AAC (one pass of the transcoder: its frames kept)
///   and as FLAC (two passes: the frames' sizes for the `moof`, then the bytes as they are
///   sent), against the same segment's copied AC-3 core (the reading and packaging every audio
///   segment costs);
/// - 64 concurrent HLS clients of a fresh `disckit-serve`, each fetching every video segment
///   and every segment of one audio rendition (the copied AC-3 core, AAC, FLAC): throughput,
///   the server's peak RSS and its CPU time.
let transcodeBenchmarks: [Benchmark] = [
  Benchmark(
    name: "hls-audio",
    summary:
      "one HLS audio segment of a TrueHD title as AAC and as FLAC vs its copied AC-3 core; 64 HLS clients with each"
  ) {
    try TranscodeBench.run()
  }
]

enum TranscodeBench {
  static func run() throws {
    let folder = try MatroskaUHDBench.prepare()
    let title = try Disc.open(path: folder).title(key: "00000")
    let plan = try FMP4Title(title: title, transcoder: LibAVAudioTranscoder())
    guard let core = plan.audio.first,
      let aac = plan.transcoded.first(where: { $0.target == .aac }),
      let flac = plan.transcoded.first(where: { $0.target == .flac })
    else {
      print("   (the bench title has no TrueHD stream with a core: skipped)")
      return
    }
    let middle = plan.segments.count / 2
    let seconds = plan.segments[middle].duration.seconds
    let copied = try Timing.best(runs: 5) {
      _ = try plan.mediaSegment(.audio(pid: core.pid), index: middle)
    }
    for (rendition, what) in [(aac, "AAC 2.0 192 kb/s"), (flac, "FLAC")] {
      var bytes = 0
      // Planned afresh each time (not from the title's plan cache), then written.
      let made = try Timing.best(runs: 5) {
        bytes = try plan.transcodedSegment(rendition, index: middle).bytes().count
      }
      Timing.report(
        String(
          format: "one %.1f s TrueHD segment as %@ (%d KiB, %.0fx real time)", seconds, what,
          bytes >> 10, seconds / made),
        disckit: made, reference: copied, referenceName: "copied AC-3 core")
    }
    try clients(folder: folder, segments: plan.segments.count, renditions: [
      ("copied AC-3 core", "audio-\(core.pid)"), ("AAC", aac.stem), ("FLAC", flac.stem),
    ])
  }

  /// 64 clients of a fresh server per rendition, each fetching every video segment and every
  /// segment of the rendition once.
  static func clients(folder: String, segments: Int, renditions: [(String, String)]) throws {
    let serve = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("disckit-serve").path
    guard FileManager.default.isExecutableFile(atPath: serve) else {
      print("   (no disckit-serve beside the bench: the 64-client numbers are skipped)")
      return
    }
    let clients = 64
    for (what, stem) in renditions {
      let server = try ServerBench.start(
        serve, [folder, "--port", "0", "--quiet", "--max-streams", "256"])
      defer {
        server.process.terminate()
        server.process.waitUntilExit()
      }
      let base = "\(server.base)/discs/\(DiscEntryID.of("."))/titles/00000/"
      _ = try ServerBench.run("/usr/bin/curl", ["-sf", base + "master.m3u8"])
      _ = try ServerBench.run("/usr/bin/curl", ["-sf", base + "fmp4/\(stem).m3u8"])
      var files = (0..<segments).map { "fmp4/video-\($0).m4s" }
      files += (0..<segments).map { "fmp4/\(stem)-\($0).m4s" }
      let all = files
      let peak = PeakSample()
      let pid = server.process.processIdentifier
      let cpuBefore = cpuSeconds(pid)
      let sampler = Thread {
        while peak.lock.withLock({ !peak.done }) {
          if let kib = ServerBench.residentKiB(pid) {
            peak.lock.withLock { peak.value = max(peak.value, kib) }
          }
          usleep(20_000)
        }
      }
      sampler.start()
      let received = PeakSample()
      let wall = Timing.best(runs: 1) {
        DispatchQueue.concurrentPerform(iterations: clients) { k in
          let order = all.indices.map { all[($0 + k * 7) % all.count] }
          var arguments = ["-s", "-w", "%{size_download}\\n"]
          for file in order { arguments += ["-o", "/dev/null", base + file] }
          let out = (try? ServerBench.run("/usr/bin/curl", arguments)) ?? ""
          let bytes = out.split(separator: "\n").compactMap { Int($0) }.reduce(0, +)
          received.lock.withLock { received.value += bytes }
        }
      }
      peak.lock.withLock { peak.done = true }
      let cpu = cpuSeconds(pid) - cpuBefore
      print(
        String(
          format:
            "   %d HLS clients, video + %@, every segment each: %.0f MB/s (%.1f s), server CPU %.1f s, peak RSS %.1f MiB",
          clients, what, Double(received.lock.withLock { received.value }) / wall / 1e6, wall,
          cpu, Double(peak.lock.withLock { peak.value }) / 1024))
    }
  }

  /// User + system CPU seconds of a process (`/proc/PID/stat`).
  static func cpuSeconds(_ pid: Int32) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return 0 }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // After the command: state is field 3, utime 14 and stime 15 (1-based in proc(5)).
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
      return 0
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}
