@_spi(Formats) import DiscKit
import Foundation

/// BD-J benchmarks: inflating a JAR.
let bdjBenchmarks: [Benchmark] = [
  Benchmark(
    name: "jar-inflate",
    summary:
      "inflate every member of a 24 MB-uncompressed JAR (Python zipfile, level 6): DiscKit's inflater vs Python's zlib"
  ) { try JARInflateBench.run() }
]

/// Builds a JAR of class-like and text members with Python's zipfile, then times reading every
/// member with ``JARArchive`` and with Python's zipfile (zlib), both warm and in memory; Python
/// times itself (its start-up is not counted).
enum JARInflateBench {
  static let python = "/usr/bin/python3"

  static func run() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "disckit-jar-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let jar = dir.appendingPathComponent("bench.jar").path
    try Timing.tool(
      python,
      [
        "-c",
        """
        import zipfile, random, sys
        r = random.Random(7)
        words = [b'bd://0.PLAYLIST:', b'%05d' % r.randrange(1000), b'.mpls', b'com/studio/menu/',
                 b'Ljava/lang/String;', b'<init>', b'\\x00\\x01', b'Xlet', b'\\n']
        with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED, compresslevel=6) as z:
            for i in range(400):
                body = b''.join(r.choice(words) for _ in range(6000))
                noise = bytes(r.getrandbits(8) for _ in range(20000))
                z.writestr('m/%d.class' % i, body + noise)
        """,
        jar,
      ])
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: jar)))
    let archive = try JARArchive(bytes: bytes)
    var total: Int64 = 0
    let disckit = try Timing.best(runs: 5) {
      total = 0
      for entry in archive.entries { total += Int64(try archive.contents(of: entry).count) }
    }
    let out = dir.appendingPathComponent("python.txt").path
    FileManager.default.createFile(atPath: out, contents: nil)
    try Timing.tool(
      python,
      [
        "-c",
        """
        import zipfile, sys, time
        data = open(sys.argv[1], 'rb').read()
        import io
        z = zipfile.ZipFile(io.BytesIO(data))
        best = 1e9
        for _ in range(5):
            t = time.perf_counter()
            for i in z.infolist():
                z.read(i)
            best = min(best, time.perf_counter() - t)
        print(best)
        """,
        jar,
      ], stdout: out)
    let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    let reference = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
    print("   JAR \(bytes.count) bytes, \(archive.entries.count) members, \(total) bytes inflated")
    Timing.report(
      "read every member", disckit: disckit, reference: reference,
      referenceName: "python-zipfile", bytes: total)
  }
}
