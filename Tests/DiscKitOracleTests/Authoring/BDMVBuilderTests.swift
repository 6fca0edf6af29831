@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
@_spi(Formats) import DiscKitReference
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// Discs built from ffmpeg clips, checked with libbluray (the bridge, bd_list_titles, bd_splice),
/// ffprobe and libudfread.
@Suite(
  "BDMV builder",
  .enabled(if: BDMVTestClips.available, Comment(rawValue: BDMVTestClips.missing)),
  .serialized, .toolThreads)
struct BDMVBuilderTests {
  /// A disc: title 1 = a.ts + b.ts (chapters every second), title 2 = c.m2ts (192-byte input),
  /// one decoy of title 1.
  struct Built {
    let dir: TemporaryDirectory
    let clips: BDMVTestClips
    let result: BDMVBuilder.Result
    var image: String { dir.file("disc.iso") }
    var folder: String { dir.file("folder") }
  }

  static func buildSimple(interval: Double = 1) throws -> Built {
    let clips = try BDMVTestClips.get()
    let dir = try TemporaryDirectory("disckit-bdmv")
    let sources = [clips.file("a.ts"), clips.file("b.ts"), clips.file("c.m2ts")]
    let builder = try BDMVBuilder(
      clips: sources,
      titles: [
        .init(clips: [sources[0], sources[1]]), .init(clips: [sources[2]]),
      ],
      options: .init(
        chapterInterval: interval, decoys: [.sameSegments(title: 0)]))
    let result = try builder.writeImage(to: dir.file("disc.iso"))
    _ = try builder.writeFolder(to: dir.file("folder"))
    return Built(dir: dir, clips: clips, result: result)
  }

  /// The chapter starts (title time, 90 kHz) a title of `items` should get: at 0 and every
  /// `interval` seconds, each at the last keyframe at or before it (from ffprobe).
  static func expectedChapters(_ items: [BDMVTestClips.Video], interval: Double) -> [Int64] {
    var marks: [Int64] = [0]
    var itemStart: Int64 = 0
    let step = Int64(interval * 90000)
    var target = step
    for video in items {
      while target < itemStart + video.duration {
        let goal = video.start + (target - itemStart)
        if let key = video.keyframes.last(where: { $0 <= goal }) {
          let t = itemStart + key - video.start
          if marks.last != t { marks.append(t) }
        }
        target += step
      }
      itemStart += video.duration
    }
    return marks
  }

  @Test func libblurayOpensTheDiscWithTheRequestedTitles() throws {
    let built = try Self.buildSimple()
    let a = try BDMVTestClips.probeVideo(built.clips.file("a.ts"))
    let b = try BDMVTestClips.probeVideo(built.clips.file("b.ts"))
    let c = try BDMVTestClips.probeVideo(built.clips.file("c.m2ts"))
    for path in [built.image, built.folder] {
      let bd = try Reference.Bluray(path: path)
      #expect(bd.titleCount(flags: 0) == 3, "\(path)")
      let t1 = try #require(bd.playlistInfo(0))
      #expect(Int64(t1.duration90k) == a.duration + b.duration)
      #expect(t1.clips.count == 2)
      #expect(t1.chapters.map { Int64($0.start90k) } == Self.expectedChapters([a, b], interval: 1))
      let t2 = try #require(bd.playlistInfo(1))
      #expect(Int64(t2.duration90k) == c.duration)
      #expect(t2.chapters.map { Int64($0.start90k) } == Self.expectedChapters([c], interval: 1))
      // The decoy: the same clips, every other chapter.
      let decoy = try #require(bd.playlistInfo(2))
      #expect(decoy.duration90k == t1.duration90k)
      #expect(decoy.chapters.count == (t1.chapters.count + 1) / 2)
    }
  }

  @Test func bdSpliceExtractsEachTitleAndFFprobeReadsIt() throws {
    #expect(Tool.has("bd_splice"))
    let built = try Self.buildSimple()
    let expected = [
      (1, ["a.ts", "b.ts"]), (2, ["c.m2ts"]),
    ]
    for (title, sources) in expected {
      let out = built.dir.file("title\(title).m2ts")
      let run = try Tool.run("bd_splice", ["-t", "\(title)", built.image, out])
      #expect(run.status == 0, "\(run.stderr)")
      var frames = 0
      var audio = 0
      for s in sources {
        let counts = try BDMVTestClips.countFrames(built.clips.file(s))
        frames += counts["video"] ?? 0
        // The whole clip plays, so libbluray passes every audio frame up to the out-time (it
        // wipes PES packets starting after it).
        let video = try BDMVTestClips.probeVideo(built.clips.file(s))
        audio += try BDMVTestClips.audioPTS(built.clips.file(s)).count {
          $0 <= video.start + video.duration
        }
      }
      let got = try BDMVTestClips.countFrames(out)
      #expect(got["video"] == frames, "title \(title)")
      #expect(got["audio"] == audio, "title \(title)")
    }
  }

  /// Whether the first video PES after `bytes[0]` (192-byte source packets) starts an IDR
  /// picture: its first slice NAL unit is type 5 (an independent walk, not DiscKit's scanner).
  static func firstVideoPESIsIDR(_ bytes: [UInt8], videoPID: UInt16) -> Bool? {
    var i = 0
    var pes: [UInt8] = []
    var collecting = false
    while i + 192 <= bytes.count {
      let p = Array(bytes[(i + 4)..<(i + 192)])
      i += 192
      guard p[0] == 0x47 else { return nil }
      let pid = UInt16(p[1] & 0x1F) << 8 | UInt16(p[2])
      guard pid == videoPID else { continue }
      let unitStart = p[1] & 0x40 != 0
      var start = 4
      if p[3] & 0x20 != 0 { start = 5 + Int(p[4]) }
      guard p[3] & 0x10 != 0, start < 188 else { continue }
      if unitStart {
        if collecting { break }
        collecting = true
      }
      if collecting { pes += p[start...] }
      if pes.count > 4096 { break }
    }
    guard pes.count > 9 else { return nil }
    let payload = Array(pes[(9 + Int(pes[8]))...])
    var j = 0
    while j + 3 < payload.count {
      if payload[j] == 0, payload[j + 1] == 0, payload[j + 2] == 1 {
        let type = payload[j + 3] & 0x1F
        if type == 5 { return true }
        if type == 1 { return false }
        j += 3
      } else {
        j += 1
      }
    }
    return nil
  }

  @Test func libbluraySeekByTimeLandsOnAKeyframe() throws {
    let built = try Self.buildSimple()
    let bd = try Reference.Bluray(path: built.image)
    let videoPID = try #require(built.result.clips.first?.videoPID)
    let info = try #require(bd.playlistInfo(0))
    let disc = try BlurayDisc(disc: try DiscImage.open(path: built.image)).title(
      playlist: "00000.mpls")
    let source = try disc.byteSource()
    var checked = 0
    for tenth in stride(from: 0, to: Int(info.duration90k / 9000), by: 3) {
      #expect(bd.selectPlaylist(0))
      let target = UInt64(tenth) * 9000
      let position = bd.seekTime(target)
      #expect(position >= 0)
      #expect(bd.time90k <= target, "seek to \(target) lands at or before it")
      #expect(bd.time90k + 90000 >= target, "within a GOP (1 s) of \(target)")
      var bytes: [UInt8] = []
      _ = bd.readToEnd(limit: 64 * 1024) { bytes += $0 }
      #expect(bytes.count >= 192)
      #expect(
        Self.firstVideoPESIsIDR(bytes, videoPID: videoPID) == true,
        "seek to \(Double(target) / 90000) s (byte \(position))")
      // DiscKit's playback start (prefix + title bytes from its offset) is exactly what
      // libbluray's first read after the seek returns: both back up over PAT/PMT/PCR packets.
      let start = try disc.playbackStart(forTitleTime: target)
      let count = min(bytes.count, start.prefix.count + 6144)
      let ours =
        start.prefix
        + (try source.bytes(
          at: start.offset, count: min(count - start.prefix.count, Int(source.size - start.offset))))
      #expect(
        ours == Array(bytes[0..<ours.count]), "playback start for \(Double(target) / 90000) s")
      #expect(start.offset - Int64(start.prefix.count) == Int64(bd.position) - Int64(bytes.count))
      // The spliced source read from its offset is libbluray's stream at libbluray's positions.
      let spliced = try start.splice(into: source)
      #expect(spliced.offset == Int64(bd.position) - Int64(bytes.count))
      let n = min(count, Int(spliced.source.size - spliced.offset))
      #expect(try spliced.source.bytes(at: spliced.offset, count: n) == Array(bytes[0..<n]))
      checked += 1
    }
    #expect(checked >= 20)
  }

  @Test func disckitListsTheSameTitlesAsLibbluray() throws {
    let built = try Self.buildSimple()
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: built.folder))
    for path in [built.image, built.folder] {
      let bd = try Reference.Bluray(path: path)
      for (number, _) in built.result.playlists {
        let name = BDMVBuilder.fiveDigits(number) + ".mpls"
        let title = try disc.title(playlist: name)
        let info = try #require(bd.playlistInfo(number))
        #expect(title.duration90k == info.duration90k, "\(name)")
        #expect(title.chapters.count == info.chapters.count, "\(name)")
        #expect(title.chapters.map(\.offset) == info.chapters.map { Int64($0.offset) }, "\(name)")
        #expect(title.clips.map(\.packetCount) == info.clips.map(\.packetCount), "\(name)")
        #expect(bd.selectPlaylist(number))
        #expect(UInt64(title.size) == bd.titleSize, "\(name)")
      }
    }
    // DiscKit's UDF reader opens the image, which lists the same titles as the folder.
    let image = try DiscImage.open(path: built.image)
    let fromImage = try BlurayDisc(fileSystem: image.fileSystem)
    #expect(fromImage.playlists.map(\.name).sorted() == disc.playlists.map(\.name).sorted())
  }

  @Test(.enabled(if: Tool.has("bd_list_titles"), "bd_list_titles is not installed"))
  func bdListTitlesOnTheImageEqualsTheFolder() throws {
    let built = try Self.buildSimple()
    func titles(_ path: String) throws -> [String] {
      let result = try Tool.run("bd_list_titles", ["-a", path])
      #expect(result.status == 0)
      return result.text.split(separator: "\n").compactMap { line in
        line.range(of: "duration:").map { String(line[$0.lowerBound...]) }
      }.sorted()
    }
    let image = try titles(built.image)
    #expect(image.count == 3)
    #expect(image == (try titles(built.folder)))
  }

  @Test func theImageReadsLikeTheFolder() throws {
    let built = try Self.buildSimple()
    let udf = try Reference.UDFImage(path: built.image)
    let expected = try AuthoringFixtures.folderListing(built.folder)
    #expect(udf.recursiveListing().map(\.path).sorted() == expected.map(\.path))
    let imageSizes: [String: Int64] = Dictionary(
      uniqueKeysWithValues: udf.recursiveListing().map { ($0.path, $0.size) })
    for entry in expected where !entry.isDirectory {
      #expect(imageSizes[entry.path] == entry.size, "\(entry.path)")
    }
    for entry in expected where !entry.isDirectory {
      #expect(
        Data(try udf.readFile(entry.path))
          == (try Data(contentsOf: URL(fileURLWithPath: built.folder + entry.path))),
        "\(entry.path)")
    }
    if Tool.has("udfinfo") {
      #expect(try AuthoringFixtures.udfinfo(built.image).status == 0)
    }
    if Tool.has("7z") {
      let listing = try Tool.run("7z", ["l", built.image])
      #expect(listing.status == 0)
      #expect(listing.text.contains("00000.m2ts"))
    }
  }

  /// The EP map as libbluray parses it has the coarse/fine layout the format defines, computed
  /// here from ffprobe's keyframe PTS and the keyframes' packet numbers in the built clip.
  @Test func epMapLayoutAsLibblurayParsesIt() throws {
    let built = try Self.buildSimple()
    for (i, id) in built.result.clipIDs.enumerated() {
      let stream = built.folder + "/BDMV/STREAM/\(id).m2ts"
      let probe = try Tool.run(
        "ffprobe",
        [
          "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,pos,flags",
          "-of", "csv=p=0", stream,
        ])
      var entries: [(pts: Int64, spn: Int64)] = []
      for line in probe.text.split(separator: "\n") {
        let parts = line.split(separator: ",")
        guard parts.count >= 3, parts[2].hasPrefix("K"), let pts = Int64(parts[0]),
          let pos = Int64(parts[1])
        else { continue }
        entries.append((pts, pos / 192))
      }
      #expect(!entries.isEmpty)
      var coarse = 0
      var last: (Int64, Int64)?
      for e in entries {
        let key = ((e.pts >> 19) & 0x3FFF, e.spn & ~0x1FFFF)
        if last.map({ $0 != key }) ?? true { coarse += 1 }
        last = key
      }
      let parsed = try #require(
        Reference.Bluray.clipInformation(atPath: built.folder + "/BDMV/CLIPINF/\(id).clpi"))
      #expect(parsed.fine == entries.count, "\(id)")
      #expect(parsed.coarse == coarse, "\(id)")
      let size = try FileManager.default.attributesOfItem(atPath: stream)[.size] as? Int ?? 0
      #expect(Int(parsed.packets) * 192 == size)
      #expect(size % 6144 == 0, "aligned units")
      // DiscKit's own reading of the entry points equals ffprobe's keyframes.
      let clpi = try ClipInformation(
        bytes: [UInt8](
          try Data(contentsOf: URL(fileURLWithPath: built.folder + "/BDMV/CLIPINF/\(id).clpi"))))
      let points = try #require(clpi.epMap?.streams.first?.entryPoints)
      #expect(points.map { Int64($0.spn) } == entries.map(\.spn))
      #expect(points.map { Int64($0.pts45k) } == entries.map { ($0.pts >> 1) & ~0xFF })
      _ = i
    }
  }

  @Test func seamlessHalvesConnectWithCondition5() throws {
    let clips = try BDMVTestClips.get()
    let dir = try TemporaryDirectory("disckit-bdmv")
    let halves = [clips.file("half0.ts"), clips.file("half1.ts")]
    let first = try BDMVTestClips.probeVideo(halves[0])
    let second = try BDMVTestClips.probeVideo(halves[1])
    // ffprobe: the second half starts where the first ends.
    #expect(second.start == first.start + first.duration)
    let others = [clips.file("a.ts"), clips.file("b.ts")]
    let builder = try BDMVBuilder(
      clips: halves + others,
      titles: [.init(clips: halves), .init(clips: others)])
    let result = try builder.writeImage(to: dir.file("seamless.iso"))
    let seamless = result.playlists[0].playlist.playItems.map(\.connectionCondition)
    let separate = result.playlists[1].playlist.playItems.map(\.connectionCondition)
    #expect(seamless == [1, 5])
    #expect(separate == [1, 1])
    // libbluray plays a seamless item from its clip's first packet: the title is both clips whole.
    let bd = try Reference.Bluray(path: dir.file("seamless.iso"))
    #expect(bd.selectPlaylist(result.playlists[0].number))
    #expect(bd.titleSize == UInt64(result.clips[0].packetCount + result.clips[1].packetCount) * 192)
    let info = try #require(bd.playlistInfo(result.playlists[0].number))
    #expect(Int64(info.duration90k) == first.duration + second.duration)
    let out = dir.file("seamless.m2ts")
    #expect(
      try Tool.run(
        "bd_splice", ["-p", "\(result.playlists[0].number)", dir.file("seamless.iso"), out]
      ).status == 0)
    let whole = try BDMVTestClips.countFrames(clips.file("whole.ts"))
    #expect(try BDMVTestClips.countFrames(out)["video"] == whole["video"])
  }

  @Test func multiAngleTitle() throws {
    let clips = try BDMVTestClips.get()
    let dir = try TemporaryDirectory("disckit-bdmv")
    let angles = [clips.file("angle1.ts"), clips.file("angle2.ts")]
    let builder = try BDMVBuilder(
      clips: angles, titles: [.init(items: [.init(clip: angles[0], angles: [angles[1]])])])
    let result = try builder.writeImage(to: dir.file("angles.iso"))
    let item = try #require(result.playlists.first?.playlist.playItems.first)
    #expect(item.isMultiAngle && item.angleCount == 2)
    let bd = try Reference.Bluray(path: dir.file("angles.iso"))
    let info = try #require(bd.playlistInfo(0))
    #expect(info.angleCount == 2)
    var streams: [[UInt8]] = []
    for angle in 0..<2 {
      let out = dir.file("angle\(angle).m2ts")
      let run = try Tool.run(
        "bd_splice", ["-p", "0", "-a", "\(angle + 1)", dir.file("angles.iso"), out])
      #expect(run.status == 0)
      let frames = try BDMVTestClips.countFrames(out)["video"]
      #expect(frames == (try BDMVTestClips.countFrames(angles[angle])["video"]))
      streams.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
    }
    #expect(streams[0] != streams[1], "angle 2 plays the second clip")
  }

  /// Hundreds of near-identical playlists: libbluray lists them all; DiscKit's smart selector
  /// still finds the title the navigation plays.
  @Test func decoyHeavyDisc() throws {
    let clips = try BDMVTestClips.get()
    let dir = try TemporaryDirectory("disckit-bdmv")
    let sources = [clips.file("a.ts"), clips.file("b.ts")]
    let builder = try BDMVBuilder(
      clips: sources, titles: [.init(clips: sources, playlistNumber: 800)],
      options: .init(decoys: BDMVBuilder.Decoy.obfuscation(title: 0, count: 300)))
    let result = try builder.writeFolder(to: dir.file("decoys"))
    #expect(result.playlists.count == 301)
    let bd = try Reference.Bluray(path: dir.file("decoys"))
    #expect(bd.titleCount(flags: 0) == 301)
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: dir.file("decoys")))
    var navigation: [Int: [Int]] = [:]
    for (title, reach) in disc.navigationPlaylists() {
      for p in reach.playlists { navigation[p, default: []].append(title) }
    }
    #expect(navigation[800] != nil)
    let selection = SmartTitleSelector.select(
      disc.playlists.map { .init(name: $0.name, number: $0.number, playlist: $0.playlist) },
      navigation: navigation, minSeconds: 1)
    #expect(selection.main == "00800.mpls")
  }

  /// A flood of shuffled decoys with an authored navigation that computes the feature's number
  /// in a register (799 + 1): DiscKit's HDMV machine and libbluray's VM both start 00800 from
  /// First Play on the written disc (real clips, so libbluray plays the stream), and the smart
  /// selector picks it on navigation evidence.
  @Test func authoredNavigationComputesTheFeature() throws {
    let clips = try BDMVTestClips.get()
    let dir = try TemporaryDirectory("disckit-bdmv")
    let sources = [clips.file("a.ts"), clips.file("b.ts")]
    let objects = MovieObjectFile(objects: [
      .init(commands: [
        .set(.move, .gpr(3), .immediate(799)), .set(.add, .gpr(3), .immediate(1)),
        .playPlaylist(.gpr(3)),
      ])
    ])
    // libbluray rejects an index.bdmv whose Top Menu has no object ("No disc index").
    let index = BDMVIndex(
      firstPlay: .hdmv(movieObject: 0, playbackType: 0),
      topMenu: .hdmv(movieObject: 0, playbackType: 1),
      titles: [.init(object: .hdmv(movieObject: 0, playbackType: 0))])
    var options = BDMVBuilder.Options(
      decoys: (0..<12).map { .shuffled(title: 0, pieces: 3, seed: UInt64($0)) })
    options.navigation = (index, objects)
    let builder = try BDMVBuilder(
      clips: sources, titles: [.init(clips: sources, playlistNumber: 800)], options: options)
    let result = try builder.writeFolder(to: dir.file("nav"))
    #expect(result.index == index)
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: dir.file("nav")))
    let machine = try #require(disc.hdmvMachine)
    #expect(machine.run(.firstPlay).playlists == [800])
    let events = try Reference.Bluray(path: dir.file("nav")).navigationEvents()
    #expect(events.contains(.playlist(800)))
    let selection = disc.smartSelection(minSeconds: 1)
    #expect(selection.main == "00800.mpls")
    #expect(selection.confidence == .navigation)
  }

  /// The output does not depend on how the sources are read.
  @Test(arguments: [188 * 7 + 5, 65536, 1 << 22])
  func outputIndependentOfReadChunking(chunk: Int) throws {
    let clips = try BDMVTestClips.get()
    let dir = try TemporaryDirectory("disckit-bdmv")
    let sources = [clips.file("a.ts"), clips.file("c.m2ts")]
    let reference = try BDMVBuilder(clips: sources).writeFolder(to: dir.file("ref"))
    let chunked = try BDMVBuilder(clips: sources, options: .init(readChunkSize: chunk))
      .writeFolder(to: dir.file("chunked"))
    #expect(chunked.clips == reference.clips)
    for id in reference.clipIDs {
      for file in ["BDMV/STREAM/\(id).m2ts", "BDMV/CLIPINF/\(id).clpi"] {
        #expect(
          (try Data(contentsOf: URL(fileURLWithPath: dir.file("ref/" + file))))
            == (try Data(contentsOf: URL(fileURLWithPath: dir.file("chunked/" + file)))))
      }
    }
    // 192-byte input is copied as it is (the clip was already aligned or gets null packets).
    let copied = [UInt8](
      try Data(contentsOf: URL(fileURLWithPath: dir.file("ref/BDMV/STREAM/00001.m2ts"))))
    let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: sources[1])))
    #expect(Array(copied.prefix(original.count)) == original)
    // 188-byte input: every packet kept, behind a TP_extra_header with copy permission 0; PIDs
    // move one-to-one (PSI sections are rewritten, other packets keep their bytes).
    let converted = [UInt8](
      try Data(contentsOf: URL(fileURLWithPath: dir.file("ref/BDMV/STREAM/00000.m2ts"))))
    let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: sources[0])))
    #expect(converted.count >= input.count / 188 * 192)
    var ats: [UInt32] = []
    var pidMap: [UInt16: UInt16] = [:]
    for k in 0..<(input.count / 188) {
      let old = UInt16(input[k * 188 + 1] & 0x1F) << 8 | UInt16(input[k * 188 + 2])
      let new = UInt16(converted[k * 192 + 5] & 0x1F) << 8 | UInt16(converted[k * 192 + 6])
      #expect(pidMap[old, default: new] == new)
      pidMap[old] = new
      if old != 0 && old != 0x11 && old != 0x1000 {
        #expect(
          Array(converted[(k * 192 + 7)..<(k * 192 + 192)])
            == Array(input[(k * 188 + 3)..<(k * 188 + 188)]))
      }
      #expect(converted[k * 192] & 0xC0 == 0)
      let b0 = UInt32(converted[k * 192] & 0x3F) << 24
      let b1 = UInt32(converted[k * 192 + 1]) << 16
      let b2 = UInt32(converted[k * 192 + 2]) << 8
      ats.append(b0 | b1 | b2 | UInt32(converted[k * 192 + 3]))
    }
    #expect(zip(ats, ats.dropFirst()).allSatisfy { $0 <= $1 }, "arrival times never go back")
    #expect(Set(pidMap.values).count == pidMap.count)
    // ffprobe reads the converted clip with the Blu-ray PIDs.
    let probe = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-show_entries", "stream=id,codec_name", "-of", "csv=p=0",
        dir.file("ref/BDMV/STREAM/00000.m2ts"),
      ])
    #expect(probe.text.contains("0x1011") && probe.text.contains("0x1100"), "\(probe.text)")
  }
}
