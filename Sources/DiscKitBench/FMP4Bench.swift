import DiscKit
import DiscKitStreaming
import Foundation

/// Issue 28's fMP4 HLS numbers on the UHD bench title (`.bench/mkv-uhd`, HEVC Main 10 HDR10 at
/// 40 Mb/s with TrueHD and its AC-3 core, `DISCKIT_BENCH_UHD_SECONDS`): the whole title as HLS
/// fMP4 (every video and audio segment, in the library) against `ffmpeg -f hls
/// -hls_segment_type fmp4 -c copy` on the same bytes (video and the AC-3 core); one segment's
/// latency from a fresh `disckit-serve` (the title's plan included) and then warm; 64 concurrent
/// HLS clients fetching every segment: throughput and the server's peak RSS.
let fmp4Benchmarks: [Benchmark] = [
  Benchmark(
    name: "hls-fmp4",
    summary:
      "UHD title as HLS fMP4 vs ffmpeg -f hls fmp4 -c copy; one segment cold; 64 HLS clients: throughput, peak RSS"
  ) {
    try FMP4Bench.run()
  }
]

enum FMP4Bench {
  static func run() throws {
    let folder = try MatroskaUHDBench.prepare()
    let title = try Disc.open(path: folder).title(key: "00000")
    let work = NSTemporaryDirectory() + "disckit-bench-fmp4-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: work) }

    // The whole title, every rendition's segments, written to files (as ffmpeg writes its own).
    var bytes: Int64 = 0
    var segments = 0
    let ours = try Timing.best(runs: 3) {
      let plan = try FMP4Title(title: title)
      bytes = 0
      var renditions: [FMP4Title.Rendition] = [.video]
      renditions += plan.audio.map { .audio(pid: $0.pid) }
      for (r, rendition) in renditions.enumerated() {
        let initBytes = try plan.initSegment(rendition)
        FileManager.default.createFile(atPath: "\(work)/r\(r)-init.mp4", contents: Data(initBytes))
        // Each segment written as a server sends it: a 128 KiB buffer at a time.
        var buffer = [UInt8](repeating: 0, count: 128 << 10)
        for k in plan.segments.indices {
          let source = try plan.segment(rendition, index: k).source
          let path = "\(work)/r\(r)-\(k).m4s"
          _ = FileManager.default.createFile(atPath: path, contents: nil)
          let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
          var offset: Int64 = 0
          while offset < source.size {
            let got = try buffer.withUnsafeMutableBytes { raw in
              try source.readFully(at: offset, into: raw)
            }
            if got == 0 { break }
            file.write(Data(buffer[0..<got]))
            offset += Int64(got)
          }
          try file.close()
          bytes += offset
        }
      }
      segments = plan.segments.count
    }
    let clip = folder + "/BDMV/STREAM/00000.m2ts"
    let ffmpeg = try Timing.best(runs: 3) {
      try Timing.tool(
        "ffmpeg",
        [
          "-nostdin", "-v", "error", "-y", "-i", clip, "-map", "0:v:0", "-map", "0:a:1", "-c",
          "copy",
          "-f", "hls", "-hls_segment_type", "fmp4", "-hls_time", "6", "-hls_playlist_type", "vod",
          "-hls_segment_filename", work + "/ff-%d.m4s", work + "/ff.m3u8",
        ])
    }
    Timing.report(
      "UHD title (\(title.size >> 20) MiB, \(segments) segments) to HLS fMP4 files",
      disckit: ours, reference: ffmpeg, referenceName: "ffmpeg", bytes: bytes)

    // The server: one segment cold (fresh process: the plan, then the segment) and warm.
    let serve = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("disckit-serve").path
    guard FileManager.default.isExecutableFile(atPath: serve) else {
      print("   (no disckit-serve beside the bench: the server numbers are skipped)")
      return
    }
    let server = try ServerBench.start(
      serve, [folder, "--port", "0", "--quiet", "--max-streams", "256"])
    defer {
      server.process.terminate()
      server.process.waitUntilExit()
    }
    let id = DiscEntryID.of(".")
    let base = "\(server.base)/discs/\(id)/titles/00000/"
    let middle = segments / 2
    func fetch(_ path: String) throws -> Double {
      Timing.best(runs: 1) {
        _ = try? ServerBench.run("/usr/bin/curl", ["-sf", "-o", "/dev/null", base + path])
      }
    }
    let cold = try fetch("fmp4/video-\(middle).m4s")
    let warm = try fetch("fmp4/video-\(max(0, middle - 1)).m4s")
    print(
      String(
        format:
          "   one video segment from a fresh disckit-serve: %.1f ms (plan included); the next: %.1f ms",
        cold * 1000, warm * 1000))

    // 64 clients, each fetching every video and audio segment of the title once.
    let master = try ServerBench.run("/usr/bin/curl", ["-sf", base + "master.m3u8"])
    var files = (0..<segments).map { "fmp4/video-\($0).m4s" }
    for line in master.split(separator: "\n") where line.hasPrefix("#EXT-X-MEDIA:") {
      if let uri = line.split(separator: "\"").first(where: { $0.hasPrefix("fmp4/audio-") }) {
        let stem = uri.dropLast(".m3u8".count)
        files += (0..<segments).map { "\(stem)-\($0).m4s" }
      }
    }
    let clients = 64
    let all = files
    let peak = PeakSample()
    let pid = server.process.processIdentifier
    let sampler = Thread {
      while peak.lock.withLock({ !peak.done }) {
        if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kib = Int(line.split(separator: " ").dropFirst().first ?? "")
        {
          peak.lock.withLock { peak.value = max(peak.value, kib) }
        }
        usleep(20_000)
      }
    }
    sampler.start()
    let total = Int64(clients) * bytes
    let wall = Timing.best(runs: 1) {
      DispatchQueue.concurrentPerform(iterations: clients) { k in
        let order = all.indices.map { all[($0 + k * 7) % all.count] }
        var arguments = ["-sf"]
        for file in order { arguments += ["-o", "/dev/null", base + file] }
        _ = try? ServerBench.run("/usr/bin/curl", arguments)
      }
    }
    peak.lock.withLock { peak.done = true }
    print(
      String(
        format:
          "   %d HLS clients, every segment each: %.0f MB/s (%.1f s), server peak RSS %.1f MiB",
        clients, Double(total) / wall / 1e6, wall, Double(peak.lock.withLock { peak.value }) / 1024)
    )
  }
}
