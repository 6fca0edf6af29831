import CBluray
import DiscKit
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

extension Reference {
  /// A disc (image or folder) opened with libbluray.
  ///
  /// Not thread-safe: libbluray keeps one current title and read position per handle.
  public final class Bluray: @unchecked Sendable {
    // @unchecked: one handle is used by one test or command at a time.
    private let bd: OpaquePointer

    /// A stream of a clip's STN view (`BLURAY_STREAM_INFO`).
    public struct Stream: Sendable, Hashable {
      public var codingType: UInt8
      public var format: UInt8
      public var rate: UInt8
      public var language: String
      public var pid: UInt16
      /// `subpath_id`: the sub-path holding the stream (libbluray sets it for out-of-mux
      /// streams; 0 otherwise).
      public var subPathID: UInt8
    }

    /// A clip of a libbluray title.
    public struct Clip: Sendable, Hashable {
      public var clipID: String
      public var packetCount: UInt32
      public var startTime90k: UInt64
      public var inTime90k: UInt64
      public var outTime90k: UInt64
      public var videoCount: Int
      public var audioCount: Int
      public var pgCount: Int
      public var igCount: Int
      public var secondaryAudioCount: Int
      public var secondaryVideoCount: Int
      public var stillMode: UInt8
      /// `sec_audio_streams`.
      public var secondaryAudio: [Stream] = []
    }

    /// A chapter of a libbluray title.
    public struct Chapter: Sendable, Hashable {
      public var start90k: UInt64
      public var duration90k: UInt64
      public var offset: UInt64
    }

    /// `BLURAY_TITLE_INFO`.
    public struct TitleInfo: Sendable {
      public var playlist: UInt32
      public var duration90k: UInt64
      public var angleCount: Int
      public var clips: [Clip]
      public var chapters: [Chapter]
      public var markCount: Int
    }

    /// Opens `path` (an image file or a folder holding BDMV/) with `bd_open`.
    ///
    /// Opens are serialized, and libxml2 (which libbluray uses for `BDMV/META/DL`) is initialized
    /// once before the first: libxml2 2.9's lazy global initialization is not thread-safe, and
    /// tests opening discs in parallel crashed inside it (signal 11, once in many runs).
    public init(path: String) throws(DiscKitError) {
      let bd = Self.openLock.withLock { _ -> OpaquePointer? in
        _ = Self.xmlInitialized
        return bd_open(path, nil)
      }
      guard let bd else {
        throw DiscKitError(.cannotOpen, "libbluray", at: nil, "bd_open failed for \(path)")
      }
      self.bd = bd
    }

    private static let openLock = Mutex<Void>(())

    /// `xmlInitParser()`, looked up at run time (libxml2 is libbluray's dependency, not ours).
    private static let xmlInitialized: Void = {
      typealias Initialize = @convention(c) () -> Void
      if let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "xmlInitParser") {
        unsafeBitCast(symbol, to: Initialize.self)()
      }
    }()

    deinit { bd_close(bd) }

    /// `bd_get_titles(flags, minSeconds)`: the number of titles.
    public func titleCount(flags: UInt8, minSeconds: UInt32 = 0) -> Int {
      Int(bd_get_titles(bd, flags, minSeconds))
    }

    /// `bd_get_main_title` (after ``titleCount(flags:minSeconds:)``).
    public var mainTitle: Int { Int(bd_get_main_title(bd)) }

    /// `bd_get_title_info(index, angle)`.
    public func titleInfo(_ index: Int, angle: Int = 0) -> TitleInfo? {
      guard let info = bd_get_title_info(bd, UInt32(index), UInt32(angle)) else { return nil }
      defer { bd_free_title_info(info) }
      return Self.convert(info.pointee)
    }

    /// `bd_get_playlist_info(number, angle)`.
    public func playlistInfo(_ number: Int, angle: Int = 0) -> TitleInfo? {
      guard let info = bd_get_playlist_info(bd, UInt32(number), UInt32(angle)) else { return nil }
      defer { bd_free_title_info(info) }
      return Self.convert(info.pointee)
    }

    private static func stream(_ s: BLURAY_STREAM_INFO) -> Stream {
      let language = withUnsafeBytes(of: s.lang) { raw in
        String(decoding: raw.prefix(3).filter { $0 != 0 }, as: UTF8.self)
      }
      return Stream(
        codingType: s.coding_type, format: s.format, rate: s.rate, language: language,
        pid: s.pid, subPathID: s.subpath_id)
    }

    private static func convert(_ t: BLURAY_TITLE_INFO) -> TitleInfo {
      var clips: [Clip] = []
      for i in 0..<Int(t.clip_count) {
        guard let c = t.clips?[i] else { continue }
        let id = withUnsafeBytes(of: c.clip_id) { raw in
          String(decoding: raw.prefix(5).filter { $0 != 0 }, as: UTF8.self)
        }
        clips.append(
          Clip(
            clipID: id, packetCount: c.pkt_count, startTime90k: c.start_time, inTime90k: c.in_time,
            outTime90k: c.out_time, videoCount: Int(c.video_stream_count),
            audioCount: Int(c.audio_stream_count),
            pgCount: Int(c.pg_stream_count), igCount: Int(c.ig_stream_count),
            secondaryAudioCount: Int(c.sec_audio_stream_count),
            secondaryVideoCount: Int(c.sec_video_stream_count),
            stillMode: c.still_mode,
            secondaryAudio: (0..<Int(c.sec_audio_stream_count)).compactMap { k in
              c.sec_audio_streams.map { stream($0[k]) }
            }))
      }
      var chapters: [Chapter] = []
      for i in 0..<Int(t.chapter_count) {
        guard let c = t.chapters?[i] else { continue }
        chapters.append(Chapter(start90k: c.start, duration90k: c.duration, offset: c.offset))
      }
      return TitleInfo(
        playlist: t.playlist, duration90k: t.duration, angleCount: Int(t.angle_count), clips: clips,
        chapters: chapters, markCount: Int(t.mark_count))
    }

    /// `bd_select_playlist(number)`.
    @discardableResult
    public func selectPlaylist(_ number: Int) -> Bool {
      bd_select_playlist(bd, UInt32(number)) != 0
    }

    /// `bd_select_title(index)`.
    @discardableResult
    public func selectTitle(_ index: Int) -> Bool { bd_select_title(bd, UInt32(index)) != 0 }

    /// `bd_select_angle(angle)`.
    @discardableResult
    public func selectAngle(_ angle: Int) -> Bool { bd_select_angle(bd, UInt32(angle)) != 0 }

    /// `bd_get_title_size()` of the selected title.
    public var titleSize: UInt64 { bd_get_title_size(bd) }

    /// `bd_seek_chapter(chapter)`.
    @discardableResult
    public func seekChapter(_ chapter: Int) -> Int64 { bd_seek_chapter(bd, UInt32(chapter)) }

    /// `bd_seek_time(tick90k)`: returns the new byte position.
    @discardableResult
    public func seekTime(_ tick90k: UInt64) -> Int64 { bd_seek_time(bd, tick90k) }

    /// `bd_seek(pos)`.
    @discardableResult
    public func seek(_ position: UInt64) -> Int64 { bd_seek(bd, position) }

    /// `bd_tell()`.
    public var position: UInt64 { bd_tell(bd) }

    /// `bd_tell_time()` (90 kHz).
    public var time90k: UInt64 { bd_tell_time(bd) }

    /// Reads with `bd_read` until it returns ≤ 0 (what `bd_splice` writes), in 192 KiB calls.
    public func readToEnd(limit: Int = 1 << 31, sink: (UnsafeRawBufferPointer) -> Void) -> Int {
      let size = 192 * 1024
      let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
      defer { buffer.deallocate() }
      var total = 0
      while total < limit {
        let got = bd_read(bd, buffer, Int32(size))
        if got <= 0 { break }
        sink(UnsafeRawBufferPointer(start: buffer, count: Int(got)))
        total += Int(got)
      }
      return total
    }

    /// Whether libbluray's `bd_read_mpls` parses the playlist file at `path`.
    public static func parsesPlaylist(atPath path: String) -> Bool {
      guard let pl = bd_read_mpls(path) else { return false }
      bd_free_mpls(pl)
      return true
    }

    /// Whether libbluray's `bd_read_clpi` parses the clip information file at `path`.
    public static func parsesClipInformation(atPath path: String) -> Bool {
      guard let cl = bd_read_clpi(path) else { return false }
      bd_free_clpi(cl)
      return true
    }

    /// `num_source_packets` and the EP map of stream 0 as libbluray parsed them (`bd_read_clpi`).
    public static func clipInformation(atPath path: String) -> (
      packets: UInt32, coarse: Int, fine: Int
    )? {
      guard let cl = bd_read_clpi(path) else { return nil }
      defer { bd_free_clpi(cl) }
      let c = cl.pointee
      var coarse = 0
      var fine = 0
      if c.cpi.num_stream_pid > 0, let entry = c.cpi.entry {
        coarse = Int(entry[0].num_ep_coarse)
        fine = Int(entry[0].num_ep_fine)
      }
      return (c.clip.num_source_packets, coarse, fine)
    }

    /// One ProgramInfo stream of a clip information file as libbluray's `bd_read_clpi` parses
    /// it (`CLPI_PROG_STREAM`).
    public struct ClipProgramStream: Sendable, Hashable {
      /// `pid`, `coding_type`, `format`, `rate`, `aspect`.
      public var pid: UInt16
      public var codingType: UInt8
      public var format: UInt8
      public var rate: UInt8
      public var aspect: UInt8
      /// The HEVC fields: `dynamic_range_type`, `color_space`, `cr_flag`, `hdr_plus_flag`.
      public var dynamicRangeType: UInt8
      public var colorSpace: UInt8
      public var crFlag: Bool
      public var hdrPlusFlag: Bool
      /// `lang`.
      public var language: String
    }

    /// The streams of every program of the clip information file at `path` (`bd_read_clpi`), or
    /// `nil` when libbluray does not parse it.
    public static func clipProgramStreams(atPath path: String) -> [[ClipProgramStream]]? {
      guard let cl = bd_read_clpi(path) else { return nil }
      defer { bd_free_clpi(cl) }
      let info = cl.pointee.program
      var programs: [[ClipProgramStream]] = []
      for p in 0..<Int(info.num_prog) {
        guard let prog = info.progs?[p] else { continue }
        var streams: [ClipProgramStream] = []
        for i in 0..<Int(prog.num_streams) {
          guard let s = prog.streams?[i] else { continue }
          let lang = withUnsafeBytes(of: s.lang) { raw in
            String(decoding: raw.prefix(3).filter { $0 != 0 }, as: UTF8.self)
          }
          streams.append(
            ClipProgramStream(
              pid: s.pid, codingType: s.coding_type, format: s.format, rate: s.rate,
              aspect: s.aspect, dynamicRangeType: s.dynamic_range_type,
              colorSpace: s.color_space, crFlag: s.cr_flag != 0, hdrPlusFlag: s.hdr_plus_flag != 0,
              language: lang))
        }
        programs.append(streams)
      }
      return programs
    }

    /// A navigation event of libbluray's player (`bd_play` with menus).
    public enum NavigationEvent: Sendable, Hashable {
      /// `BD_EVENT_TITLE`: a title starts (0 top menu, 0xFFFF first play).
      case title(Int)
      /// `BD_EVENT_PLAYLIST`: a playlist starts (libbluray reports it even when the clip's
      /// stream file is absent; it then skips the playlist and its HDMV program goes on).
      case playlist(Int)
    }

    /// Plays the disc with libbluray's HDMV VM: `bd_play` (First Play), or, with `title`,
    /// `bd_play` then at once `bd_play_title(title)` (before First Play's program has run, so the
    /// title starts from the initial registers); then `bd_read_ext` `reads`
    /// times, collecting the title and playlist events (a looping menu keeps producing them, so
    /// the loop is cut by the read count).
    public func navigationEvents(title: Int? = nil, reads: Int = 200) -> [NavigationEvent] {
      var events: [NavigationEvent] = []
      var buffer = [UInt8](repeating: 0, count: 6144)
      func drain(_ count: Int) {
        for _ in 0..<count {
          var event = BD_EVENT()
          _ = buffer.withUnsafeMutableBufferPointer {
            bd_read_ext(bd, $0.baseAddress, Int32($0.count), &event)
          }
          record(event)
          while bd_get_event(bd, &event) != 0 { record(event) }
        }
      }
      func record(_ event: BD_EVENT) {
        switch event.event {
        case UInt32(BD_EVENT_TITLE.rawValue): events.append(.title(Int(event.param)))
        case UInt32(BD_EVENT_PLAYLIST.rawValue): events.append(.playlist(Int(event.param)))
        default: break
        }
      }
      guard bd_play(bd) != 0 else { return [] }
      if let title {
        guard bd_play_title(bd, UInt32(title)) != 0 else { return [] }
      }
      drain(reads)
      return events
    }
  }
}
