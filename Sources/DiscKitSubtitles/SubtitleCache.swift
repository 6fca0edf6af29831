@_spi(Formats) import DiscKit
import DiscKitOutput
import Foundation

/// Recognised subtitle text kept on disk, so that a stream is read with Tesseract once per disc.
///
/// Where: `$XDG_CACHE_HOME/disckit/subtitles` (else `~/.cache/disckit/subtitles`), one folder per
/// title content identity, one WebVTT file per stream and timeline:
///
///     <directory>/<identity>/<title key>-a<angle>-<timeline>-<stream id in hex>.vtt
///
/// The identity (``identity(of:)``) is a digest of what the text depends on, not of where the
/// disc lies: the title's pieces (byte ranges, times), its size and duration, 64 KiB of its bytes
/// at the start, the middle and the end, the recogniser's format version and libtesseract's
/// version. A moved or copied image keeps its cache; another disc, another title or a new
/// Tesseract gets another. Forced cues carry the cue identifier `forced`. Files are written
/// atomically (DiscKitOutput), so a reader never sees half a file; delete the folder to forget.
public struct SubtitleCache: Sendable {
  /// The folder holding the identities' folders.
  public var directory: String

  /// A cache in `directory` (default: ``defaultDirectory``).
  public init(directory: String = SubtitleCache.defaultDirectory) {
    self.directory = directory
  }

  /// `$XDG_CACHE_HOME/disckit/subtitles`, else `$HOME/.cache/disckit/subtitles`.
  public static var defaultDirectory: String {
    let env = ProcessInfo.processInfo.environment
    if let xdg = env["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/disckit/subtitles" }
    return (env["HOME"] ?? NSTemporaryDirectory()) + "/.cache/disckit/subtitles"
  }

  /// The recogniser's output format; a change makes new identities.
  static let formatVersion = "1"

  /// The content identity of `title` (32 hex digits).
  public static func identity(of title: DiscTitle) throws(DiscKitError) -> String {
    var a = FNV(seed: 0xcbf2_9ce4_8422_2325)
    var b = FNV(seed: 0x8422_2325_cbf2_9ce4)
    func add(_ s: String) {
      a.add(Array(s.utf8))
      b.add(Array(s.utf8))
    }
    add("disckit-subtitles \(formatVersion) tesseract \(TesseractEngine.version)")
    add(
      "\(title.isTransportStream) \(title.key) \(title.angle) \(title.size) \(title.duration.ticks)"
    )
    switch title.content {
    case .bluray(let t):
      for c in t.clips {
        add(
          "\(c.streamFileName) \(c.inTime) \(c.outTime) \(c.titleTime) \(c.startPacket) \(c.endPacket)"
        )
      }
    case .dvd(let t, _):
      for c in t.cells(angle: title.angle) {
        add("\(c.programChain) \(c.cell) \(c.playback.firstSector) \(c.playback.lastSector)")
      }
      add(t.firstProgramChain.palette.map { String($0, radix: 16) }.joined(separator: ","))
    }
    let source = try title.byteSource()
    let sample: Int64 = 65536
    for at in [0, source.size / 2, max(0, source.size - sample)] {
      let count = Int(min(sample, max(0, source.size - at)))
      guard count > 0 else { continue }
      let bytes = try source.bytes(at: at, count: count, structure: "title \(title.key)")
      a.add(bytes)
      b.add(bytes)
    }
    return a.hex + b.hex
  }

  /// The file holding `stream`'s cues of `title` on `timeline`.
  public func path(
    identity: String, title: DiscTitle, stream: SubtitleStreamInfo, timeline: TitleTimeline
  ) -> String {
    directory + "/" + identity + "/" + title.key + "-a\(title.angle)-" + timeline.rawValue + "-"
      + String(stream.id, radix: 16) + ".vtt"
  }

  /// The cached cues of `stream`, or `nil` when they have not been recognised yet.
  public func cachedTrack(
    of title: DiscTitle, stream: SubtitleStreamInfo, timeline: TitleTimeline = .continuous
  ) throws(DiscKitError) -> SubtitleTrack? {
    let file = path(
      identity: try Self.identity(of: title), title: title, stream: stream, timeline: timeline)
    guard let data = FileManager.default.contents(atPath: file) else { return nil }
    return SubtitleTrack(stream: stream, cues: Self.decode(String(decoding: data, as: UTF8.self)))
  }

  /// The cues of `stream` of `title` on `timeline`: from the cache when there, else recognised
  /// (``SubtitleRecognizer/track(of:stream:timeline:workers:skipped:)``) and stored.
  ///
  /// - Parameter skipped: given each error of the malformed subtitle data skipped while
  ///   recognising (a cached track was reported when it was recognised).
  ///
  /// - Throws: the recogniser's errors (a language without Tesseract data is not cached, so
  ///   installing the data is enough); ``DiscKitError/Code/cannotCreate`` when the cache folder
  ///   cannot be made or written.
  public func track(
    of title: DiscTitle, stream: SubtitleStreamInfo, timeline: TitleTimeline = .continuous,
    workers: Int = SubtitleRecognizer.defaultWorkers, skipped: (DiscKitError) -> Void = { _ in }
  ) throws(DiscKitError) -> SubtitleTrack {
    let identity = try Self.identity(of: title)
    let file = path(identity: identity, title: title, stream: stream, timeline: timeline)
    if let data = FileManager.default.contents(atPath: file) {
      return SubtitleTrack(stream: stream, cues: Self.decode(String(decoding: data, as: UTF8.self)))
    }
    let track = try SubtitleRecognizer.track(
      of: title, stream: stream, timeline: timeline, workers: workers, skipped: skipped)
    let folder = directory + "/" + identity
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw DiscKitError(.cannotCreate, folder, "cannot create the subtitle cache folder: \(error)")
    }
    let writer = try AtomicFileWriter(destination: file, overwrite: true)
    do {
      try writer.write(Array(Self.encode(track.cues).utf8))
      try writer.commit()
    } catch {
      writer.abort()
      throw error
    }
    return track
  }

  /// The cache file's text: WebVTT whose forced cues carry the cue identifier `forced` (what
  /// `disckit-subtitles hls-cues` prints for `disckit serve`).
  public static func encode(_ cues: [SubtitleCue]) -> String {
    var out = "WEBVTT\n"
    for cue in cues {
      out += "\n" + (cue.forced ? "forced\n" : "")
      out += WebVTT.text([cue]).dropFirst("WEBVTT\n\n".count)
    }
    return out
  }

  static func decode(_ text: String) -> [SubtitleCue] {
    var cues: [SubtitleCue] = []
    for block in text.split(separator: "\n\n") {
      let forced = block.hasPrefix("forced\n")
      cues += WebVTT.cues("WEBVTT\n\n" + block, forced: forced)
    }
    return cues
  }
}

/// 64-bit FNV-1a.
struct FNV {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func add(_ bytes: [UInt8]) {
    for b in bytes {
      state ^= UInt64(b)
      state &*= 0x100_0000_01b3
    }
  }
  var hex: String {
    let s = String(state, radix: 16)
    return String(repeating: "0", count: 16 - s.count) + s
  }
}
