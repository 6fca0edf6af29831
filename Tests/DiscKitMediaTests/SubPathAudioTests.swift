@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitMedia
@_spi(Formats) import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Out-of-mux secondary audio (issue 20), on `bluray/commentary` of
/// `TestImages/scripts/make-bluray.sh`: a 6 s title whose Spanish AC-3 commentary is an
/// audio-only clip referenced by a type 5 sub-path and a secondary audio STN entry (stream entry
/// type 2). libbluray's title info (`sec_audio_streams`, `subpath_id`), ffprobe on the source
/// clip and the script's own inputs are the oracles.
@Suite("Sub-path secondary audio", .toolThreads)
struct SubPathAudioTests {
  static let folder = Fixtures.generated("bluray/commentary")
  static let commentary = Fixtures.generated("bluray/clips/comm.ts")
  static let ready =
    Tool.has("ffprobe") && FileManager.default.fileExists(atPath: folder + "/BDMV/index.bdmv")
    && FileManager.default.fileExists(atPath: commentary)
  static let missing = "needs ffprobe and TestImages/scripts/make-bluray.sh output"

  /// The first audio PTS and the audio codec of the commentary source (ffprobe).
  static func sourceAudio() throws -> (pts90k: Int64, codec: String) {
    let run = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=codec_name,start_pts",
        "-of", "csv=p=0", commentary,
      ])
    let fields = try #require(run.text.split(separator: "\n").first).split(separator: ",")
    return (try #require(Int64(fields[1])), String(fields[0]))
  }

  @Test(.enabled(if: ready, "\(missing)"))
  func theSubPathAndTheSecondaryStreamMatchLibbluray() throws {
    let disc = try Disc.open(path: Self.folder)
    let title = try disc.title(key: "00000")
    guard case .bluray(let bluray) = title.content else {
      Issue.record("not a Blu-ray title")
      return
    }
    // The playlist: one sub-path of type 5 (out-of-mux synchronous) playing the audio-only clip
    // from its first PTS, synchronised with the first play item's in-time.
    let subPaths = bluray.playlist.subPaths
    #expect(subPaths.map(\.type) == [5])
    let item = try #require(subPaths.first?.items.first)
    #expect(item.clips.map(\.clipID) == ["00001"])
    let source = try Self.sourceAudio()
    #expect(UInt64(item.inTime) * 2 / 2 == UInt64(source.pts90k) / 2)
    #expect(item.syncPlayItemID == 0 && item.syncPTS == bluray.playlist.playItems[0].inTime)
    #expect(
      Reference.Bluray.parsesClipInformation(atPath: Self.folder + "/BDMV/CLIPINF/00001.clpi"))

    // libbluray's view of the secondary audio of every clip: coding, language, PID, sub-path.
    let reference = try Reference.Bluray(path: Self.folder)
    let info = try #require(reference.playlistInfo(0))
    let ours = title.secondaryAudio
    #expect(ours.count == 1)
    #expect(source.codec == "ac3")
    for clip in info.clips {
      #expect(clip.secondaryAudioCount == ours.count)
      #expect(clip.secondaryAudio.map(\.language) == ours.map { $0.language ?? "" })
      #expect(clip.secondaryAudio.map { Int($0.codingType) } == ours.map { $0.codingType ?? -1 })
      #expect(clip.secondaryAudio.map { Int($0.pid) } == ours.map(\.id))
      #expect(clip.secondaryAudio.map { Int($0.subPathID) } == ours.map { $0.subPath ?? -1 })
    }
    // What the script authored: Spanish AC-3 (0x81), secondary, out-of-mux in sub-path 0; the
    // primary audio stays the clip's English one.
    #expect(ours.first?.language == "spa" && ours.first?.codingType == 0x81)
    #expect(ours.first?.secondary == true && ours.first?.subPath == 0)
    #expect(title.streams.filter { $0.kind == .audio }.map(\.language) == ["eng"])
    #expect(title.streams.allSatisfy { $0.subPath == nil && $0.secondary == nil })

    // The titles document lists it.
    let document = try TitlesDocument(disc: disc)
    let entry = try #require(document.titles.first { $0.key == "00000" })
    let listed = try #require(entry.streams.secondaryAudioStreams)
    #expect(listed.map(\.language) == ["spa"] && listed.map(\.subPath) == [0])
    #expect(entry.streams.secondaryAudio == 1)
  }

  /// The title's bytes are the main path's, as libbluray reads them: the sub-path's clip is not
  /// in them (the continuous M2TS of `extract` and `serve` leave out-of-mux streams out).
  @Test(.enabled(if: ready, "\(missing)"))
  func outOfMuxAudioIsNotInTheTitleBytes() throws {
    let disc = try Disc.open(path: Self.folder)
    let title = try disc.title(key: "00000")
    let reference = try Reference.Bluray(path: Self.folder)
    #expect(reference.selectPlaylist(0))
    var theirs: [UInt8] = []
    _ = reference.readToEnd { theirs += $0 }
    let source = try title.byteSource(timeline: .original)
    #expect(
      ClipJoinProbe.equalAfterNormalising(
        ours: try source.bytes(at: 0, count: Int(source.size)), libbluray: theirs))
    let dir = try TemporaryDirectory("sub-path-audio")
    let path = dir.file("title.m2ts")
    try Data(theirs).write(to: URL(fileURLWithPath: path))
    let probe = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "a", "-show_entries", "stream_tags=language", "-of",
        "csv=p=0", path,
      ])
    #expect(Set(probe.text.split(separator: "\n").map(String.init)) == ["eng"])
  }

  /// The Matroska output carries the commentary as a track of its own, after the title's: its
  /// language, not default, its coded and decoded frames those of the sub-path clip (its whole
  /// range), each at its place on the title timeline (the sub play item's in-time plays at the
  /// first play item's in-time, title time 0); ffmpeg reads the file without a warning.
  @Test(.enabled(if: ready && MatroskaOracle.available, "\(missing), mkvmerge"))
  func matroskaCarriesTheCommentaryTrack() throws {
    let disc = try Disc.open(path: Self.folder)
    let title = try disc.title(key: "00000")
    let matroska = try MatroskaTitle(title: title)
    #expect(matroska.tracks.map(\.kind) == [.video, .audio])
    #expect(matroska.subPathStreams.map(\.track.language) == ["spa"])
    #expect(!matroska.skippedStreams.contains { $0.contains("secondary audio") })
    let dir = try TemporaryDirectory("sub-path-audio-mkv")
    let out = dir.file("title.mkv")
    let report = try MatroskaWriter.write(matroska, toPath: out, overwrite: false)
    #expect(report.missingTracks.isEmpty)
    let oracle = try MatroskaOracle.read(out)
    #expect(oracle.tracks.map(\.type) == ["video", "audio", "audio"])
    #expect(oracle.tracks.map(\.language).dropFirst() == ["eng", "spa"])
    #expect(oracle.tracks.map(\.isDefault) == [true, true, false])
    #expect(try ClipJoinProbe.ffmpegWarnings(out) == "")
    for copy in [true, false] {
      let ours = try ClipJoinProbe.frames(out, "0:a:1", copy: copy)
      let source = try ClipJoinProbe.frames(Self.commentary, "0:a:0", copy: copy)
      #expect(ours.count == source.count && !ours.isEmpty, "copy \(copy)")
      #expect(ours.map(\.hash) == source.map(\.hash), "copy \(copy)")
      // Matroska ticks are milliseconds: each frame within one of its source time.
      let first = try #require(source.first?.pts90k)
      let lead = Int64((try MatroskaOracle.lead(out) * 90000).rounded())
      let late = zip(ours, source).filter { abs($0.pts90k - ($1.pts90k - first) - lead) > 90 }
      #expect(late.isEmpty, "copy \(copy): \(late.count) frames off")
    }
  }

  /// mkvmerge on the same `.mpls`: the tracks it finds and their languages, beside DiscKit's.
  @Test(.enabled(if: ready && Tool.has("mkvmerge"), "\(missing), mkvmerge"))
  func mkvmergeOnThePlaylist() throws {
    let run = try Tool.run("mkvmerge", ["-J", Self.folder + "/BDMV/PLAYLIST/00000.mpls"])
    let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    let tracks = json["tracks"] as? [[String: Any]] ?? []
    let audio = tracks.filter { $0["type"] as? String == "audio" }.map {
      ($0["properties"] as? [String: Any])?["language"] as? String ?? "und"
    }
    // mkvmerge reads the main path's clips: the English primary audio, and no track from the
    // sub-path's clip (as DiscKit's continuous outputs).
    #expect(audio == ["eng"], "mkvmerge: \(audio)")
  }
}
