import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitStreaming

/// What the streaming core does itself since it links no Foundation (issue 29): `%.Nf` text for
/// EXTINF, frame rates and start times, and running the subtitle helper.
@Suite("Streaming core without Foundation", .toolThreads)
struct FoundationFreeTests {
  /// `fixed(N)` equals Python's `'%.*f'` (correctly rounded on the binary value, ties to even, as
  /// glibc's printf) on HLS durations, frame rates, ties, tiny and large values.
  @Test(.enabled(if: Tool.has("python3"), "needs python3"))
  func fixedDecimalsArePrintfs() throws {
    var values: [Double] = [
      0, -0.0, 6.006, 5.005, 9.6, 0.5, 1.5, 2.5, 0.125, 0.375, 2.675, 1e-7, 123_456.789_005, 1e20,
      24_000.0 / 1001, 30_000.0 / 1001, 60_000.0 / 1001, 59.94, 23.976, -1.5, 4_503_599_627_370_497,
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<200 { values.append(Double.random(in: 0..<20_000, using: &generator)) }
    let digits = [0, 1, 3, 5, 6]
    var cases: [(Double, Int)] = []
    for value in values { for d in digits { cases.append((value, d)) } }
    let script =
      "import sys\nfor line in sys.stdin:\n  v, d = line.split()\n  print('%.*f' % (int(d), float(v)))\n"
    let input = cases.map { "\($0.0) \($0.1)" }.joined(separator: "\n") + "\n"
    let run = try Tool.run("python3", ["-c", script], stdin: Data(input.utf8))
    let expected = run.text.split(separator: "\n").map(String.init)
    #expect(expected.count == cases.count)
    for (index, (value, d)) in cases.enumerated() where index < expected.count {
      #expect(value.fixed(d) == expected[index], "\(value) with \(d) decimals")
    }
  }

  /// The helper runner gives back what the program wrote on each stream, byte for byte, and its
  /// exit status; more than a pipe holds on both streams at once does not block it.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh"), "needs /bin/sh"))
  func childProcessKeepsBothStreams() throws {
    let small = try ChildProcess.run(
      "/bin/sh", ["-c", "printf 'out\\nput'; printf 'err' >&2; exit 3"])
    #expect(small.output == Array("out\nput".utf8))
    #expect(small.errors == Array("err".utf8))
    #expect(small.status == 3)
    let big = try ChildProcess.run(
      "/bin/sh", ["-c", "head -c 300001 /dev/zero; head -c 200003 /dev/zero >&2; seq 1 20000"])
    let sequence = (1...20_000).map { "\($0)\n" }.joined()
    #expect(big.output.count == 300_001 + sequence.utf8.count)
    #expect(Array(big.output.suffix(sequence.utf8.count)) == Array(sequence.utf8))
    #expect(big.errors.count == 200_003 && big.status == 0)
    let killed = try ChildProcess.run("/bin/sh", ["-c", "kill -TERM $$"])
    #expect(killed.status == 128 + 15)
    #expect(throws: ChildProcessError.self) {
      try ChildProcess.run("/nonexistent/disckit-subtitles", [])
    }
  }

  /// A program file still open for writing cannot be run (ETXTBSY): the runner tries again for a
  /// bounded time, then reports it; once the writer has closed it, it runs. (A stand-in helper a
  /// test has just written can be held open for a moment by a child another test started.)
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh"), "needs /bin/sh"))
  func aProgramOpenForWritingIsReportedThenRuns() throws {
    let dir = try TemporaryDirectory("disckit-child-process")
    let path = dir.path + "/helper.sh"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    #expect(fd >= 0)
    let script = Array("#!/bin/sh\necho ran\n".utf8)
    #expect(write(fd, script, script.count) == script.count)
    #expect {
      try ChildProcess.run(path, [])
    } throws: { error in
      (error as? ChildProcessError)?.errno == ETXTBSY
    }
    close(fd)
    let ran = try ChildProcess.run(path, [])
    #expect(ran.output == Array("ran\n".utf8) && ran.status == 0)
  }
}
