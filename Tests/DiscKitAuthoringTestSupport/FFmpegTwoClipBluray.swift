@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitTestSupport
import Foundation
import Testing

/// A two-clip Blu-ray folder over real M2TS made by ffmpeg (320x240 25 fps H.264 with a key frame
/// a second, AC-3), with clip information and a playlist written from the streams' own key
/// frames. Shared by the extraction, chapter-range and concurrent-read tests.
package enum FFmpegTwoClipBluray {
  /// A 192-byte-packet stream made by ffmpeg, and its key frames found by an independent walk
  /// (video PES starts flagged random-access in their adaptation field).
  package struct Stream {
    package var bytes: [UInt8]
    package var keyFrames: [(pts45k: UInt32, spn: UInt32)]
    package var lastPTS45k: UInt32
    package var packets: Int { bytes.count / 192 }

    package init(bytes: [UInt8], keyFrames: [(pts45k: UInt32, spn: UInt32)], lastPTS45k: UInt32) {
      self.bytes = bytes
      self.keyFrames = keyFrames
      self.lastPTS45k = lastPTS45k
    }

    /// The stream in the file at `path`, its key frames found by walking its packets: video
    /// (PID 0x1011) PES starts flagged random-access in their adaptation field.
    package init(walking path: String) throws {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      var keys: [(pts45k: UInt32, spn: UInt32)] = []
      var last: UInt32 = 0
      for i in 0..<bytes.count / 192 {
        let p = i * 192 + 4
        let pid = Int(bytes[p + 1] & 0x1F) << 8 | Int(bytes[p + 2])
        guard pid == 0x1011, bytes[p + 1] & 0x40 != 0 else { continue }
        var payload = p + 4
        var rai = false
        if bytes[p + 3] & 0x20 != 0 {
          let length = Int(bytes[p + 4])
          rai = length > 0 && bytes[p + 5] & 0x40 != 0
          payload += 1 + length
        }
        guard bytes[payload] == 0, bytes[payload + 1] == 0, bytes[payload + 2] == 1,
          bytes[payload + 7] & 0x80 != 0
        else { continue }
        let b = bytes[(payload + 9)...(payload + 13)].map(UInt64.init)
        let pts = (b[0] >> 1 & 7) << 30 | b[1] << 22 | (b[2] >> 1) << 15 | b[3] << 7 | b[4] >> 1
        last = max(last, UInt32(pts / 2))
        if rai { keys.append((UInt32(pts / 2), UInt32(i))) }
      }
      self.init(bytes: bytes, keyFrames: keys, lastPTS45k: last)
    }
  }

  /// A stream of `seconds` seconds with its timestamps offset by `offsetSeconds`, written by
  /// ffmpeg to `name` in `dir`.
  package static func makeStream(
    seconds: Int, offsetSeconds: Int, in dir: TemporaryDirectory, name: String
  )
    throws -> Stream
  {
    let path = dir.file(name)
    let result = try Tool.run(
      "ffmpeg",
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi",
        "-i",
        "sine=frequency=440:sample_rate=48000", "-t", "\(seconds)", "-c:v", "libx264", "-g", "25",
        "-keyint_min", "25",
        "-sc_threshold", "0", "-bf", "0", "-pix_fmt", "yuv420p", "-c:a", "ac3", "-output_ts_offset",
        "\(offsetSeconds)",
        "-f", "mpegts", "-mpegts_m2ts_mode", "1", path,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    return try Stream(walking: path)
  }

  /// Clip information for `s`: one STC sequence from its first key frame, its key frames as the
  /// EP map.
  package static func clipInformation(_ s: Stream) -> ClipInformation {
    ClipInformation(
      sourcePacketCount: UInt32(s.packets),
      sequence: ClipSequenceInfo(atcSequences: [
        .init(stcSequences: [
          .init(
            pcrPID: 0x1011, spnSTCStart: 0, presentationStartTime: s.keyFrames[0].pts45k,
            presentationEndTime: s.lastPTS45k)
        ])
      ]),
      program: ClipProgramInfo(programs: [
        .init(streams: [
          .init(pid: 0x1011, codingType: 0x1B, format: 6, rate: 3),
          .init(pid: 0x1100, codingType: 0x81, format: 3, rate: 1, language: "eng"),
        ])
      ]),
      epMap: EPMap(streams: [EPMap.Stream(pid: 0x1011, entries: s.keyFrames)]))
  }

  /// The STN table of the streams' video and English AC-3.
  package static func streams() -> StreamNumberTable {
    var stn = StreamNumberTable()
    stn.video = [PlaylistStream(pid: 0x1011, codingType: 0x1B, format: 6, rate: 3)]
    stn.audio = [PlaylistStream(pid: 0x1100, codingType: 0x81, format: 3, rate: 1, language: "eng")]
    return stn
  }

  /// Clip A (6 s) whole, then clip B (6 s, PTS continuing after A) from 2.5 s (non-seamless: from
  /// the entry point at 2 s) to its end; chapters at both items' in-times and at 4 s into A.
  package static func make() throws -> (SyntheticBluray, Stream, Stream) {
    let disc = try SyntheticBluray()
    let a = try makeStream(seconds: 6, offsetSeconds: 0, in: disc.directory, name: "a.m2ts")
    let b = try makeStream(seconds: 6, offsetSeconds: 10, in: disc.directory, name: "b.m2ts")
    try disc.write("BDMV/STREAM/00001.m2ts", a.bytes)
    try disc.write("BDMV/STREAM/00002.m2ts", b.bytes)
    try disc.clip("00001", clipInformation(a))
    try disc.clip("00002", clipInformation(b))
    let inA = a.keyFrames[0].pts45k
    let inB = b.keyFrames[0].pts45k + 45000 * 5 / 2
    let items = [
      PlayItem(
        clips: [PlayItemClip(clipID: "00001")], inTime: inA, outTime: a.lastPTS45k + 1800,
        streams: streams()),
      PlayItem(
        clips: [PlayItemClip(clipID: "00002")], connectionCondition: 1, inTime: inB,
        outTime: b.lastPTS45k + 1800, streams: streams()),
    ]
    let marks = [
      PlaylistMark(playItemRef: 0, time: inA), PlaylistMark(playItemRef: 0, time: inA + 4 * 45000),
      PlaylistMark(playItemRef: 1, time: inB),
    ]
    try disc.playlist(1, MoviePlaylist(playItems: items, marks: marks))
    try disc.navigation(plays: [[1]])
    return (disc, a, b)
  }

  /// All of `source`, read in pieces of `chunk` bytes.
  package static func readAll(_ source: any ByteSource, chunk: Int) throws -> [UInt8] {
    var out: [UInt8] = []
    var position: Int64 = 0
    while position < source.size {
      let n = Int(min(Int64(chunk), source.size - position))
      out += try source.bytes(at: position, count: n)
      position += Int64(n)
    }
    return out
  }
}
