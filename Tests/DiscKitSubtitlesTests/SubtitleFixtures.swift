import DiscKitTestSupport
import Foundation
import Testing

/// The captions TestImages/scripts/make-subtitles.sh drew: the ground truth of the recognition
/// and timing tests (written by the generator, never by DiscKit).
struct CaptionManifest: Decodable {
  struct Caption: Decodable {
    var start: Double
    var end: Double
    var startPTS: Int64?
    var endPTS: Int64?
    var lines: [String]
    var forced: Bool
    var italic: Bool
    var font: String
    var size: Int
    var position: String
  }
  var language: String
  var captions: [Caption]

  static func load(_ path: String) throws -> CaptionManifest {
    try JSONDecoder().decode(
      CaptionManifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
  }
}

enum SubtitleFixtures {
  static let directory = Fixtures.generated("subtitles")
  static func path(_ relative: String) -> String { directory + "/" + relative }
  static var present: Bool {
    FileManager.default.fileExists(atPath: path("dvd-nolang/VIDEO_TS/VIDEO_TS.IFO"))
  }
  static let missing: Comment = "run TestImages/scripts/make-all.sh (make-subtitles.sh)"
}

/// Character error rate: edit distance between recognised and drawn text over the drawn text's
/// length (Unicode characters; whitespace collapsed, and dropped entirely for Japanese).
struct CharacterErrorRate {
  var edits = 0
  var characters = 0
  var rate: Double { characters == 0 ? 0 : Double(edits) / Double(characters) }

  static func normalise(_ lines: [String], language: String) -> [Character] {
    let joined = lines.joined(separator: " ")
    if language == "jpn" { return Array(joined.filter { !$0.isWhitespace }) }
    return Array(joined.split(whereSeparator: { $0.isWhitespace }).joined(separator: " "))
  }

  mutating func add(reference: [String], recognised: [String], language: String) {
    let a = Self.normalise(reference, language: language)
    let b = Self.normalise(recognised, language: language)
    edits += Self.distance(a, b)
    characters += a.count
  }

  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
