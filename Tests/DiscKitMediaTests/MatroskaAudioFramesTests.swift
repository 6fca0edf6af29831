import DiscKit
@_spi(Formats) import DiscKitMedia
@_spi(Formats) import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Matroska keeps every audio frame a title's clips hold between their in- and out-times, on the
/// title timeline (issue 29): the frames that start before a clip's in-time (the audio of the last
/// milliseconds before a join, which the next clip's bytes carry; the frame playing when the
/// title's first picture starts) included, none twice.
///
/// The oracle is written from libbluray's clip times (`bd_get_playlist_info`: each clip's
/// stream file, in-, out- and title start time) and ffprobe's packets of each source clip's
/// audio (PTS, duration, MD5 of the payload): in play order, a clip's frame belongs to the title
/// when it starts before the clip's out-time and plays past the audio before it (the previous
/// frames, or the title's start). The Matroska file's audio packets must be those frames, with
/// the same payloads, at their title times moved by the file's lead (its first picture's time).
@Suite("Matroska keeps every audio frame of the clips' in-out ranges", .toolThreads)
struct MatroskaAudioFramesTests {
  static let bluray = Fixtures.generated("bluray")
  static let mkv = Fixtures.generated("mkv")
  static let ready =
    MatroskaOracle.available
    && FileManager.default.fileExists(atPath: bluray + "/feature/BDMV/index.bdmv")
    && FileManager.default.fileExists(atPath: mkv + "/languages/BDMV/index.bdmv")
  static let why: Comment =
    "needs mkvmerge, ffprobe, ffmpeg and TestImages/scripts/make-bluray.sh and make-mkv.sh output"

  /// (disc folder, playlist): one clip per title and two non-seamless ones, a stream cut in two,
  /// 25 seamless clips and their reordering, seamless branching (both cuts), two PTS epochs with
  /// AC-3 and LPCM, a clip across the 33-bit wrap.
  static let cases: [(folder: String, playlist: Int)] = [
    (bluray + "/simple", 1), (bluray + "/simple", 0), (bluray + "/seamless", 0),
    (bluray + "/branching", 0), (bluray + "/branching", 1), (bluray + "/feature", 0),
    (bluray + "/feature", 1), (mkv + "/languages", 0), (mkv + "/wrap", 0),
  ]

  struct Frame {
    var pts: Int64
    var duration: Int64
    var hash: String
  }

  /// ffprobe's packets of audio stream `index` of `path` (PTS and duration in the stream's
  /// time base, which is 1/90000 for transport streams and 1/1000 for Matroska).
  static func audioPackets(_ path: String, index: Int) throws -> [Frame] {
    let run = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "a:\(index)", "-show_entries",
        "packet=pts,duration,data_hash", "-show_data_hash", "md5", "-of", "json", path,
      ])
    let json = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
    return (json?["packets"] as? [[String: Any]] ?? []).compactMap { p in
      guard let pts = (p["pts"] as? NSNumber)?.int64Value else { return nil }
      return Frame(
        pts: pts, duration: (p["duration"] as? NSNumber)?.int64Value ?? 0,
        hash: p["data_hash"] as? String ?? "")
    }
  }

  /// ffprobe's streams of `path`: (codec type, codec name, start time in seconds).
  static func streams(_ path: String) throws -> [(type: String, codec: String, start: Double)] {
    let run = try Tool.run(
      "ffprobe",
      ["-v", "error", "-show_entries", "stream=codec_type,codec_name,start_time", "-of", "json", path])
    let json = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
    return (json?["streams"] as? [[String: Any]] ?? []).map {
      (
        $0["codec_type"] as? String ?? "", $0["codec_name"] as? String ?? "",
        Double($0["start_time"] as? String ?? "") ?? -1
      )
    }
  }

  /// The frames of audio stream `index` the title's clips hold, with their title times (90 kHz).
  static func expectedFrames(
    folder: String, clips: [Reference.Bluray.Clip], index: Int
  ) throws -> [(time: Int64, frame: Frame)] {
    var frames: [(Int64, Frame)] = []
    var covered: Int64 = 0
    for clip in clips {
      let path = folder + "/BDMV/STREAM/\(clip.clipID).m2ts"
      let inTime = Int64(clip.inTime90k)
      // (The out-time may be past the 33-bit wrap: lengths and offsets are modulo 2^33.)
      let length = (Int64(clip.outTime90k) - inTime + (1 << 33)) % (1 << 33)
      for frame in try audioPackets(path, index: index) {
        // The frame's offset from the in-time, across the 33-bit wrap.
        var offset = (frame.pts - inTime) % (1 << 33)
        if offset >= 1 << 32 { offset -= 1 << 33 }
        if offset <= -(1 << 32) { offset += 1 << 33 }
        let time = Int64(clip.startTime90k) + offset
        guard offset < length, time + frame.duration > covered else { continue }
        frames.append((time, frame))
        covered = max(covered, time + frame.duration)
      }
    }
    return frames
  }

  @Test(.enabled(if: ready, why), arguments: 0..<9)
  func everyAudioFrameOnTheTitleTimeline(_ number: Int) throws {
    let (folder, playlist) = Self.cases[number]
    let label = "\((folder as NSString).lastPathComponent) playlist \(playlist)"
    let dir = try TemporaryDirectory()
    let out = dir.file("title.mkv")
    let title = try Disc.open(path: folder).title(key: String(format: "%05d", playlist))
    try MatroskaWriter.write(try MatroskaTitle(title: title), toPath: out, overwrite: false)
    let info = try #require(try Reference.Bluray(path: folder).playlistInfo(playlist))

    let streams = try Self.streams(out)
    let video = try #require(streams.first { $0.type == "video" })
    // The file's lead: where the title's first picture (title time 0) is.
    let lead = video.start
    #expect(lead >= 0 && lead < 1, "\(label): first picture at \(lead) s")
    let audio = streams.filter { $0.type == "audio" }
    #expect(!audio.isEmpty)
    var earliest = Double.infinity
    for (index, track) in audio.enumerated() {
      let expected = try Self.expectedFrames(folder: folder, clips: info.clips, index: index)
      let ours = try Self.audioPackets(out, index: index)
      #expect(ours.count == expected.count, "\(label) audio \(index): frames")
      #expect(expected.count > 0)
      // Matroska's LPCM is converted to little-endian PCM: its payloads differ by design.
      if !track.codec.hasPrefix("pcm_") {
        #expect(
          ours.map(\.hash) == expected.map(\.frame.hash), "\(label) audio \(index): payloads")
      }
      // Times: the title times plus the lead, within Matroska's 1 ms rounding.
      var late: [String] = []
      for (a, b) in zip(ours, expected) {
        let want = Double(b.time) / 90 + lead * 1000
        if abs(Double(a.pts) - want) > 1.001 { late.append("\(a.pts) ms vs \(want) ms") }
      }
      #expect(late.isEmpty, "\(label) audio \(index): \(late.prefix(5))")
      earliest = min(earliest, Double(ours.first?.pts ?? 0) / 1000)
    }
    // The lead is the earliest audio frame's place before the first picture, and no more.
    #expect(earliest >= 0 && earliest < 0.002, "\(label): audio starts at \(earliest) s")
    // Chapters stay on their pictures (the first at the file's start).
    let oracle = try MatroskaOracle.read(out)
    #expect(oracle.chapterStarts.count == info.chapters.count)
    for (ours, theirs) in zip(oracle.chapterStarts, info.chapters) {
      let want = theirs.start90k == 0 ? 0 : Double(theirs.start90k) / 90000 + lead
      #expect(abs(ours - want) <= 0.001, "\(label): chapter at \(ours) s, not \(want) s")
    }
    #expect(oracle.tracks.map(\.type) == streams.map(\.type))
    #expect(try MatroskaOracle.timestampWarnings(out) == [])
    // Nothing else either, but the channel layout ffmpeg guesses for PCM (a note on its input,
    // printed for any PCM track without a layout mask).
    let clean = try Tool.run("ffmpeg", ["-nostdin", "-v", "warning", "-i", out, "-f", "null", "-"])
    let lines = clean.stderr.split(separator: "\n").filter { !$0.contains("Guessed Channel Layout") }
    #expect(lines.isEmpty, "\(label): \(clean.stderr)")
  }

  /// Where mkvmerge reads the playlist itself, it keeps the same audio frames (payloads).
  @Test(.enabled(if: ready, why), arguments: [0, 1, 2, 7])
  func mkvmergeKeepsTheSameFrames(_ number: Int) throws {
    let (folder, playlist) = Self.cases[number]
    let dir = try TemporaryDirectory()
    let ours = dir.file("ours.mkv")
    let theirs = dir.file("theirs.mkv")
    let title = try Disc.open(path: folder).title(key: String(format: "%05d", playlist))
    try MatroskaWriter.write(try MatroskaTitle(title: title), toPath: ours, overwrite: false)
    let mpls = folder + String(format: "/BDMV/PLAYLIST/%05d.mpls", playlist)
    let run = try Tool.run("mkvmerge", ["-q", "-o", theirs, mpls])
    #expect(run.status <= 1, "mkvmerge: \(run.stderr)")
    let a = try Self.audioPackets(ours, index: 0)
    let b = try Self.audioPackets(theirs, index: 0)
    #expect(a.count == b.count && !a.isEmpty)
    #expect(a.map(\.hash) == b.map(\.hash))
  }
}
