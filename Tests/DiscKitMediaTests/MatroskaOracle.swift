import DiscKitTestSupport
import Foundation
import Testing

/// What the reference tools say about a Matroska file (mkvmerge -J, ffprobe, ffmpeg), and about
/// the discs it was made from (bd_list_titles, the iso-codes language tables).
struct MatroskaOracle {
  struct Track: Equatable, CustomStringConvertible {
    var type: String
    var codecID: String
    var language: String
    var isDefault: Bool
    var bitsPerSample: Int?
    var description: String {
      "\(type) \(codecID) \(language)\(isDefault ? " default" : "")"
        + (bitsPerSample.map { " \($0)-bit" } ?? "")
    }
  }

  var tracks: [Track] = []
  /// mkvmerge's container duration, in seconds.
  var duration: Double = 0
  var title: String?
  var chapterCount = 0
  /// ffprobe's streams: (codec_type, language tag).
  var ffprobeStreams: [(type: String, language: String)] = []
  /// ffprobe's chapter start times, in seconds.
  var chapterStarts: [Double] = []

  static let tools = ["mkvmerge", "ffprobe", "ffmpeg"]
  static var available: Bool { tools.allSatisfy(Tool.has) }

  static func read(_ path: String) throws -> MatroskaOracle {
    var oracle = MatroskaOracle()
    let merge = try Tool.run("mkvmerge", ["-J", path])
    let json = try #require(try JSONSerialization.jsonObject(with: merge.stdout) as? [String: Any])
    let container = try #require(json["container"] as? [String: Any])
    #expect(container["type"] as? String == "Matroska", "mkvmerge identifies \(path)")
    let properties = container["properties"] as? [String: Any] ?? [:]
    oracle.duration = Double(properties["duration"] as? Int ?? 0) / 1e9
    oracle.title = properties["title"] as? String
    oracle.chapterCount =
      (json["chapters"] as? [[String: Any]])?.reduce(0) { $0 + ($1["num_entries"] as? Int ?? 0) }
      ?? 0
    for track in json["tracks"] as? [[String: Any]] ?? [] {
      let p = track["properties"] as? [String: Any] ?? [:]
      oracle.tracks.append(
        Track(
          type: track["type"] as? String ?? "?", codecID: p["codec_id"] as? String ?? "?",
          language: p["language"] as? String ?? "und",
          isDefault: p["default_track"] as? Bool ?? false,
          bitsPerSample: p["audio_bits_per_sample"] as? Int))
    }
    let probe = try Tool.run(
      "ffprobe", ["-v", "error", "-of", "json", "-show_streams", "-show_chapters", path])
    let pjson = try #require(try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any])
    for stream in pjson["streams"] as? [[String: Any]] ?? [] {
      let tags = stream["tags"] as? [String: Any] ?? [:]
      oracle.ffprobeStreams.append(
        (stream["codec_type"] as? String ?? "?", tags["language"] as? String ?? "und"))
    }
    for chapter in pjson["chapters"] as? [[String: Any]] ?? [] {
      oracle.chapterStarts.append(Double(chapter["start_time"] as? String ?? "") ?? -1)
    }
    return oracle
  }

  /// The lines `ffmpeg -v warning -i FILE -f null -` prints about timestamps while decoding
  /// every video and audio stream (subtitle packets are passed through: the null muxer has no
  /// subtitle encoder; ffprobe -show_frames decodes them in the subtitle tests).
  static func timestampWarnings(_ path: String) throws -> [String] {
    let run = try Tool.run(
      "ffmpeg",
      ["-nostdin", "-v", "warning", "-i", path, "-map", "0", "-c:s", "copy", "-f", "null", "-"])
    #expect(run.status == 0, "ffmpeg decodes \(path): \(run.stderr)")
    return run.stderr.split(separator: "\n").map(String.init).filter { line in
      let l = line.lowercased()
      return l.contains("timestamp") || l.contains("dts") || l.contains("pts")
        || l.contains("monoton") || l.contains("discontinu")
    }
  }

  /// Where the first picture of the first video track of `path` plays (seconds; ffprobe's
  /// `start_time`): a title's lead, the time its audio starts before its first picture (0 when it
  /// does not; chapters after the first and every track move by it, see
  /// `MatroskaAudioFramesTests`).
  static func lead(_ path: String) throws -> Double {
    let run = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=start_time", "-of",
        "default=nk=1:nw=1", path,
      ])
    let lead = Double(run.text.trimmingCharacters(in: .whitespacesAndNewlines))
    #expect(lead.map { $0 >= 0 && $0 < 1 } == true, "lead of \(path): \(run.text)")
    return lead ?? 0
  }

  /// A chapter start expected in a file with `lead` (seconds): a chapter at the title's start
  /// stays at 0 (it holds the lead-in audio); the others move with the pictures.
  static func chapterStart(_ start: Double, lead: Double) -> Double {
    start == 0 ? 0 : start + lead
  }

  /// ffmpeg's per-frame hashes of the decoded video of each file, concatenated.
  static func videoFrameHashes(_ paths: [String]) throws -> [String] {
    try paths.flatMap { path in
      let run = try Tool.run(
        "ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-f", "framemd5", "-"])
      return run.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
        $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
      }
    }
  }

  /// The decoded samples (32-bit little-endian) of audio stream `index` of each file,
  /// concatenated.
  static func audioSamples(_ paths: [String], stream index: Int) throws -> Data {
    var data = Data()
    for path in paths {
      let run = try Tool.run(
        "ffmpeg",
        ["-nostdin", "-v", "error", "-i", path, "-map", "0:a:\(index)", "-f", "s32le", "-"])
      data.append(run.stdout)
    }
    return data
  }

  /// libbluray's audio languages of each title (`bd_list_titles -l`), by playlist file name.
  static func libblurayAudioLanguages(_ folder: String) throws -> [String: [String]] {
    try libblurayLanguages(folder, line: "AUD:")
  }

  /// libbluray's languages of one stream kind (`AUD:`, `PG :`) of each title
  /// (`bd_list_titles -l`), by playlist file name.
  static func libblurayLanguages(_ folder: String, line prefix: String) throws -> [String: [String]]
  {
    let run = try Tool.run("bd_list_titles", ["-a", "-l", folder])
    var result: [String: [String]] = [:]
    var current: String?
    for line in run.text.split(separator: "\n") {
      if let range = line.range(of: "(playlist: ") {
        current = String(line[range.upperBound...].prefix(while: { $0 != ")" }))
      } else if let current, line.trimmingCharacters(in: .whitespaces).hasPrefix(prefix) {
        result[current] =
          line.split(separator: ":", maxSplits: 1).last.map {
            $0.split(separator: " ").map(String.init)
          } ?? []
      }
    }
    return result
  }

  /// ISO 639 codes in the form Matroska stores (ISO 639-2/B), from the iso-codes tables:
  /// `fra` and `fr` both become `fre`.
  static func bibliographic(_ code: String) throws -> String {
    let entries = try isoCodes()
    let lower = code.lowercased()
    let entry = entries.first {
      $0["alpha_3"] == lower || $0["alpha_2"] == lower || $0["bibliographic"] == lower
    }
    return entry.map { $0["bibliographic"] ?? $0["alpha_3"] ?? lower } ?? lower
  }

  static let isoCodesPath = "/usr/share/iso-codes/json/iso_639-2.json"
  private static func isoCodes() throws -> [[String: String]] {
    let data = try Data(contentsOf: URL(fileURLWithPath: isoCodesPath))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return json["639-2"] as? [[String: String]] ?? []
  }
}
