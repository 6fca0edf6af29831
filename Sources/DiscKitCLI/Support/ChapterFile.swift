import DiscKit
import DiscKitOutput

/// Chapter lists written beside an extracted title, for muxers.
enum ChapterFile {
  /// One chapter: start and end in 90 kHz ticks from the start of the extracted stream.
  struct Chapter: Equatable {
    var start90k: Int64
    var end90k: Int64
    var title: String
  }

  /// FFmpeg's metadata format (`;FFMETADATA1`), read by `ffmpeg -i title.m2ts -i chapters.txt
  /// -map_metadata 1 -c copy title.mkv`.
  static func ffmetadata(_ chapters: [Chapter]) -> String {
    var text = ";FFMETADATA1\n"
    for chapter in chapters {
      text += "\n[CHAPTER]\nTIMEBASE=1/90000\nSTART=\(chapter.start90k)\nEND=\(chapter.end90k)\n"
      text += "title=\(escape(chapter.title))\n"
    }
    return text
  }

  /// `chapters` (title times) re-based on the first chapter of `range` (1-based, inclusive), as
  /// the extracted stream starts there.
  static func rebased(
    starts: [Int64], durations: [Int64], range: ClosedRange<Int>?
  ) -> [Chapter] {
    guard !starts.isEmpty else { return [] }
    let selected = range ?? 1...starts.count
    guard selected.lowerBound >= 1, selected.upperBound <= starts.count else { return [] }
    let origin = starts[selected.lowerBound - 1]
    return selected.map { n in
      Chapter(
        start90k: starts[n - 1] - origin, end90k: starts[n - 1] + durations[n - 1] - origin,
        title: "Chapter \(n)")
    }
  }

  /// Writes `text` atomically to `path` (`--force` to replace).
  static func write(_ text: String, to path: String, overwrite: Bool) throws(DiscKitError) {
    let writer = try AtomicFileWriter(destination: path, overwrite: overwrite)
    try writer.write(Array(text.utf8))
    try writer.commit()
  }

  private static func escape(_ value: String) -> String {
    var out = ""
    for character in value {
      if "=;#\\\n".contains(character) { out.append("\\") }
      out.append(character)
    }
    return out
  }
}
