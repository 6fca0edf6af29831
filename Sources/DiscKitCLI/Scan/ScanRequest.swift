import ArgumentParser
import DiscKit

/// What `disckit scan` was asked to do, independent of how the command line was parsed
/// (``ScanCommand`` through ArgumentParser, or ``FastCommandLine``).
package struct ScanRequest: Equatable, Sendable {
  /// The stream file, disc image or folder (nil with `--batch`).
  package var source: String?
  /// `--batch ROOT|-`.
  package var batch: String?
  /// `--jobs N`.
  package var jobs: Int = BatchRunner.defaultWidth
  /// `--follow-links`: with `--batch ROOT`, follow symbolic links that leave ROOT too.
  package var followLinks = false
  /// `--offset` (K/M/G suffixes allowed; parsed when the scan runs).
  package var offset = "0"
  /// `--bytes`.
  package var bytes = "30M"
  /// `--payload-bound`.
  package var payloadBound = 4096
  /// `--title N`.
  package var title: Int?
  /// `--playlist NAME`.
  package var playlist: String?
  /// `--at SECONDS`.
  package var at: Double?
  /// `--timeline` (disc titles).
  package var timeline: TitleTimeline = .continuous
  /// `--json`.
  package var json = false

  package init() {}

  /// Parses `123`, `30M`, `4K`, `1G` (powers of 1024).
  static func parseSize(_ text: String, name: String) throws(DiscKitError) -> Int64 {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    let start = text.firstIndex { !blank($0) } ?? text.endIndex
    let end = text.lastIndex { !blank($0) }.map { text.index(after: $0) } ?? start
    let trimmed = text[start..<max(start, end)]
    var digits = Substring(trimmed)
    var multiplier: Int64 = 1
    if let last = trimmed.last, last.isLetter {
      switch last.uppercased() {
      case "K": multiplier = 1 << 10
      case "M": multiplier = 1 << 20
      case "G": multiplier = 1 << 30
      default:
        throw DiscKitError(
          .invalidArgument, name, at: nil, "unknown size suffix in '\(text)' (use K, M or G)")
      }
      digits = digits.dropLast()
    }
    guard let value = Int64(digits), value >= 0 else {
      throw DiscKitError(.invalidArgument, name, at: nil, "'\(text)' is not a byte count")
    }
    let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
    guard !overflow else {
      throw DiscKitError(.invalidArgument, name, at: nil, "'\(text)' is too large")
    }
    return product
  }

  /// Why these options cannot run together (the usage error ArgumentParser reports), or nil.
  package var validationFailure: String? {
    if payloadBound < 0 { return "--payload-bound must not be negative" }
    if at != nil, offset != "0" { return "--at and --offset are exclusive" }
    if title != nil, playlist != nil { return "--title and --playlist are exclusive" }
    if (source == nil) == (batch == nil) { return "give either SOURCE or --batch ROOT|-" }
    if jobs < 1 { return "--jobs must be at least 1" }
    if followLinks && batch == nil { return "--follow-links goes with --batch ROOT" }
    return nil
  }

  /// Runs the command: prints the report (or the batch lines); throws `ExitCode` on failure.
  package func run() throws {
    if let root = batch { return try runBatch(root: root) }
    try reportingErrors {
      guard let source else {
        throw DiscKitError(.invalidArgument, "scan", at: nil, "no SOURCE given (or --batch ROOT|-)")
      }
      let outcome = try outcome(for: source)
      let document = outcome.document
      if json {
        Output.line(try Output.json(document))
        return
      }
      switch (document.report, outcome.titleKey) {
      case (.programStream(let report), let key):
        Self.printText(report, title: Int(key ?? "") ?? 0)
      case (.transportStream(let report), .some(let key)):
        Output.line("Playlist \(key).mpls, from title offset \(report.scanStart)")
        Self.printText(report)
      case (.transportStream(let report), .none):
        if let seek = document.seek { Self.printText(seek) }
        Self.printText(report)
      }
    }
  }

  /// `--batch`: kept out of line, so that a single scan never instantiates the concurrency types
  /// (`Task`, `TaskPriority`) the batch runner uses.
  @inline(never)
  private func runBatch(root: String) throws {
    var failures = 0
    try reportingErrors {
      failures = try BatchRunner.run(
        root: root, followLinks: followLinks, width: jobs, label: "scan") { [self] path in
        BatchRunner.line(
          path: path, work: { try outcome(for: $0).document },
          success: { ScanBatchLine(path: path, scan: $0) },
          failure: { ScanBatchLine(path: path, error: $0) })
      }
    }
    if failures > 0 { throw ExitCode.failure }
  }

  /// A scan report and, for a disc, the key of the title scanned.
  struct Outcome {
    var document: ScanDocument
    var titleKey: String?
  }

  /// The scan of one SOURCE: a stream file, or a title of a disc image or folder.
  func outcome(for source: String) throws -> Outcome {
    if let disc = try discSource(source) {
      return try scanDisc(disc)
    }
    var start = try Self.parseSize(offset, name: "--offset")
    let window = try Self.parseSize(bytes, name: "--bytes")
    let file = try FileByteSource(path: source)
    var seek: TransportStreamTimeSeek.Result?
    if let at {
      seek = try TransportStreamTimeSeek.seek(source: file, to: at)
      start = seek?.offset ?? start
    }
    var options = PESScanOptions()
    options.payloadBound = payloadBound
    let report = try PESPreScanner.scan(
      source: file, offset: start, window: window, options: options)
    return Outcome(document: ScanDocument(report: .transportStream(report), seek: seek))
  }

  /// The disc image or folder `source` names, or nil when it is a plain stream file.
  /// `--at` alone on a stream file is a time seek in the file (``TransportStreamTimeSeek``).
  func discSource(_ source: String) throws(DiscKitError) -> DiscImage? {
    let forced = title != nil || playlist != nil
    let disc: DiscImage
    do throws(DiscKitError) {
      disc = try DiscImage.open(path: source)
    } catch {
      if error.code == .cannotOpen { throw error }
      if forced {
        throw DiscKitError(
          .invalidArgument, source, at: nil,
          "--title and --playlist select a title of a disc image or folder; this is a stream file"
        )
      }
      return nil
    }
    if disc.kind != .data { return disc }
    if forced { throw DiscKitError(.unsupported, source, at: nil, "neither a Blu-ray nor a DVD") }
    return nil
  }

  func scanDisc(_ image: DiscImage) throws -> Outcome {
    let window = try Self.parseSize(bytes, name: "--bytes")
    let disc = try Disc(image: image)
    if disc.kind == .dvd, playlist != nil {
      throw DiscKitError(.invalidArgument, "--playlist", at: nil, "a DVD has titles, not playlists")
    }
    if let at, !(at >= 0 && at < 1e7) {
      throw DiscKitError(.invalidArgument, "--at", at: nil, "\(at) is not a time in the title")
    }
    let title: DiscTitle
    if let playlist {
      // A playlist key, in the strict form the server's URLs use.
      title = try disc.title(key: playlist)
    } else {
      title = try disc.title(TitleChoice(title: self.title, playlist: nil))
    }
    var options = PESScanOptions()
    options.payloadBound = payloadBound
    let time = at.map { MediaTime(seconds: $0) }
    let document: ScanDocument
    if at == nil, offset != "0" {
      let start = try Self.parseSize(offset, name: "--offset")
      document = try ScanDocument(
        title: title, from: start, timeline: timeline, window: window, options: options)
    } else {
      document = try ScanDocument(
        title: title, at: time, timeline: timeline, window: window, options: options)
    }
    return Outcome(document: document, titleKey: title.key)
  }

  static func printText(_ seek: TransportStreamTimeSeek.Result) {
    let placement =
      switch seek.placement {
      case .atOrBefore:
        seek.clamped ? "the last one; the time is beyond the end" : "at or before it"
      case .after: "the next one after it"
      case .streamStart: "the stream's first one"
      }
    Output.line(
      "Seek to \(seek.targetSeconds) s: \(seek.kind.rawValue) on PID \(seek.pid) at offset \(seek.accessPointOffset), PTS \(pts(seek.pts)), \(String(cFormat: "%.6f", seek.seconds)) s after the first PTS (\(placement))"
    )
    Output.line(
      "  start offset: \(seek.offset) (moved back over \(seek.accessPointOffset - seek.offset) bytes of PSI packets)"
    )
    for w in seek.warnings { Output.line("warning: \(w)") }
  }

  static func printText(_ r: ProgramStreamScanReport, title: Int) {
    Output.line(
      "Title \(title): MPEG program stream, \(r.bytesScanned) bytes from offset \(r.scanStart), \(r.packs) packs"
    )
    for v in r.video {
      Output.line("Video stream 0x\(String(v.streamId, radix: 16)) \(v.codec)")
      Output.line("  first PTS:    \(pts(v.firstPTS))")
      Output.line("  first I-picture: \(pts(v.firstIDRPTS))")
      Output.line(
        "  pre-I gap:    \(v.preIDRGapSeconds.map { String(cFormat: "%.6f s", $0) } ?? "unknown")")
    }
    for a in r.audio {
      let id =
        a.substreamId.map { "0x\(String($0, radix: 16))" } ?? "0x\(String(a.streamId, radix: 16))"
      Output.line("Audio stream \(id) \(a.codec)")
      Output.line("  first PTS:    \(pts(a.firstPTS))")
      if let idr = a.offsetFromIDRSeconds {
        Output.line(String(cFormat: "  from I-picture: %.6f s", idr))
      }
    }
    if let av = r.avOffsetSeconds {
      Output.line(String(cFormat: "A/V offset:     %.6f s (audio minus video first PTS)", av))
    }
    for w in r.warnings { Output.line("warning: \(w)") }
  }

  static func pts(_ value: UInt64?) -> String {
    guard let value else { return "none" }
    return "\(value) (\(String(cFormat: "%.6f", Double(value) / 90_000)) s)"
  }

  static func printText(_ r: PESScanReport) {
    Output.line(
      "Packets:        \(r.packetSize.map { "\($0) bytes" } ?? "none"), \(r.packets) read, \(r.bytesScanned) bytes from offset \(r.scanStart)"
    )
    Output.line(
      "First PAT:      \(r.firstPATOffset.map(String.init) ?? "none")  (PES before it: \(r.pesBeforePAT))"
    )
    Output.line(
      "First PMT:      \(r.firstPMTOffset.map(String.init) ?? "none")\(r.pmtPID.map { "  PID \($0)" } ?? "")"
    )
    for v in r.video {
      Output.line(
        "Video PID \(v.pid) (0x\(String(v.pid, radix: 16))) \(v.codec.rawValue)\(v.dependentView ? " dependent view" : "")"
      )
      Output.line("  first PTS:    \(pts(v.firstPTS))")
      let kind =
        switch v.firstIDRKind {
        case .iPicture: "I-picture"
        case .entryPoint: "entry point"
        default: "IDR"
        }
      Output.line("  first \(kind):    \(pts(v.firstIDRPTS))")
      if v.codec == .hevc { Output.line("  first CRA/BLA: \(pts(v.firstCRAPTS))") }
      Output.line(
        "  pre-IDR gap:  \(v.preIDRGapSeconds.map { String(cFormat: "%.6f s", $0) } ?? "unknown")")
    }
    for a in r.audio {
      Output.line(
        "Audio PID \(a.pid) (0x\(String(a.pid, radix: 16))) \(a.codec.rawValue)\(a.language.map { " [\($0)]" } ?? "")"
      )
      Output.line("  first PTS:    \(pts(a.firstPTS))")
    }
    for o in r.other {
      Output.line(
        "Other PID \(o.pid) (0x\(String(o.pid, radix: 16))) \(o.codec.rawValue)\(o.inPMT ? "" : " (not in PMT)")"
      )
    }
    if let av = r.avOffsetSeconds {
      Output.line(String(cFormat: "A/V offset:     %.6f s (audio minus video first PTS)", av))
    }
    for w in r.warnings {
      Output.line(
        "warning: \(w.kind.rawValue)\(w.offset.map { " at \($0)" } ?? "")\(w.pid.map { " PID \($0)" } ?? ""): \(w.detail)"
      )
    }
    if r.warningsOmitted > 0 { Output.line("(\(r.warningsOmitted) more warnings)") }
  }
}
