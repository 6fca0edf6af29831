import ArgumentParser
@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring

extension UDFImageWriter.Revision: ExpressibleByArgument {}

/// `disckit author FOLDER -o disc.iso` wraps a folder (a BDMV tree, or anything) into a UDF image;
/// `disckit author --clips a.ts b.ts ... -o disc.iso | --folder OUT` builds a BDMV tree from
/// transport streams first.
struct AuthorCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "author",
    abstract:
      "Write a folder as a UDF 2.50/2.60 disc image, or build a Blu-ray disc from transport streams.",
    discussion: """
      disckit author FOLDER -o disc.iso
        Records FOLDER (a BDMV tree, or anything). The image uses the Blu-ray layout: a read-only \
      physical partition holding the file data, and a Metadata Partition (with its mirror) holding \
      the file set, the directories and the file entries. Files larger than 1 GiB are recorded in \
      several extents. Holes in sparse source files stay holes in the image. Directory entries are \
      sorted by name.

      disckit author --clips a.m2ts b.m2ts ... [--title a.m2ts,b.m2ts ...] -o disc.iso | --folder OUT
        Builds a playable BDMV tree from MPEG transport streams (188-byte .ts or 192-byte .m2ts, \
      with an H.264, HEVC, MPEG-2 or VC-1 video stream): one clip (BDMV/STREAM + CLIPINF, with an \
      EP map of the video's random access points) per input, one playlist per --title (clips \
      played one after the other, seamlessly when a clip continues the previous one; `a+b` plays \
      clips a and b as two angles of one item; `b@6` connects item b to the one before with \
      connection condition 6 (1, 5 or 6)), chapters every --chapters-every seconds at the \
      nearest keyframe before, and index.bdmv/MovieObject.bdmv titles playing them. Without \
      --title each clip is a title. Clips in --title are named as given to --clips or by file name.

      The output is written through a temporary file or folder beside it and renamed at the end: \
      on any failure (an unreadable, vanished or malformed source, a name UDF cannot hold, a size \
      past the format's limits) nothing is left behind.
      """)

  @Argument(help: "The folder to record, e.g. a disc folder holding BDMV/ and CERTIFICATE/.")
  var folder: String?

  @Option(name: .shortAndLong, help: "The image file to write.")
  var output: String?

  @Option(
    name: .customLong("folder"),
    help: "With --clips: write the BDMV tree as this folder (new or empty) instead of an image.")
  var folderOutput: String?

  @Option(
    parsing: .upToNextOption,
    help: "Transport streams to build a Blu-ray disc from (one clip each).")
  var clips: [String] = []

  @Option(
    parsing: .upToNextOption,
    help:
      "A title: its clips in order, comma-separated (`a+b` for two angles, `b@5` for connection condition 5). Repeatable."
  )
  var title: [String] = []

  @Option(
    name: .customLong("secondary-audio"),
    help:
      "N=CLIP: an audio-only clip of --clips played beside title N as out-of-mux secondary audio (a type 5 sub-path). Repeatable."
  )
  var secondaryAudio: [String] = []

  @Option(name: .customLong("chapters-every"), help: "Chapter spacing in seconds (0: one chapter).")
  var chaptersEvery: Double = 300

  @Option(help: "Language of audio/subtitle streams whose PMT names none (ISO 639-2, e.g. eng).")
  var language: String?

  @Option(help: .hidden)
  var decoys: Int = 0

  @Option(help: .hidden)
  var seamless: String = "auto"

  @Option(name: .customLong("recording-time"), help: .hidden)
  var recordingTime: Int64?

  @Option(name: .long, help: "UDF revision: 2.50 (as BD-ROM) or 2.60.")
  var udf: UDFImageWriter.Revision = .udf250

  @Option(name: .long, help: "Volume label (default: the folder's or output's name).")
  var label: String?

  @Flag(name: .long, help: "Overwrite the output image if it exists.")
  var force = false

  @OptionGroup var format: JSONFlag

  /// The summary printed after writing.
  struct Summary: Codable, Equatable {
    var image: String
    var udfRevision: String
    var volumeLabel: String
    var files: Int
    var directories: Int
    var dataBytes: Int64
    var imageBytes: Int64
  }

  /// The summary of a disc built from clips.
  struct BuildSummary: Codable, Equatable {
    struct Clip: Codable, Equatable {
      var clip: String
      var source: String
      var packets: UInt32
      var duration90k: UInt64
      var entryPoints: Int
    }
    struct Title: Codable, Equatable {
      var title: Int
      var playlist: String
      var clips: [String]
      var duration90k: UInt64
      var chapters: Int
    }
    var output: String
    var kind: String
    var imageBytes: Int64?
    var clips: [Clip]
    var titles: [Title]
    var decoys: [String]
  }

  func validate() throws {
    if clips.isEmpty {
      guard folder != nil else {
        throw ValidationError("give a FOLDER to record, or --clips to build a disc from")
      }
      guard output != nil else { throw ValidationError("missing -o IMAGE") }
      guard folderOutput == nil else { throw ValidationError("--folder needs --clips") }
      guard title.isEmpty, decoys == 0 else { throw ValidationError("--title needs --clips") }
    } else {
      guard folder == nil else { throw ValidationError("give a FOLDER or --clips, not both") }
      guard (output == nil) != (folderOutput == nil) else {
        throw ValidationError("give exactly one of -o IMAGE and --folder OUT")
      }
      guard ["auto", "always", "never"].contains(seamless) else {
        throw ValidationError("--seamless is auto, always or never")
      }
    }
  }

  func run() throws {
    try reportingErrors {
      if clips.isEmpty {
        let summary = try Self.author(
          folder: folder ?? "", output: output ?? "", revision: udf, label: label, force: force,
          showProgress: true)
        if format.json {
          Output.line(try Output.json(summary))
        } else {
          Output.line(
            "\(summary.image): UDF \(summary.udfRevision) \"\(summary.volumeLabel)\", \(summary.files) files, "
              + "\(summary.directories) directories, \(summary.imageBytes) bytes")
        }
        return
      }
      let summary = try build(showProgress: true)
      if format.json {
        Output.line(try Output.json(summary))
      } else {
        var text = "\(summary.output): Blu-ray \(summary.kind), \(summary.clips.count) clips, "
        text += "\(summary.titles.count) titles"
        if !summary.decoys.isEmpty { text += ", \(summary.decoys.count) decoy playlists" }
        if let bytes = summary.imageBytes { text += ", \(bytes) bytes" }
        Output.line(text)
        for t in summary.titles {
          Output.line(
            "  title \(t.title): \(t.playlist) \(t.clips.joined(separator: "+")) "
              + "\(Double(t.duration90k) / 90000) s, \(t.chapters) chapters")
        }
      }
    }
  }

  /// The clip of `--clips` that `name` names (exact path, else unique file name).
  static func resolve(_ name: String, clips: [String]) throws(DiscKitError) -> String {
    if clips.contains(name) { return name }
    let matches = clips.filter { $0.split(separator: "/").last.map(String.init) == name }
    guard matches.count == 1 else {
      throw DiscKitError(
        .invalidArgument, "--title", at: nil,
        matches.isEmpty ? "\(name) is not one of --clips" : "\(name) names several --clips")
    }
    return matches[0]
  }

  /// Resolves `--title` entries against `--clips` (exact path, else unique file name).
  static func titles(_ specs: [String], clips: [String]) throws(DiscKitError) -> [BDMVBuilder
    .Title]?
  {
    guard !specs.isEmpty else { return nil }
    func resolve(_ name: String) throws(DiscKitError) -> String {
      try Self.resolve(name, clips: clips)
    }
    var result: [BDMVBuilder.Title] = []
    for spec in specs {
      var items: [BDMVBuilder.Item] = []
      for part in spec.split(separator: ",") {
        // `clip[+angle...][@cc]`: the angles' clips, the connection condition with the item
        // before (1, 5 or 6).
        var body = Substring(part)
        var connection: UInt8?
        if let at = part.lastIndex(of: "@") {
          let text = part[part.index(after: at)...]
          guard let cc = UInt8(text), [1, 5, 6].contains(cc) else {
            throw DiscKitError(
              .invalidArgument, "--title", at: nil,
              "\(part): the connection condition after @ is 1, 5 or 6, not \"\(text)\"")
          }
          connection = cc
          body = part[..<at]
        }
        let angles = body.split(separator: "+").map(String.init)
        guard !angles.isEmpty else { continue }
        var resolved: [String] = []
        for a in angles { resolved.append(try resolve(a)) }
        items.append(
          BDMVBuilder.Item(
            clip: resolved[0], angles: Array(resolved.dropFirst()), connectionCondition: connection
          ))
      }
      result.append(BDMVBuilder.Title(items: items))
    }
    return result
  }

  /// Builds the disc from `--clips`; shared with the tests.
  func build(showProgress: Bool = false) throws(DiscKitError) -> BuildSummary {
    let connection: BDMVBuilder.Connection =
      seamless == "always" ? .seamless : seamless == "never" ? .nonSeamless : .automatic
    let options = BDMVBuilder.Options(
      chapterInterval: chaptersEvery > 0 ? chaptersEvery : nil, language: language,
      connection: connection, decoys: BDMVBuilder.Decoy.obfuscation(title: 0, count: decoys))
    var titles = try Self.titles(title, clips: clips)
    for spec in secondaryAudio {
      let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let n = Int(parts[0]), let count = titles?.count, n >= 1, n <= count
      else {
        throw DiscKitError(
          .invalidArgument, "--secondary-audio", at: nil,
          "\(spec): expected N=CLIP with N a --title number (1 to \(titles?.count ?? 0))")
      }
      titles?[n - 1].secondaryAudio.append(try Self.resolve(parts[1], clips: clips))
    }
    let builder = try BDMVBuilder(clips: clips, titles: titles, options: options)
    let bar = showProgress ? ProgressBar(total: builder.sourceBytes, label: "author") : nil
    defer { bar?.finish() }
    let progress: (Int64, Int64) -> Void = { done, _ in bar?.update(done) }
    let result: BDMVBuilder.Result
    if let folderOutput {
      result = try builder.writeFolder(to: folderOutput, progress: progress)
    } else {
      let image = output ?? ""
      let name = image.split(separator: "/").last.map(String.init) ?? "BLURAY"
      let stem = name.split(separator: ".").first.map(String.init) ?? name
      result = try builder.writeImage(
        to: image,
        udf: .init(revision: udf, volumeLabel: label ?? stem, recordingTime: recordingTime),
        overwrite: force, progress: progress)
    }
    let titleCount = builder.titles.count
    return BuildSummary(
      output: result.output, kind: folderOutput == nil ? "image" : "folder",
      imageBytes: result.imageBytes,
      clips: result.clips.enumerated().map { i, c in
        .init(
          clip: result.clipIDs[i], source: c.source, packets: c.packetCount,
          duration90k: c.duration90k, entryPoints: c.entryPoints.count)
      },
      titles: result.playlists.prefix(titleCount).enumerated().map { i, p in
        .init(
          title: i + 1, playlist: BDMVBuilder.fiveDigits(p.number) + ".mpls",
          clips: p.playlist.playItems.map { $0.clips.map(\.clipID).joined(separator: "+") },
          duration90k: UInt64(MediaTime(ticks45k: p.playlist.duration45k).ticks),
          chapters: p.playlist.chapterCount)
      },
      decoys: result.playlists.dropFirst(titleCount).map {
        BDMVBuilder.fiveDigits($0.number) + ".mpls"
      })
  }

  /// Plans and writes the image; shared with the tests.
  static func author(
    folder: String, output: String, revision: UDFImageWriter.Revision, label: String?, force: Bool,
    showProgress: Bool = false
  ) throws(DiscKitError) -> Summary {
    let writer = try UDFImageWriter(
      folder: folder, options: .init(revision: revision, volumeLabel: label))
    let bar = showProgress ? ProgressBar(total: writer.dataBytes, label: "author") : nil
    defer { bar?.finish() }
    try writer.write(to: output, overwrite: force) { done, _ in bar?.update(done) }
    return Summary(
      image: output, udfRevision: revision.rawValue, volumeLabel: writer.volumeLabel,
      files: writer.fileCount,
      directories: writer.directoryCount, dataBytes: writer.dataBytes, imageBytes: writer.imageSize)
  }
}
