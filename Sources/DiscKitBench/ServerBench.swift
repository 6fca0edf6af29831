@_spi(Formats) import DiscKit
import DiscKitOutput
import Foundation

/// `disckit serve` against Debian's nginx (sendfile on) serving the same title bytes from an
/// extracted file, on loopback: one stream's throughput (curl), 16 concurrent streams' total
/// (wrk) and random 64 KiB ranges (wrk). Needs the release `disckit-serve`, nginx, curl and wrk.
let serverBenchmarks: [Benchmark] = [
  Benchmark(
    name: "serve",
    summary:
      "HTTP: one stream, 16 concurrent streams, 64 KiB ranges, 64 streams with peak RSS, of a title (DISCKIT_BENCH_SERVE_MIB, default 512) vs nginx"
  ) {
    for tool in ["/usr/sbin/nginx", "/usr/bin/curl", "/usr/bin/wrk"]
    where !FileManager.default.isExecutableFile(atPath: tool) {
      throw DiscKitError(.notFound, tool, at: nil, "not installed")
    }
    let serve = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("disckit-serve").path
    guard FileManager.default.isExecutableFile(atPath: serve) else {
      throw DiscKitError(
        .notFound, serve, at: nil, "build it: swift build -c release --product disckit-serve")
    }
    let mib = Int(ProcessInfo.processInfo.environment["DISCKIT_BENCH_SERVE_MIB"] ?? "") ?? 512
    let dir = try BenchDirectory()
    try BlurayBenchDisc.writeLargeTitle(at: dir.path, totalMiB: mib)
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: dir.path))
    let title = try disc.title(playlist: "00001.mpls")
    // nginx serves the extracted bytes of the same title.
    let web = NSTemporaryDirectory() + "disckit-bench-nginx-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: web + "/files", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: web) }
    let sink = try AtomicFileWriter(destination: web + "/files/title.m2ts", overwrite: true)
    try title.byteSource().copy(to: sink)
    try sink.commit()
    let size = title.size

    let nginxPort = try ServerBench.freePort()
    try """
    daemon off; worker_processes 2; pid \(web)/nginx.pid; error_log \(web)/error.log;
    events { worker_connections 1024; }
    http { access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;
      client_body_temp_path \(web); proxy_temp_path \(web); fastcgi_temp_path \(web);
      uwsgi_temp_path \(web); scgi_temp_path \(web);
      server { listen 127.0.0.1:\(nginxPort); root \(web)/files; } }
    """.write(toFile: web + "/nginx.conf", atomically: true, encoding: .utf8)
    let nginx = try ServerBench.launch("/usr/sbin/nginx", ["-c", web + "/nginx.conf", "-p", web])
    defer {
      nginx.terminate()
      nginx.waitUntilExit()
    }
    let server = try ServerBench.start(
      serve, [dir.path, "--port", "0", "--quiet", "--max-streams", "256"])
    defer {
      server.process.terminate()
      server.process.waitUntilExit()
    }
    let id = DiscEntryID.of(".")
    let ours = "\(server.base)/discs/\(id)/titles/00001/stream"
    let theirs = "http://127.0.0.1:\(nginxPort)/title.m2ts"
    try ServerBench.waitUntilServing(theirs)
    try ServerBench.waitUntilServing(ours)

    let oneOurs = try ServerBench.curlSeconds(ours, size: size)
    let oneTheirs = try ServerBench.curlSeconds(theirs, size: size)
    Timing.report(
      "one stream of \(size >> 20) MiB (curl)", disckit: oneOurs, reference: oneTheirs,
      referenceName: "nginx", bytes: size)
    let manyOurs = try ServerBench.wrk(ours, connections: 16, range: nil)
    let manyTheirs = try ServerBench.wrk(theirs, connections: 16, range: nil)
    print(
      String(
        format:
          "   16 concurrent streams (wrk, 5 s): disckit %.0f MB/s, nginx %.0f MB/s, ratio disckit/nginx = %.2f",
        manyOurs.bytesPerSecond / 1e6, manyTheirs.bytesPerSecond / 1e6,
        manyOurs.bytesPerSecond / manyTheirs.bytesPerSecond))
    let range = "bytes=\(size / 3)-\(size / 3 + 65535)"
    let rangesOurs = try ServerBench.wrk(ours, connections: 16, range: range)
    let rangesTheirs = try ServerBench.wrk(theirs, connections: 16, range: range)
    print(
      String(
        format:
          "   64 KiB ranges, 16 connections (wrk, 5 s): disckit %.0f req/s, nginx %.0f req/s, ratio disckit/nginx = %.2f",
        rangesOurs.requestsPerSecond, rangesTheirs.requestsPerSecond,
        rangesOurs.requestsPerSecond / rangesTheirs.requestsPerSecond))
    // 64 clients streaming the whole title for 10 s: peak resident memory of each server
    // (nginx: master and workers together), sampled every 50 ms.
    let serverPID = server.process.processIdentifier
    let (heavyOurs, peakOurs) = try ServerBench.peakResidentKiB(of: { [serverPID] }) {
      try ServerBench.wrk(ours, connections: 64, range: nil, seconds: 10)
    }
    let nginxPID = nginx.processIdentifier
    let (heavyTheirs, peakTheirs) = try ServerBench.peakResidentKiB(
      of: { [nginxPID] + ServerBench.children(of: nginxPID) }
    ) {
      try ServerBench.wrk(theirs, connections: 64, range: nil, seconds: 10)
    }
    print(
      String(
        format:
          "   64 concurrent streams (wrk, 10 s): disckit %.0f MB/s, peak RSS %d MiB; nginx %.0f MB/s, peak RSS %d MiB; RSS ratio disckit/nginx = %.2f",
        heavyOurs.bytesPerSecond / 1e6, peakOurs / 1024, heavyTheirs.bytesPerSecond / 1e6,
        peakTheirs / 1024, Double(peakOurs) / Double(max(peakTheirs, 1))))
    if let rss = ServerBench.residentKiB(serverPID) {
      print("   disckit-serve RSS after the runs: \(rss / 1024) MiB")
    }
  }
]

/// The id `disckit serve` gives a root-relative path (FNV-1a 64 of its UTF-8 bytes, 16 hex digits).
enum DiscEntryID {
  static func of(_ path: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in path.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}

/// The running maximum of a sampled value, shared with the sampling thread.
final class PeakSample: @unchecked Sendable {
  let lock = NSLock()
  var value = 0
  var done = false
}

enum ServerBench {
  static func freePort() throws -> Int {
    // Bind to port 0 with Python (no socket API in Foundation), then release it.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [
      "-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])",
    ]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    process.waitUntilExit()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw DiscKitError(.io, "port", at: nil, "no free port")
    }
    return port
  }

  static func launch(_ executable: String, _ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Starts disckit-serve and reads the URL from its first line.
  static func start(_ executable: String, _ arguments: [String]) throws -> (
    process: Process, base: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = Data()
    while !line.contains(0x0A) {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    let text = String(decoding: line, as: UTF8.self)
    guard let start = text.range(of: "http://"), let end = text.range(of: "/discs") else {
      process.terminate()
      throw DiscKitError(.io, executable, at: nil, "did not start: \(text)")
    }
    return (process, String(text[start.lowerBound..<end.lowerBound]))
  }

  static func waitUntilServing(_ url: String) throws {
    for _ in 0..<100 {
      if (try? run("/usr/bin/curl", ["-sf", "-o", "/dev/null", "-r", "0-0", url])) != nil {
        return
      }
      usleep(100_000)
    }
    throw DiscKitError(.io, url, at: nil, "not serving")
  }

  @discardableResult
  static func run(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw DiscKitError(.io, executable, at: nil, "exited with \(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// The best of 3 whole downloads with curl, seconds.
  static func curlSeconds(_ url: String, size: Int64) throws -> Double {
    var best = Double.infinity
    for _ in 0..<3 {
      let text = try run(
        "/usr/bin/curl", ["-sf", "-o", "/dev/null", "-w", "%{size_download} %{time_total}", url])
      let parts = text.split(separator: " ")
      guard parts.count == 2, Int64(parts[0]) == size, let seconds = Double(parts[1]) else {
        throw DiscKitError(.io, url, at: nil, "short download: \(text)")
      }
      best = min(best, seconds)
    }
    return best
  }

  /// The largest summed resident set (KiB) of the processes `pids` names, sampled every 50 ms
  /// while `body` runs.
  static func peakResidentKiB<T>(of pids: @escaping @Sendable () -> [Int32], _ body: () throws -> T)
    rethrows -> (T, Int)
  {
    let peak = PeakSample()
    let sampler = Thread {
      while true {
        let total = pids().compactMap(ServerBench.residentKiB).reduce(0, +)
        peak.lock.lock()
        peak.value = max(peak.value, total)
        let done = peak.done
        peak.lock.unlock()
        if done { return }
        usleep(50_000)
      }
    }
    sampler.start()
    defer {
      peak.lock.lock()
      peak.done = true
      peak.lock.unlock()
    }
    let result = try body()
    usleep(100_000)
    peak.lock.lock()
    defer { peak.lock.unlock() }
    return (result, peak.value)
  }

  /// The processes whose parent is `pid` (from /proc).
  static func children(of pid: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { name -> Int32? in
      guard let child = Int32(name),
        let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 1 && Int32(fields[1]) == pid ? child : nil
    }
  }

  /// wrk on 2 threads (5 s unless said); requests and bytes per second.
  static func wrk(_ url: String, connections: Int, range: String?, seconds: Int = 5) throws -> (
    requestsPerSecond: Double, bytesPerSecond: Double
  ) {
    var arguments = ["-t2", "-c\(connections)", "-d\(seconds)s", "--timeout", "30s"]
    if let range { arguments += ["-H", "Range: \(range)"] }
    let text = try run("/usr/bin/wrk", arguments + [url])
    func value(_ label: String) -> Double? {
      guard let line = text.split(separator: "\n").first(where: { $0.contains(label) }),
        let field = line.split(separator: " ").last
      else { return nil }
      var number = String(field)
      var scale = 1.0
      for (suffix, factor) in [("GB", 1073741824.0), ("MB", 1048576.0), ("KB", 1024.0), ("B", 1.0)]
      where number.hasSuffix(suffix) {
        number = String(number.dropLast(suffix.count))
        scale = factor
        break
      }
      return Double(number).map { $0 * scale }
    }
    guard let requests = value("Requests/sec:"), let bytes = value("Transfer/sec:") else {
      throw DiscKitError(.io, "wrk", at: nil, "unreadable output: \(text)")
    }
    if text.contains("Non-2xx") {
      throw DiscKitError(.io, "wrk", at: nil, "errors: \(text)")
    }
    return (requests, bytes)
  }

  static func residentKiB(_ pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return nil }
    return Int(line.split(separator: " ").dropFirst().first ?? "")
  }
}
