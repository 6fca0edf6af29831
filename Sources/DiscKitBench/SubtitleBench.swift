import DiscKit
import DiscKitSubtitles
import Foundation

let subtitleBenchmarks: [Benchmark] = [
  Benchmark(
    name: "subtitles",
    summary:
      "PGS recognition (DiscKitSubtitles, libtesseract) vs whole-file OCR with the tesseract command on the same bitmaps"
  ) {
    try SubtitleBench.run()
  }
]

/// Recognition speed on the generated captions (TestImages/generated/subtitles/sup, 1920x1080,
/// 12 captions per language): DiscKit's decoder, preparation and libtesseract, one worker (per
/// core) and every core; the reference is what PgsToSrt-style tools do, Tesseract over each
/// display set's bitmap, here the `tesseract` command run once over a list of the same bitmaps
/// (written as PGM, the subtitle's pixels over black) with `--psm 6`.
enum SubtitleBench {
  static let directory =
    FileManager.default.currentDirectoryPath + "/TestImages/generated/subtitles/sup"
  /// Captions with text in a 2-hour feature (subtitle tracks of feature films hold 1200-1800).
  static let captionsPerFeature = 1500.0

  struct Manifest: Decodable {
    struct Caption: Decodable { var lines: [String] }
    var captions: [Caption]
  }

  static func run() throws {
    for language in ["eng", "jpn"] {
      let sup = directory + "/\(language).sup"
      guard let data = FileManager.default.contents(atPath: sup) else {
        print("   skipped: \(sup) missing (make images)")
        return
      }
      let manifest = try JSONDecoder().decode(
        Manifest.self,
        from: FileManager.default.contents(atPath: directory + "/\(language).json") ?? Data())
      let events = try PGSDecoder.events(supFile: [UInt8](data)).filter { !$0.bitmaps.isEmpty }
      let pictures = events.flatMap(\.bitmaps)
      var texts: [[String]] = []
      let one = try Timing.best(runs: 2) {
        texts = try SubtitleRecognizer.recognize(pictures, code: language, workers: 1).map(\.lines)
      }
      let cores = SubtitleRecognizer.defaultWorkers
      let all = try Timing.best(runs: 2) {
        _ = try SubtitleRecognizer.recognize(pictures, code: language, workers: cores)
      }
      // The reference: the same bitmaps as PGM files, one tesseract run over the list.
      let work = FileManager.default.temporaryDirectory.appendingPathComponent(
        "disckit-subtitle-bench-\(getpid())")
      try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: work) }
      var list = ""
      for (i, b) in pictures.enumerated() {
        var pgm = Array("P5\n\(b.width) \(b.height)\n255\n".utf8)
        for p in 0..<(b.width * b.height) {
          pgm.append(UInt8((Int(b.luma[p]) * Int(b.alpha[p])) / 255))
        }
        let path = work.appendingPathComponent("\(i).pgm").path
        FileManager.default.createFile(atPath: path, contents: Data(pgm))
        list += path + "\n"
      }
      let listPath = work.appendingPathComponent("list.txt").path
      FileManager.default.createFile(atPath: listPath, contents: Data(list.utf8))
      let outBase = work.appendingPathComponent("out").path
      let reference = try Timing.best(runs: 2) {
        try Timing.tool(
          "tesseract", [listPath, outBase, "-l", language, "--psm", "6"],
          stdout: "/dev/null")
      }
      let referenceText = (try? String(contentsOfFile: outBase + ".txt", encoding: .utf8)) ?? ""
      let referencePages = referenceText.split(
        separator: "\u{0C}", omittingEmptySubsequences: false
      )
      .map { $0.split(separator: "\n").map(String.init) }
      let ours = errorRate(manifest.captions.map(\.lines), texts, language)
      let theirs = errorRate(manifest.captions.map(\.lines), referencePages, language)
      let n = Double(pictures.count)
      print(
        String(
          format:
            "   %@: %d display sets: %.1f display sets/s per core (%d cores: %.1f/s); a 2-hour title's track (%.0f captions) %.0f s of OCR on %d cores",
          language, pictures.count, n / one, cores, n / all, captionsPerFeature,
          captionsPerFeature / (n / all), cores))
      Timing.report(
        "\(language) OCR, one worker", disckit: one, reference: reference,
        referenceName: "tesseract-cli")
      print(
        String(
          format: "   %@ character error rate: disckit %.2f %%, tesseract command %.2f %%",
          language,
          ours * 100, theirs * 100))
    }
  }

  /// Character error rate (whitespace dropped) of `got` against `want`, caption by caption.
  static func errorRate(_ want: [[String]], _ got: [[String]], _ language: String) -> Double {
    var edits = 0
    var total = 0
    for (i, w) in want.enumerated() {
      let a = Array(w.joined().filter { !$0.isWhitespace })
      let b = Array((i < got.count ? got[i] : []).joined().filter { !$0.isWhitespace })
      total += a.count
      var previous = Array(0...b.count)
      for x in 1...max(1, a.count) where !a.isEmpty {
        var current = [x] + Array(repeating: 0, count: b.count)
        for y in stride(from: 1, through: b.count, by: 1) {
          current[y] = min(
            previous[y] + 1, current[y - 1] + 1, previous[y - 1] + (a[x - 1] == b[y - 1] ? 0 : 1))
        }
        previous = current
      }
      edits += a.isEmpty ? b.count : previous[b.count]
    }
    return total == 0 ? 0 : Double(edits) / Double(total)
  }
}
