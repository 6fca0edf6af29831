import ArgumentParser
import DiscKit
import DiscKitCLI
import DiscKitOutput
import DiscKitSubtitles
import Foundation

/// `disckit-subtitles`: the helper program behind `disckit extract --subtitles` (see
/// `HelperProgram`). It is the only program that links libtesseract; it runs the same command
/// line as `disckit`, with the subtitle recogniser plugged in.
@main
struct Entrypoint {
  static func main() {
    // Named temporary output files are removed on SIGINT/SIGTERM/SIGHUP.
    TemporaryFileCleanup.enableSignalHandlers()
    SubtitleExtraction.handler = { request in try extract(request) }
    DiscKitCommand.main()
  }

  /// Writes one file per subtitle stream (and one per stream with forced captions) into the
  /// request's folder; a stream whose language has no Tesseract data is reported on stderr and
  /// makes the exit status 69 after the other streams are written.
  static func extract(_ request: SubtitleExtraction) throws -> [String] {
    let format: SubtitleTextFormat = request.format == .srt ? .srt : .vtt
    let streams = SubtitleStreamInfo.streams(of: request.title)
    guard !streams.isEmpty else {
      throw DiscKitError(
        .notFound, "title \(request.title.key)", at: nil, "the title has no subtitle stream")
    }
    do {
      try FileManager.default.createDirectory(
        atPath: request.directory, withIntermediateDirectories: true)
    } catch {
      throw DiscKitError(
        .cannotCreate, request.directory, at: nil, "cannot create the folder: \(error)")
    }
    var lines: [String] = []
    var missing = false
    for stream in streams {
      do {
        let track = try SubtitleRecognizer.track(
          of: request.title, stream: stream, timeline: request.timeline)
        let stem = request.directory + "/" + stream.fileStem(among: streams)
        var files = [(stem + "." + format.fileExtension, track.cues)]
        if !track.forcedCues.isEmpty {
          files.append((stem + ".forced." + format.fileExtension, track.forcedCues))
        }
        for (path, cues) in files {
          let writer = try AtomicFileWriter(destination: path, overwrite: request.force)
          do {
            try writer.write(Array(format.text(cues).utf8))
            try writer.commit()
          } catch {
            writer.abort()
            throw error
          }
          lines.append("\(path): \(cues.count) cues (subtitle stream \(stream.number))")
        }
      } catch let error as DiscKitError where error.code == .unsupported {
        FileHandle.standardError.write(Data(("disckit: " + error.description + "\n").utf8))
        missing = true
      }
    }
    for line in lines { print(line) }
    if missing { throw ExitCode(69) }
    return []
  }
}
