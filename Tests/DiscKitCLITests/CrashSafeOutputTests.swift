import DiscKitTestSupport
import Foundation
import Testing

/// What `disckit cat -o` leaves when it fails or is killed: nothing under the final name, no
/// temporary file, one error line. Runs the built binary on a folder "disc" holding one sparse
/// file. Both output strategies are checked: the default (an unnamed O_TMPFILE file on Linux) and
/// the named fallback (`DISCKIT_OUTPUT_TMPFILE=0`).
@Suite("Crash-safe output", .toolThreads)
struct CrashSafeOutputTests {
  static let binary = EndToEndTests.binary
  static let ready = EndToEndTests.haveBinary && Tool.has("python3")
  static let notReady = Comment(rawValue: "needs the built disckit and python3")
  /// The environment of each strategy.
  static let strategies: [[String: String]] = [[:], ["DISCKIT_OUTPUT_TMPFILE": "0"]]
  /// Private mount namespaces (root, or user namespaces) for a small tmpfs.
  static let canMountTmpfs: Bool = {
    guard Tool.has("unshare") else { return false }
    let probe = try? Tool.run(
      "unshare", ["-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt && umount /mnt"])
    return probe?.status == 0
  }()

  /// A folder disc with `/big.bin`, a sparse file of `size` bytes.
  static func folderDisc(_ dir: TemporaryDirectory, size: Int64) throws -> String {
    let disc = dir.file("disc")
    try FileManager.default.createDirectory(atPath: disc, withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: disc + "/big.bin", contents: nil))
    let handle = try #require(FileHandle(forWritingAtPath: disc + "/big.bin"))
    try handle.truncate(atOffset: UInt64(size))
    // A few non-zero bytes so the copy is not all holes.
    try handle.seek(toOffset: 0)
    handle.write(Data(repeating: 0x5A, count: 4096))
    try handle.close()
    return disc
  }

  static func names(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  @Test(
    "no space left (a 1 MiB tmpfs): exit 74, one line, nothing in the directory",
    .enabled(if: ready, notReady),
    .enabled(if: canMountTmpfs, "cannot mount a tmpfs in a private mount namespace here"),
    arguments: strategies)
  func noSpace(environment: [String: String]) throws {
    let dir = try TemporaryDirectory()
    let disc = try Self.folderDisc(dir, size: 4 << 20)
    let mountPoint = dir.file("full")
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
    // The listing happens inside the namespace, where the tmpfs is mounted.
    let script = """
      mount -t tmpfs -o size=1m tmpfs "$1" || exit 99
      "$2" cat "$3" /big.bin -o "$1/out.bin"; status=$?
      ls -A "$1"; exit $status
      """
    let run = try Tool.run(
      "unshare", ["-rm", "sh", "-c", script, "sh", mountPoint, Self.binary, disc],
      environment: environment)
    #expect(run.status == 74, "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
    #expect(run.stderr.contains("no space left"))
    #expect(run.text.trimmingCharacters(in: .whitespacesAndNewlines) == "", "left: \(run.text)")
  }

  @Test(
    "the file size limit (prlimit --fsize): exit 74, one line, nothing in the directory",
    .enabled(if: ready && Tool.has("prlimit"), "needs the built disckit and prlimit"),
    arguments: strategies)
  func fileSizeLimit(environment: [String: String]) throws {
    let dir = try TemporaryDirectory()
    let disc = try Self.folderDisc(dir, size: 4 << 20)
    let out = dir.file("out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let run = try Tool.run(
      "prlimit", ["--fsize=1000000", Self.binary, "cat", disc, "/big.bin", "-o", out + "/out.bin"],
      environment: environment)
    #expect(run.status == 74, "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
    #expect(run.stderr.contains("file size limit"))
    #expect(Self.names(out) == [])
  }

  /// Starts `disckit cat` of a large sparse file into `out/out.bin`. A child of the test process
  /// inherits its threads' blocked signals (SIGINT and SIGTERM included), so it is started through
  /// python3, which clears the mask and execs disckit in place (same process id), as a shell would.
  static func startCopy(disc: String, out: String, environment: [String: String]) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(Tool.find("python3")))
    process.arguments = [
      "-c",
      "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
      binary, "cat", disc, "/big.bin", "-o", out + "/out.bin",
    ]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Waits (up to a minute, polling) until `condition` holds or the process ends.
  static func waitUntil(_ process: Process, _ condition: () -> Bool) -> Bool {
    for _ in 0..<6000 {
      if condition() { return true }
      if !process.isRunning { return condition() }
      usleep(10_000)
    }
    return false
  }

  #if os(Linux)
    @Test(
      "SIGKILL mid-write leaves nothing at all (the unnamed O_TMPFILE output)",
      .enabled(if: ready, notReady))
    func killedLeavesNothing() throws {
      let dir = try TemporaryDirectory()
      let disc = try Self.folderDisc(dir, size: 8 << 30)
      let out = dir.file("out")
      try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
      let process = try Self.startCopy(disc: disc, out: out, environment: [:])
      // The writer's descriptor shows up in /proc as an unnamed file of the output directory.
      let writing = Self.waitUntil(process) {
        let fds = "/proc/\(process.processIdentifier)/fd"
        return Self.names(fds).contains { fd in
          let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + fd))
          return target?.hasPrefix(out + "/") == true
        }
      }
      try #require(writing, "the copy finished before it could be killed")
      #expect(Self.names(out) == [], "an unnamed file has no entry while it is written")
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal)
      #expect(Self.names(out) == [])
    }
  #endif

  @Test(
    "SIGINT/SIGTERM mid-write with the named fallback: the temporary file is removed",
    .enabled(if: ready, notReady), arguments: [SIGINT, SIGTERM])
  func interruptedFallbackCleansUp(signal: Int32) throws {
    let dir = try TemporaryDirectory()
    let disc = try Self.folderDisc(dir, size: 8 << 30)
    let out = dir.file("out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let process = try Self.startCopy(
      disc: disc, out: out, environment: ["DISCKIT_OUTPUT_TMPFILE": "0"])
    let writing = Self.waitUntil(process) {
      Self.names(out).contains { $0.hasPrefix(".out.bin.disckit-partial-\(process.processIdentifier)-") }
    }
    try #require(writing, "the copy finished before it could be interrupted")
    let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
    let masks = status.split(separator: "\n").filter { $0.hasPrefix("Sig") }.joined(separator: " ")
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal, "\(masks)")
    #expect(process.terminationStatus == signal)
    #expect(Self.names(out) == [])
  }
}
