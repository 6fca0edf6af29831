import DiscKit
import DiscKitCLI
import DiscKitMedia
import DiscKitOutput
import DiscKitSubtitles
import Foundation

/// `disckit-mkv`: the helper program behind `disckit extract --format mkv` (see
/// `HelperProgram`). It is the only program that links libavformat; it runs the same command
/// line as `disckit`, with the Matroska writer plugged in. With `--text-subtitles` it also reads
/// the subtitle streams with libtesseract (DiscKitSubtitles).
@main
struct Entrypoint {
  static func main() {
    // Named temporary output files are removed on SIGINT/SIGTERM/SIGHUP.
    TemporaryFileCleanup.enableSignalHandlers()
    MatroskaExtraction.handler = { request, progress in
      var title = try MatroskaTitle(title: request.title)
      if request.textSubtitles { title.textTracks = try textTracks(of: request.title, title) }
      if let chapters = request.chapters { title = try title.chapters(chapters) }
      try MatroskaWriter.write(
        title, toPath: request.output, overwrite: request.force, progress: progress)
    }
    DiscKitCommand.main()
  }

  /// Each subtitle stream's recognised text (and its forced captions apart), timed as the
  /// Matroska file times the stream's packets (its pieces' mapping); a stream whose language has
  /// no Tesseract data is reported on stderr and left out, and so is malformed subtitle data the
  /// decoders skipped (how many parts, and the first).
  static func textTracks(of disc: DiscTitle, _ title: MatroskaTitle) throws -> [MatroskaTextTrack] {
    var out: [MatroskaTextTrack] = []
    for stream in SubtitleStreamInfo.streams(of: disc) {
      let code: String
      do {
        code = try SubtitleRecognizer.languageData(for: stream)
      } catch {
        FileHandle.standardError.write(Data("disckit: \(error) (no text track)\n".utf8))
        continue
      }
      var events: [TimedSubtitleEvent] = []
      var skipped: [DiscKitError] = []
      let decoded = try SubtitleRecognizer.events(of: disc, stream: stream, timeline: .original) {
        skipped.append($0)
      }
      if let report = SubtitleRecognizer.skippedReport(skipped, stream: stream) {
        FileHandle.standardError.write(Data("disckit: \(report)\n".utf8))
      }
      for e in decoded {
        guard
          let piece = title.pieces.first(where: {
            $0.byteStart <= e.event.offset && e.event.offset < $0.byteEnd
          })
        else { continue }
        var timed = e
        timed.start90k = piece.titleTime(ofPTS: e.event.pts90k)
        timed.end90k = e.event.endPTS90k.map { piece.titleTime(ofPTS: $0) }
        timed.pieceEnd90k =
          piece.duration90k.map { Int64(clamping: piece.titleStart90k &+ $0) } ?? Int64.max
        events.append(timed)
      }
      let cues = try SubtitleRecognizer.cues(
        events, code: code, workers: SubtitleRecognizer.defaultWorkers)
      let language = MatroskaTitle.matroskaLanguage(stream.language ?? "")
      for forced in [false, true] {
        let chosen = cues.filter { !forced || $0.forced }
        guard !chosen.isEmpty else { continue }
        out.append(
          MatroskaTextTrack(
            language: language,
            name: "\(language) (recognised text\(forced ? ", forced" : ""))", forced: forced,
            cues: chosen.map {
              MatroskaTextTrack.Cue(
                start90k: $0.startMilliseconds * 90, end90k: $0.endMilliseconds * 90,
                text: $0.lines.joined(separator: "\n"))
            }))
      }
    }
    return out
  }
}
