@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitTestSupport
import Foundation

/// Writes BDMV folders for tests with DiscKit's serializers.
struct SyntheticBluray {
  let directory: TemporaryDirectory
  var path: String { directory.path }

  init() throws {
    directory = try TemporaryDirectory("disckit-bdmv")
    for sub in [
      "BDMV/PLAYLIST", "BDMV/CLIPINF", "BDMV/STREAM", "BDMV/BACKUP/PLAYLIST", "BDMV/BACKUP/CLIPINF",
    ] {
      try FileManager.default.createDirectory(
        at: directory.url.appendingPathComponent(sub), withIntermediateDirectories: true)
    }
  }

  func write(_ relative: String, _ bytes: [UInt8]) throws {
    try Data(bytes).write(to: directory.url.appendingPathComponent(relative))
  }

  func playlist(_ number: Int, _ playlist: MoviePlaylist) throws {
    try write(String(format: "BDMV/PLAYLIST/%05d.mpls", number), playlist.serialize())
  }

  func clip(_ id: String, _ info: ClipInformation) throws {
    try write("BDMV/CLIPINF/\(id).clpi", info.serialize())
  }

  /// index.bdmv with one HDMV title per movie object, and MovieObject.bdmv playing `plays[i]` in object i.
  func navigation(plays: [[UInt32]]) throws {
    let index = BDMVIndex(
      firstPlay: .none, topMenu: .none,
      titles: plays.indices.map {
        BDMVIndex.Title(object: .hdmv(movieObject: UInt16($0), playbackType: 0))
      })
    try write("BDMV/index.bdmv", index.serialize())
    let objects = MovieObjectFile(
      objects: plays.map {
        MovieObjectFile.MovieObject(commands: $0.map { NavigationCommand.playPlaylist($0) })
      })
    try write("BDMV/MovieObject.bdmv", objects.serialize())
  }

  /// A clip of `seconds` seconds starting at PTS `start45k`, with one entry point per second
  /// every `packetsPerSecond` packets.
  static func clipInfo(seconds: Int, start45k: UInt32 = 27000, packetsPerSecond: UInt32 = 1000)
    -> ClipInformation
  {
    let entries = (0..<seconds).map {
      (pts45k: start45k + UInt32($0) * 45000, spn: UInt32($0) * packetsPerSecond)
    }
    return ClipInformation(
      sourcePacketCount: UInt32(seconds) * packetsPerSecond,
      sequence: ClipSequenceInfo(atcSequences: [
        .init(stcSequences: [
          .init(
            pcrPID: 0x1001, spnSTCStart: 0, presentationStartTime: start45k,
            presentationEndTime: start45k + UInt32(seconds) * 45000)
        ])
      ]),
      program: ClipProgramInfo(programs: [
        .init(streams: [
          .init(pid: 0x1011, codingType: 0x1B, format: 6, rate: 1),
          .init(pid: 0x1100, codingType: 0x81, format: 3, rate: 1, language: "eng"),
        ])
      ]),
      epMap: EPMap(streams: [EPMap.Stream(pid: 0x1011, entries: entries)]))
  }

  static let standardStreams: StreamNumberTable = {
    var stn = StreamNumberTable()
    stn.video = [PlaylistStream(pid: 0x1011, codingType: 0x1B, format: 6, rate: 1)]
    stn.audio = [PlaylistStream(pid: 0x1100, codingType: 0x81, format: 3, rate: 1, language: "eng")]
    return stn
  }()

  /// A play item of `clip` from second `from` to second `to` of a clip made by ``clipInfo(seconds:start45k:packetsPerSecond:)``.
  static func item(
    _ clip: String, from: Int, to: Int, start45k: UInt32 = 27000, connection: UInt8 = 1
  ) -> PlayItem {
    PlayItem(
      clips: [PlayItemClip(clipID: clip)], connectionCondition: connection,
      inTime: start45k + UInt32(from) * 45000, outTime: start45k + UInt32(to) * 45000,
      streams: standardStreams)
  }

  static func marks(every seconds: Int, items: [PlayItem]) -> [PlaylistMark] {
    var marks: [PlaylistMark] = []
    for (i, item) in items.enumerated() {
      var t = item.inTime
      while t < item.outTime {
        marks.append(PlaylistMark(playItemRef: UInt16(i), time: t))
        t += UInt32(seconds) * 45000
      }
    }
    return marks
  }
}
