import DiscKit
import Dispatch
import Synchronization

/// The WebVTT subtitle renditions of the titles' fMP4 HLS (`EXT-X-MEDIA TYPE=SUBTITLES`): for
/// every subtitle stream of a title whose language has Tesseract data, a rendition of all its
/// cues and, when some of them are forced, one of the forced cues alone (`FORCED=YES`; Apple's
/// rule: the full one holds them too). Each rendition's media playlist has one WebVTT segment per
/// video segment (the same durations), holding the cues that overlap it (a cue crossing a
/// segment's edge is in both, as HLS allows), after an `X-TIMESTAMP-MAP` that puts title time 0
/// where the fMP4 renditions present it: `MPEGTS` is the first play item's in-time on the
/// continuous timeline minus ``FMP4Title/origin`` (the `tfdt` timeline's 0), `LOCAL` 0.
///
/// The text comes from a ``SubtitleTextProvider``: recognised on the first request of a title's
/// `master.m3u8` (or of a segment), one stream at a time, and kept (the provider's on-disk cache,
/// and the cues in memory here), so later requests and other clients get them at once. A request
/// that needs text still being recognised waits up to ``wait``, then gets
/// ``StreamingError/recognising(_:retryAfter:)`` (503, `Retry-After`). The master playlist lists
/// a forced rendition once the stream's text is known; until then it is sent with `no-cache`.
package final class HLSSubtitles: Sendable {
  /// The group every variant names (`SUBTITLES="subs"`).
  package static let groupID = "subs"

  package let provider: any SubtitleTextProvider
  /// How long a request waits for recognition before the 503.
  package let wait: Duration
  /// The `Retry-After` of that 503, seconds.
  package let retryAfter: Int
  private let titles = Mutex([String: Title]())
  private let jobs = Mutex((map: [String: Job](), clock: UInt64(0)))
  /// Recognition runs one stream at a time (the provider uses every core for it).
  private let queue = DispatchQueue(label: "disckit.subtitles.recognition")
  /// The most streams whose cues are kept in memory.
  private let capacity = 64

  package init(provider: any SubtitleTextProvider, wait: Duration, retryAfter: Int = 5) {
    self.provider = provider
    self.wait = wait
    self.retryAfter = retryAfter
  }

  /// One title's subtitle streams, as the renditions are made from them.
  package struct Title: Sendable {
    /// The cache key (disc, identity, title, angle).
    package var key: String
    package var disc: OpenedDisc
    package var title: DiscTitle
    package var offers: [SubtitleStreamOffer]
    /// Why the streams could not be listed (the helper failed), if it did.
    package var failure: String?
    /// `X-TIMESTAMP-MAP`'s `MPEGTS`: the 90 kHz media time of title time 0.
    package var mpegts: Int64
  }

  /// The streams of `fmp4`'s title, asked of the provider once per title (off the caller's
  /// thread; a failed listing is asked again next time).
  package func title(_ key: String, disc: OpenedDisc, fmp4: FMP4Title) async throws(StreamingError)
    -> Title
  {
    if let known = titles.withLock({ $0[key] }) { return known }
    let provider = self.provider
    let made = try await Self.offThread { () throws(StreamingError) -> Title in
      let resolved: DiscTitle
      do {
        resolved = try disc.disc.title(key: fmp4.key, angle: fmp4.angle)
      } catch let error as DiscKitError {
        throw .disc(error)
      } catch {
        throw .disc(DiscKitError(.io, "title \(fmp4.key)", at: nil, "\(error)"))
      }
      // The first play item's in-time is title time 0 on the continuous timeline (whose first
      // clip keeps its PTS); the fMP4 media time is that timeline's DTS minus the origin.
      let wrap: Int64 = 1 << 33
      let inTime = resolved.clips.first?.inTime.ticks ?? Int64(fmp4.origin)
      var mpegts = ((inTime - Int64(fmp4.origin)) % wrap + wrap) % wrap
      if mpegts >= wrap / 2 { mpegts = 0 }
      var title = Title(
        key: key, disc: disc, title: resolved, offers: [], failure: nil, mpegts: mpegts)
      do {
        title.offers = try provider.streams(of: resolved, in: disc)
      } catch {
        title.failure = "\(error)"
      }
      return title
    }.get()
    if made.failure == nil {
      titles.withLock {
        if $0.count >= 256, let any = $0.keys.first { $0[any] = nil }
        $0[key] = made
      }
    }
    return made
  }

  // MARK: Recognition jobs

  package typealias Outcome = Result<[SubtitleTextCue], StreamingError>

  /// One stream's recognition: running (with the requests waiting for it) or done.
  final class Job: Sendable {
    enum State {
      case running([Int: CheckedContinuation<Outcome?, Never>])
      case done(Outcome)
    }
    private let state = Mutex((state: State.running([:]), next: 0))
    let use = Atomic<UInt64>(0)

    var outcome: Outcome? {
      state.withLock {
        if case .done(let outcome) = $0.state { return outcome }
        return nil
      }
    }

    func finish(_ outcome: Outcome) {
      let waiting = state.withLock { s -> [CheckedContinuation<Outcome?, Never>] in
        guard case .running(let waiting) = s.state else { return [] }
        s.state = .done(outcome)
        return Array(waiting.values)
      }
      for continuation in waiting { continuation.resume(returning: outcome) }
    }

    /// The outcome, or `nil` when it is not there within `duration`.
    func wait(_ duration: Duration) async -> Outcome? {
      if let outcome { return outcome }
      return await withCheckedContinuation { continuation in
        let id = state.withLock { s -> Int? in
          guard case .running(var waiting) = s.state else { return nil }
          s.next += 1
          waiting[s.next] = continuation
          s.state = .running(waiting)
          return s.next
        }
        guard let id else {
          continuation.resume(returning: outcome)
          return
        }
        Task {
          try? await Task.sleep(for: duration)
          self.expire(id)
        }
      }
    }

    private func expire(_ id: Int) {
      let continuation = state.withLock { s -> CheckedContinuation<Outcome?, Never>? in
        guard case .running(var waiting) = s.state, let c = waiting.removeValue(forKey: id)
        else { return nil }
        s.state = .running(waiting)
        return c
      }
      continuation?.resume(returning: nil)
    }
  }

  /// The job of stream `id` of `title`, started when there is none (a failed one is started
  /// again).
  private func job(_ title: Title, stream id: Int) -> Job {
    let key = title.key + "/" + String(id)
    let provider = self.provider
    let (job, isNew) = jobs.withLock { s -> (Job, Bool) in
      s.clock += 1
      if let job = s.map[key] {
        if case .some(.failure) = job.outcome {
          // Failed: started again below.
        } else {
          job.use.store(s.clock, ordering: .relaxed)
          return (job, false)
        }
      }
      let job = Job()
      job.use.store(s.clock, ordering: .relaxed)
      s.map[key] = job
      while s.map.count > capacity,
        let oldest = s.map.filter({ $0.value.outcome != nil })
          .min(by: { $0.value.use.load(ordering: .relaxed) < $1.value.use.load(ordering: .relaxed) }
          )?
          .key
      {
        s.map[oldest] = nil
      }
      return (job, true)
    }
    if isNew {
      let (disc, resolved) = (title.disc, title.title)
      queue.async {
        job.finish(
          Result { () throws(StreamingError) -> [SubtitleTextCue] in
            try provider.cues(of: resolved, in: disc, stream: id)
          })
      }
    }
    return job
  }

  /// Starts the recognition of every stream of `title` that can be read, and waits up to
  /// `duration` for all of them; the outcomes known by then, by stream id.
  package func recognise(_ title: Title, waiting duration: Duration) async -> [Int: Outcome] {
    let started = title.offers.filter { $0.unavailable == nil }.map {
      ($0.id, job(title, stream: $0.id))
    }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: duration)
    var known: [Int: Outcome] = [:]
    for (id, job) in started {
      let left = clock.now.duration(to: deadline)
      if let outcome = left > .zero ? await job.wait(left) : job.outcome { known[id] = outcome }
    }
    return known
  }

  /// The cues of stream `id`: waits up to ``wait`` for them.
  ///
  /// - Throws: ``StreamingError/recognising(_:retryAfter:)`` when they are not there by then; the
  ///   provider's error when recognition failed (the next request tries again).
  package func cues(_ title: Title, stream id: Int) async throws(StreamingError)
    -> [SubtitleTextCue]
  {
    guard let outcome = await job(title, stream: id).wait(wait) else {
      throw .recognising(
        "subtitle stream 0x" + String(id, radix: 16, uppercase: true)
          + " of title \(title.title.key)",
        retryAfter: retryAfter)
    }
    return try outcome.get()
  }

  static func offThread<T: Sendable>(_ body: @escaping @Sendable () throws(StreamingError) -> T)
    async -> Result<T, StreamingError>
  {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(returning: Result { () throws(StreamingError) -> T in try body() })
      }
    }
  }

  // MARK: Playlists and segments

  /// One rendition of the master playlist.
  package struct Rendition: Sendable, Hashable {
    package var offer: SubtitleStreamOffer
    package var forcedOnly: Bool
    /// The file name stem below `subtitles/` (`4608`, `4608-forced`).
    package var stem: String { String(offer.id) + (forcedOnly ? "-forced" : "") }
  }

  /// The renditions of `title` given the outcomes known (``recognise(_:waiting:)``), and
  /// whether some stream's forced captions are not known yet.
  package static func renditions(_ title: Title, known: [Int: Outcome]) -> (
    [Rendition], pending: Bool
  ) {
    var out: [Rendition] = []
    var pending = false
    for offer in title.offers where offer.unavailable == nil {
      if offer.forcedStream {
        out.append(Rendition(offer: offer, forcedOnly: true))
        continue
      }
      out.append(Rendition(offer: offer, forcedOnly: false))
      switch known[offer.id] {
      case .success(let cues) where cues.contains(where: \.forced):
        out.append(Rendition(offer: offer, forcedOnly: true))
      case .none: pending = true
      default: break
      }
    }
    return (out, pending)
  }

  /// The `EXT-X-MEDIA` lines of `renditions` (and a comment for each stream left out and why);
  /// `query` (`""` or `?…`) is appended to every URI.
  package static func mediaLines(_ title: Title, _ renditions: [Rendition], query: String)
    -> [String]
  {
    var lines: [String] = []
    if let failure = title.failure {
      lines.append("## subtitles left out: " + failure)
    }
    for offer in title.offers {
      guard let why = offer.unavailable else { continue }
      lines.append(
        "## subtitle stream \(offer.number) (0x" + String(offer.id, radix: 16, uppercase: true)
          + ", \(offer.language ?? "no language")) left out: " + why)
    }
    var names: Set<String> = []
    for rendition in renditions {
      let offer = rendition.offer
      var name = offer.language ?? "und"
      if title.offers.filter({ $0.unavailable == nil && $0.language == offer.language }).count > 1 {
        name += " \(offer.number)"
      }
      if rendition.forcedOnly { name += " (forced)" }
      while names.contains(name) { name += "'" }
      names.insert(name)
      var attributes = [
        "TYPE=SUBTITLES", "GROUP-ID=\"\(groupID)\"", "NAME=\"\(name)\"",
      ]
      if let language = offer.language, !language.isEmpty {
        attributes.append("LANGUAGE=\"\(language)\"")
      }
      attributes += [
        "DEFAULT=NO", "AUTOSELECT=YES", "FORCED=\(rendition.forcedOnly ? "YES" : "NO")",
        "URI=\"subtitles/\(rendition.stem).m3u8\(query)\"",
      ]
      lines.append("#EXT-X-MEDIA:" + attributes.joined(separator: ","))
    }
    return lines
  }

  /// A file below `subtitles/`: `ID.m3u8`, `ID-forced.m3u8`, `ID-N.vtt`, `ID-forced-N.vtt`.
  package struct File: Sendable, Hashable {
    package var stream: Int
    package var forcedOnly: Bool
    /// The segment; `nil` for the media playlist.
    package var segment: Int?

    /// The file `name` of a title of `segments` segments whose streams are `offers`, or `nil`.
    package init?(_ name: String, offers: [SubtitleStreamOffer], segments: Int) {
      let ext: Substring
      let stem: Substring
      guard let dot = name.lastIndex(of: ".") else { return nil }
      stem = name[..<dot]
      ext = name[name.index(after: dot)...]
      var parts = stem.split(separator: "-", omittingEmptySubsequences: false)
      guard let first = parts.first, let id = Int(first), String(id) == first,
        offers.contains(where: { $0.id == id && $0.unavailable == nil })
      else { return nil }
      parts.removeFirst()
      stream = id
      forcedOnly = parts.first == "forced"
      if forcedOnly { parts.removeFirst() }
      switch (ext, parts.count) {
      case ("m3u8", 0):
        segment = nil
      case ("vtt", 1):
        guard let k = Int(parts[0]), String(k) == parts[0], k >= 0, k < segments else {
          return nil
        }
        segment = k
      default:
        return nil
      }
    }
  }

  /// The media playlist of a rendition: one WebVTT segment per fMP4 segment, same durations.
  package static func mediaPlaylist(_ fmp4: FMP4Title, stem: String, query: String) -> String {
    let longest = fmp4.segments.map(\.duration.seconds).max() ?? 0
    var lines = [
      "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(max(1, Int(longest.rounded())))",
      "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD",
    ]
    for (k, segment) in fmp4.segments.enumerated() {
      lines.append("#EXTINF:\(segment.duration.seconds.fixed(5)),")
      lines.append("\(stem)-\(k).vtt\(query)")
    }
    lines.append("#EXT-X-ENDLIST")
    return lines.joined(separator: "\n") + "\n"
  }

  /// WebVTT segment `index`: the cues overlapping the segment's time (the first segment also
  /// takes what comes before it, the last what comes after).
  package static func segment(
    _ cues: [SubtitleTextCue], fmp4: FMP4Title, index: Int, mpegts: Int64
  ) -> String {
    let segment = fmp4.segments[index]
    let start = segment.time.ticks - mpegts
    let end = start + segment.duration.ticks
    let lower = index == 0 ? Int64.min : Self.floorMilliseconds(start)
    let upper = index + 1 == fmp4.segments.count ? Int64.max : Self.floorMilliseconds(end)
    var text = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\(mpegts),LOCAL:00:00:00.000\n"
    for cue in cues where cue.endMilliseconds > lower && cue.startMilliseconds < upper {
      text += "\n" + cue.block + "\n"
    }
    // A blank line at the end, so that a reader joining the segments (ffmpeg's HLS demuxer) sees
    // the next segment's header as a block of its own, not as the last cue's text.
    return text + "\n"
  }

  static func floorMilliseconds(_ ticks: Int64) -> Int64 {
    ticks >= 0 ? ticks / 90 : -((-ticks + 89) / 90)
  }
}

extension FMP4Resource {
  /// A text file of the subtitle renditions (or the master playlist naming them).
  package init(text: String, contentType: String, eTag: String, cacheControl: String) {
    self.contentType = contentType
    body = Array(text.utf8)
    segment = nil
    self.eTag = "\"" + String(eTag.filter { $0 != "\"" }) + "\""
    self.cacheControl = cacheControl
  }

  /// The title's multivariant playlist with its subtitle renditions: `pending` (a forced
  /// rendition may still come) makes it `no-cache`; the ETag names the renditions listed.
  package init(
    multivariantOf title: FMP4Title, query: String, digest: String, subtitles: [String],
    pending: Bool
  ) {
    let text = title.multivariantPlaylist(query: query, subtitles: subtitles)
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in subtitles.joined(separator: "\n").utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    self.init(
      text: text, contentType: "application/vnd.apple.mpegurl",
      eTag: "\(digest)-\(title.key)-a\(title.angle)-fmp4v1-master-s\(String(hash, radix: 16))",
      cacheControl: pending ? "no-cache" : "public, max-age=86400")
  }
}
