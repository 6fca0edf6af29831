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
    let arguments = Array(CommandLine.arguments.dropFirst())
    if let mode = arguments.first, mode == "hls-streams" || mode == "hls-cues" {
      exit(ServerMode.run(arguments))
    }
    DiscKitCommand.main()
  }

  /// Writes one file per subtitle stream (and one per stream with forced captions) into the
  /// request's folder; a stream whose language has no Tesseract data is reported on stderr and
  /// makes the exit status 69 after the other streams are written. Malformed subtitle data the
  /// decoders skipped is reported on stderr (how many errors, and the first).
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
        var skipped: [DiscKitError] = []
        let track = try SubtitleRecognizer.track(
          of: request.title, stream: stream, timeline: request.timeline
        ) { skipped.append($0) }
        if let report = SubtitleRecognizer.skippedReport(skipped, stream: stream) {
          FileHandle.standardError.write(Data("disckit: \(report)\n".utf8))
        }
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

/// What `disckit serve` asks of this helper for the WebVTT renditions of its HLS (the server
/// links no libtesseract; see `SubtitleHelperProvider` in DiscKitStreaming). Not a user command:
/// a line protocol between two programs of the same build.
///
///     disckit-subtitles hls-streams IMAGE KEY ANGLE
///         one line per subtitle stream of the title, tab-separated: id (decimal), number,
///         language (`-` when none), 1 when the DVD marks the whole stream forced (else 0), and
///         `ok` or `unavailable: <why, and the package to install>`
///     disckit-subtitles hls-cues IMAGE KEY ANGLE ID [--exit-with-stdin]
///         the stream's cues on the continuous timeline, from the subtitle cache or recognised
///         (and then cached): WebVTT whose forced cues have the identifier `forced`
///         (`SubtitleCache.encode`); runs at a lower priority (nice 10); with
///         `--exit-with-stdin`, ends (removing its temporary files) when its standard input
///         closes, that is when the server that started it is gone; when it recognised the
///         stream and skipped malformed subtitle data, one line on stderr says so (the server
///         logs it as a warning)
///
/// Exit status: 0; 64 for a bad command line; DiscKit's error code's status otherwise (65 for a
/// language without Tesseract data), with one line on stderr.
enum ServerMode {
  static func run(_ arguments: [String]) -> Int32 {
    let mode = arguments[0]
    var rest = Array(arguments.dropFirst())
    let watch = rest.last == "--exit-with-stdin"
    if watch { rest.removeLast() }
    let wanted = mode == "hls-streams" ? 3 : 4
    guard rest.count == wanted, let angle = Int(rest[2]), (1...9).contains(angle),
      wanted == 3 || Int(rest[3]) != nil
    else {
      fail("usage: disckit-subtitles hls-streams IMAGE KEY ANGLE | hls-cues IMAGE KEY ANGLE ID")
      return 64
    }
    do {
      let title = try Disc.open(path: rest[0]).title(key: rest[1], angle: angle)
      let streams = SubtitleStreamInfo.streams(of: title)
      if mode == "hls-streams" {
        var out = ""
        for stream in streams {
          var status = "ok"
          do {
            _ = try SubtitleRecognizer.languageData(for: stream)
          } catch {
            status = "unavailable: \(error)"
          }
          let language = stream.language.map { $0.isEmpty ? "-" : $0 } ?? "-"
          out +=
            "\(stream.id)\t\(stream.number)\t\(language)\t\(stream.forcedStream ? 1 : 0)\t\(status)\n"
        }
        FileHandle.standardOutput.write(Data(out.utf8))
        return 0
      }
      guard let id = Int(rest[3]), let stream = streams.first(where: { $0.id == id }) else {
        throw DiscKitError(
          .notFound, "subtitle stream \(rest[3])", at: nil, "the title has no such stream")
      }
      if watch { exitWhenStandardInputCloses() }
      _ = nice(10)
      var skipped: [DiscKitError] = []
      let track = try SubtitleCache().track(of: title, stream: stream, timeline: .continuous) {
        skipped.append($0)
      }
      // The server logs what the helper writes to stderr when it succeeds as a warning.
      if let report = SubtitleRecognizer.skippedReport(skipped, stream: stream) {
        fail("disckit-subtitles: " + report)
      }
      FileHandle.standardOutput.write(Data(SubtitleCache.encode(track.cues).utf8))
      return 0
    } catch let error as DiscKitError {
      fail("disckit-subtitles: " + error.description)
      return error.code.exitCode
    } catch {
      fail("disckit-subtitles: \(error)")
      return 1
    }
  }

  static func fail(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  /// A thread reading standard input to its end, then SIGTERM to this process (whose handlers
  /// remove the temporary files, see `TemporaryFileCleanup`).
  static func exitWhenStandardInputCloses() {
    Thread.detachNewThread {
      var byte: UInt8 = 0
      while read(0, &byte, 1) > 0 {}
      kill(getpid(), SIGTERM)
    }
  }
}
