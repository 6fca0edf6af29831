@_spi(Formats) import DiscKit
import Foundation
import Testing

/// The discs of TestImages/scripts/make-epochs.sh (titles across timestamp epochs, a clip across
/// the 33-bit PTS wrap, a clip with three STC sequences) and what ffprobe reads in the bytes
/// DiscKit plays from them. Shared by the core tests and the libbluray and lsdvd comparisons.
package enum EpochDiscs {
  /// A disc, image or clip under TestImages/generated/epochs.
  package static func path(_ name: String) -> String { Fixtures.generated("epochs/" + name) }
  /// Whether make-epochs.sh's discs were made.
  package static let haveDiscs = FileManager.default.fileExists(atPath: path("bd-epochs.iso"))
  package static let haveFFprobe = Tool.has("ffprobe")
  /// The note of a timeline test skipped for want of ffprobe or the discs.
  package static let missing =
    "needs ffprobe and TestImages/scripts/make-epochs.sh output (make images)"

  /// What ffprobe reads in a file.
  package struct Probe {
    /// DTS (else PTS) of every packet, per stream index, in file order.
    package var timestamps: [Int: [Int64]] = [:]
    /// Presentation times of the decoded video frames, sorted.
    package var frames: [Int64] = []
    /// One video frame's duration in 90 kHz ticks (from the stream's frame rate).
    package var frameDuration: Int64 = 0
  }

  /// What ffprobe reads in the file at `path`.
  package static func probe(_ path: String) throws -> Probe {
    var probe = Probe()
    let packets = try Tool.run(
      "ffprobe",
      ["-v", "error", "-show_entries", "packet=stream_index,pts,dts", "-of", "csv=p=0", path])
    #expect(packets.status == 0, "\(packets.stderr)")
    for line in packets.text.split(separator: "\n") {
      let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard f.count >= 3, let stream = Int(f[0]), let t = Int64(f[2]) ?? Int64(f[1]) else {
        continue
      }
      probe.timestamps[stream, default: []].append(t)
    }
    let frames = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries",
        "frame=best_effort_timestamp", "-of", "csv=p=0", path,
      ])
    #expect(frames.status == 0, "\(frames.stderr)")
    for line in frames.text.split(separator: "\n") {
      let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      if let t = f.first.flatMap({ Int64($0) }) { probe.frames.append(t) }
    }
    let rate = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=r_frame_rate", "-of",
        "csv=p=0", path,
      ])
    // The first line naming a rate (ffprobe may list the stream under its program too).
    let line = rate.text.split(separator: "\n").first { $0.contains("/") } ?? ""
    let parts = line.trimmingCharacters(in: CharacterSet(charactersIn: ", ")).split(separator: "/")
    if parts.count == 2, let n = Int64(parts[0]), let d = Int64(parts[1]), n > 0 {
      probe.frameDuration = 90_000 * d / n
    }
    probe.frames.sort()
    return probe
  }

  /// Writes `source` to a file and probes it.
  package static func probe(_ source: any ByteSource, in dir: TemporaryDirectory, name: String)
    throws
    -> Probe
  {
    let path = dir.file(name)
    let bytes = try source.bytes(at: 0, count: Int(source.size))
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return try probe(path)
  }

  /// DTS never go back (nor jump forward by a second) in any stream; no gap between video frames over 2 frames; the video lasts
  /// `expected90k` within 2 frames.
  package static func expectOneTimeline(_ p: Probe, lasting expected90k: Int64, _ what: String) {
    for (stream, ts) in p.timestamps {
      // ffprobe reads a big step back as a step forward across the wrap: a second is a jump too.
      let back = zip(ts, ts.dropFirst()).first { $1 < $0 || $1 - $0 > 90_000 }
      #expect(
        back == nil,
        "\(what): stream \(stream) jumps from \(back.map { "\($0.0) to \($0.1)" } ?? "")")
    }
    let frame = p.frameDuration
    #expect(frame > 0, "\(what): no frame duration")
    let gaps = zip(p.frames, p.frames.dropFirst()).map { $1 - $0 }
    #expect((gaps.max() ?? 0) <= 2 * frame, "\(what): a video gap of \(gaps.max() ?? 0) ticks")
    guard let first = p.frames.first, let last = p.frames.last else {
      Issue.record("\(what): no video frames")
      return
    }
    let duration = last - first + frame
    #expect(
      abs(duration - expected90k) <= 2 * frame,
      "\(what): lasts \(duration), expected \(expected90k)")
  }

  // MARK: the clip with three STC sequences (bd-stc)

  /// Whether the multi-STC disc and the tools that judge it are present.
  package static let stcReady =
    Tool.has("ffmpeg") && Tool.has("ffprobe")
    && FileManager.default.fileExists(atPath: path("bd-stc/BDMV/index.bdmv"))
  /// The note of a multi-STC test skipped for want of them.
  package static let stcMissing =
    "needs ffmpeg, ffprobe and TestImages/scripts/make-epochs.sh output"
  /// The three streams byte-concatenated into the clip.
  package static let stcParts = ["e1", "e2", "e3"].map { path("clips/\($0).ts") }

  /// The multi-STC disc, opened.
  package static func stcDisc() throws -> BlurayDisc {
    try BlurayDisc(fileSystem: try FolderFileSystem(root: path("bd-stc")))
  }

  /// The first source packet of each part in the concatenation (where its tables, then its
  /// first PCR, start the part's STC sequence).
  package static func stcPartStarts() throws -> [UInt32] {
    var result: [UInt32] = []
    var base: UInt32 = 0
    for part in stcParts {
      result.append(base)
      let size = try #require(try FileManager.default.attributesOfItem(atPath: part)[.size] as? Int)
      base += UInt32(size / 188)
    }
    return result
  }
}
