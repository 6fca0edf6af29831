import DiscKit
import DiscKitStreaming
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOPosix

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The HTTP routes over the discs of a ``DiscKitStreaming/DiscLibrary``, as a Hummingbird
/// `RouteCollection` that any Hummingbird 2 router can mount (the streaming core,
/// `DiscKitStreaming`, does the work; these routes read the request and write the response):
///
/// ```swift
/// let discs = try DiscRoutes<DiscRequestContext>(root: "/srv/discs")
/// let router = Router(context: DiscRequestContext.self)
/// router.addRoutes(discs.collection(), atPath: "/media")
/// ```
///
/// Routes (JSON unless said; errors are `{"error": "..."}` with a fitting status):
/// - `GET /`: the library page (``LibraryPage``: HTML, CSS and JavaScript from the binary; the
///   discs, their titles, a player over the fMP4 HLS);
/// - `GET /discs`, `GET /discs/{id}`, `GET /discs/{id}/titles` (= `disckit titles --json`);
/// - `GET|HEAD /discs/{id}/titles/{key}/stream[?timeline=continuous|original][&start=SECONDS][&angle=K]`;
/// - `GET /discs/{id}/titles/{key}/scan[?start=SECONDS][&bytes=N][&timeline=continuous|original]`
///   (on the timeline the stream serves by default, so the scanned PTS are those of the stream);
/// - `GET /discs/{id}/titles/{key}/chapters`;
/// - `GET /discs/{id}/titles/{key}/index.m3u8` (HLS, transport-stream titles: Blu-ray) over
///   `GET|HEAD .../stream.ts` (188-byte packets); 404 for a DVD title (a program stream);
/// - `GET /discs/{id}/titles/{key}/master.m3u8`: the HLS multivariant playlist of the title's
///   fMP4 (CMAF) renditions (``DiscKitStreaming/FMP4Title``), whose files are
///   `GET /discs/{id}/titles/{key}/fmp4/{file}` (media playlists, init segments, segments made on
///   request; `ETag`, a year's `Cache-Control`); `master-ts.m3u8` is the transport-stream one
///   naming `index.m3u8`, with `CODECS`, `RESOLUTION`, `FRAME-RATE` and `VIDEO-RANGE`
///   (``DiscKitStreaming/HLSPlaylist``);
/// - `GET /status`.
///
/// Other methods on these paths are 405. Every blocking disc read runs on the thread pool. Mounted
/// with a ``ConnectionEventLoopContext`` (``DiscRequestContext``, or your own context conforming
/// to it), each stream holds at most three chunks in memory whatever the client's speed; any other
/// `RequestContext` works too, with only NIO's own backpressure.
public struct DiscRoutes<Context: RequestContext>: Sendable {
  /// The discs.
  public let library: DiscLibrary
  /// Settings.
  public let configuration: DiscServerConfiguration
  /// The concurrent stream bound (shared by every stream route of this value).
  public let limiter: StreamLimiter
  /// Where blocking work runs.
  public let threadPool: NIOThreadPool
  let streams: StreamResponder
  let resources = ResourceCache(capacity: 64)
  let fmp4Titles = FMP4TitleCache(capacity: 16)
  /// The subtitle renditions' state (when the configuration has a text provider).
  let subtitles: HLSSubtitles?
  /// The requests transcoding audio at once (``DiscKitStreaming/DiscServerConfiguration/maxTranscodes``).
  public let transcodes: TranscodeAdmission

  /// Creates the routes over `library`.
  public init(
    library: DiscLibrary, configuration: DiscServerConfiguration = .init(),
    threadPool: NIOThreadPool = .singleton
  ) {
    self.library = library
    self.configuration = configuration
    self.threadPool = threadPool
    self.limiter = StreamLimiter(maximum: configuration.maxStreams)
    self.transcodes = TranscodeAdmission(limit: configuration.maxTranscodes)
    self.subtitles = configuration.subtitles.map {
      HLSSubtitles(provider: $0, wait: configuration.subtitleWait)
    }
    self.streams = StreamResponder(
      chunkSize: configuration.chunkSize, threadPool: threadPool, limiter: limiter,
      chunkSizeForActiveStreams: configuration.chunkSize(forActiveStreams:))
  }

  /// Creates the routes over the discs under `root` (a folder searched recursively, or one image).
  public init(
    root: String, configuration: DiscServerConfiguration = .init(),
    threadPool: NIOThreadPool = .singleton
  ) throws(DiscKitError) {
    self.init(
      library: try DiscLibrary(
        root: root, capacity: configuration.cacheCapacity,
        followLinks: configuration.followLinks),
      configuration: configuration, threadPool: threadPool)
  }

  /// The routes, with the request-target checks, the bearer token (when configured) and, given a
  /// logger, access logs in front of them.
  public func collection(accessLog logger: Logger? = nil) -> RouteCollection<Context> {
    let routes = RouteCollection(context: Context.self)
    if let logger { routes.add(middleware: AccessLogMiddleware<Context>(logger: logger)) }
    routes.add(middleware: RequestTargetMiddleware<Context>())
    if let token = configuration.token {
      routes.add(middleware: BearerTokenMiddleware<Context>(token: token))
    }

    json(routes, "/") { _, _ in
      var buffer = ByteBuffer()
      buffer.writeString(LibraryPage.html)
      return Response(
        status: .ok,
        headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
        body: .init(byteBuffer: buffer))
    }
    json(routes, "status") { _, _ in
      try JSONResponse.make(
        StatusDocument(
          activeStreams: limiter.active, maxStreams: limiter.maximum,
          streamsServed: limiter.served, openDiscs: library.openCount))
    }
    json(routes, "discs") { _, _ in try await discList() }
    json(routes, "discs/:id") { _, context in
      let disc = try await open(context)
      return try JSONResponse.make(DiscInfoDocument(disc))
    }
    json(routes, "discs/:id/titles") { _, context in
      let disc = try await open(context)
      var document = try await blocking { try TitlesDocument(disc: disc.disc) }
      document.source = disc.entry.path
      return try JSONResponse.make(document)
    }
    json(routes, "discs/:id/titles/:key/chapters") { _, context in
      let disc = try await open(context)
      let key = context.parameters.get("key") ?? ""
      return try JSONResponse.make(try await blocking { try chapters(disc, key: key) })
    }
    json(routes, "discs/:id/titles/:key/scan") { request, context in
      let disc = try await open(context)
      let key = context.parameters.get("key") ?? ""
      let start = try Self.start(request)
      let window = try scanWindow(request)
      let timeline = try Self.timeline(request)
      return try JSONResponse.make(
        try await blocking { () throws -> ScanDocument in
          let title = try TitleResource(disc: disc, key: key).title
          return try ScanDocument(title: title, at: start, timeline: timeline, window: window)
        })
    }
    for (path, plain) in [
      ("discs/:id/titles/:key/stream", false), ("discs/:id/titles/:key/stream.ts", true),
    ] {
      let stream: @Sendable (Request, Context) async throws -> Response = { request, context in
        await handling {
          let disc = try await open(context)
          let key = context.parameters.get("key") ?? ""
          let start = try Self.start(request)
          let angle = try Self.angle(request)
          let timeline = try Self.timeline(request)
          let cacheKey =
            "\(disc.entry.id)/\(disc.identity.digest)/\(key)/\(angle)/\(timeline)/\(start?.ticks ?? -1)/\(plain)"
          // A playing client's next range finds its resource cached: no trip to the pool.
          let resource: TitleResource
          if let cached = resources.cached(cacheKey) {
            resource = cached
          } else {
            resource = try await blocking {
              try resources.resource(cacheKey) { () throws(StreamingError) -> TitleResource in
                try TitleResource(
                  disc: disc, key: key, angle: angle, start: start, timeline: timeline,
                  plainTransportStream: plain)
              }
            }
          }
          let eventLoop = (context as any RequestContext as? any ConnectionEventLoopContext)?
            .connectionEventLoop
          return try await streams.respond(to: request, resource: resource, eventLoop: eventLoop)
        }
      }
      routes.get(RouterPath(path), use: stream)
      routes.head(RouterPath(path), use: stream)
      refuseOtherMethods(routes, RouterPath(path))
    }
    json(routes, "discs/:id/titles/:key/master.m3u8") { request, context in
      let (title, query) = try await fmp4Title(request, context)
      let disc = try await open(context)
      // The WebVTT renditions map their cues onto the continuous timeline's tfdt.
      guard let subtitles, title.timeline == .continuous else {
        return Self.fmp4Response(
          request, FMP4Resource(multivariantOf: title, query: query, digest: disc.identity.digest))
      }
      // The first request starts the recognition of the title's subtitle streams.
      let texts = try await subtitles.title(subtitleKey(disc, title), disc: disc, fmp4: title)
      let known = await subtitles.recognise(texts, waiting: subtitles.wait)
      let (renditions, pending) = HLSSubtitles.renditions(texts, known: known)
      return Self.fmp4Response(
        request,
        FMP4Resource(
          multivariantOf: title, query: query, digest: disc.identity.digest,
          subtitles: HLSSubtitles.mediaLines(texts, renditions, query: query), pending: pending))
    }
    json(routes, "discs/:id/titles/:key/subtitles/:file") { request, context in
      let (title, query) = try await fmp4Title(request, context)
      let disc = try await open(context)
      let name = context.parameters.get("file") ?? ""
      let missing = ServerError(
        .notFound,
        "no subtitle file \(name.prefix(60)) of this title (ID.m3u8, ID-forced.m3u8, ID-N.vtt, ID-forced-N.vtt; see master.m3u8)"
      )
      guard let subtitles else { throw missing }
      let texts = try await subtitles.title(subtitleKey(disc, title), disc: disc, fmp4: title)
      guard
        let file = HLSSubtitles.File(name, offers: texts.offers, segments: title.segments.count)
      else { throw missing }
      let stem = String(file.stream) + (file.forcedOnly ? "-forced" : "")
      let tag = "\(disc.identity.digest)-\(title.key)-a\(title.angle)-subs1-\(name)"
      guard let index = file.segment else {
        return Self.fmp4Response(
          request,
          FMP4Resource(
            text: HLSSubtitles.mediaPlaylist(title, stem: stem, query: query),
            contentType: "application/vnd.apple.mpegurl", eTag: tag,
            cacheControl: "public, max-age=86400"))
      }
      var cues = try await subtitles.cues(texts, stream: file.stream)
      if file.forcedOnly { cues = cues.filter(\.forced) }
      let text = HLSSubtitles.segment(cues, fmp4: title, index: index, mpegts: texts.mpegts)
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      return Self.fmp4Response(
        request,
        FMP4Resource(
          text: text, contentType: "text/vtt; charset=utf-8",
          eTag: tag + "-" + String(hash, radix: 16), cacheControl: "public, max-age=86400"))
    }
    let fmp4File: @Sendable (Request, Context) async throws -> Response = { request, context in
      await handling {
        let (title, query) = try await fmp4Title(request, context)
        let name = context.parameters.get("file") ?? ""
        let disc = try await open(context)
        let digest = disc.identity.digest
        // A transcoded segment or media playlist (planning one encodes it) waits for admission
        // and holds it until its bytes are sent.
        var ticket: TranscodeAdmission.Ticket?
        if title.transcodes(name) { ticket = await transcodes.enter() }
        let resource = try await blocking {
          try FMP4Resource(title: title, name: name, query: query, digest: digest)
        }
        guard let segment = resource.segment else {
          withExtendedLifetime(ticket) {}
          let response = Self.fmp4Response(request, resource)
          return request.method == .head ? response.createHeadResponse() : response
        }
        let source: any ByteSource =
          ticket.map { AdmittedByteSource(segment.source, ticket: $0) } ?? segment.source
        // A media segment: its payload written as the client reads it, a chunk at a time.
        let eventLoop = (context as any RequestContext as? any ConnectionEventLoopContext)?
          .connectionEventLoop
        return try await streams.respond(
          to: request, source: source, eTag: resource.eTag,
          lastModified: HTTPDate.format(secondsSince1970: disc.identity.modifiedSeconds),
          contentType: resource.contentType, extraHeaders: [.cacheControl: resource.cacheControl],
          eventLoop: eventLoop)
      }
    }
    routes.get("discs/:id/titles/:key/fmp4/:file", use: fmp4File)
    routes.head("discs/:id/titles/:key/fmp4/:file", use: fmp4File)
    refuseOtherMethods(routes, "discs/:id/titles/:key/fmp4/:file")
    playlist(routes, "discs/:id/titles/:key/master-ts.m3u8") { request, title, _ in
      let playlist = try HLSPlaylist(title: title)
      let variant = try HLSVariant(title: title, playlist: playlist)
      let query = request.uri.query.map { "?" + $0 } ?? ""
      return variant.text(uri: "index.m3u8" + query)
    }
    playlist(routes, "discs/:id/titles/:key/index.m3u8") { request, title, options in
      let playlist = try HLSPlaylist(title: title)
      var query = [String]()
      if options.angle != 1 { query.append("angle=\(options.angle)") }
      if options.timeline != .continuous { query.append("timeline=\(options.timeline.rawValue)") }
      if let token = configuration.token, request.uri.queryParameters["token"] != nil {
        query.append("token=\(token)")
      }
      return playlist.text(
        uri: "stream.ts" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
    }
    return routes
  }

  // MARK: Route helpers

  /// Registers an HLS playlist route: the title of the disc's `key` (as `stream.ts` serves it:
  /// 188-byte packets, at the request's angle and timeline) resolved on the thread pool, and the
  /// playlist text `make` writes for it.
  private func playlist(
    _ routes: RouteCollection<Context>, _ path: RouterPath,
    _ make:
      @escaping @Sendable (Request, DiscTitle, (angle: Int, timeline: TitleTimeline)) throws
      -> String
  ) {
    json(routes, path) { request, context in
      let disc = try await open(context)
      let key = context.parameters.get("key") ?? ""
      let angle = try Self.angle(request)
      let timeline = try Self.timeline(request)
      let text = try await blocking { () throws -> String in
        let resource = try TitleResource(
          disc: disc, key: key, angle: angle, timeline: timeline, plainTransportStream: true)
        return try make(request, resource.title, (angle, timeline))
      }
      var buffer = ByteBuffer()
      buffer.writeString(text)
      return Response(
        status: .ok, headers: [.contentType: "application/vnd.apple.mpegurl"],
        body: .init(byteBuffer: buffer))
    }
  }

  /// The fMP4 plan of the request's title and angle (made on the thread pool, then cached), and
  /// the query its playlists append to every URI (the angle, and the token when the request
  /// carried it in its query).
  private func fmp4Title(_ request: Request, _ context: Context) async throws -> (
    FMP4Title, String
  ) {
    let disc = try await open(context)
    let key = context.parameters.get("key") ?? ""
    let angle = try Self.angle(request)
    let timeline = try Self.timeline(request)
    var query = [String]()
    if angle != 1 { query.append("angle=\(angle)") }
    if timeline != .continuous { query.append("timeline=\(timeline.rawValue)") }
    if let token = configuration.token, request.uri.queryParameters["token"] != nil {
      query.append("token=\(token)")
    }
    let suffix = query.isEmpty ? "" : "?" + query.joined(separator: "&")
    let cacheKey = "\(disc.entry.id)/\(disc.identity.digest)/\(key)/\(angle)/\(timeline)"
    if let cached = fmp4Titles.cached(cacheKey) { return (cached, suffix) }
    let title = try await blocking {
      try fmp4Titles.title(cacheKey) { () throws(StreamingError) -> FMP4Title in
        let resource = try TitleResource(
          disc: disc, key: key, angle: angle, plainTransportStream: true)
        // Transcoded renditions are offered on the continuous timeline only.
        return try FMP4Title(
          title: resource.title, timeline: timeline,
          transcoder: timeline == .continuous ? configuration.audioTranscoder : nil)
      }
    }
    return (title, suffix)
  }

  /// The subtitle state's key of a title: the disc, its identity, the title and the angle.
  private func subtitleKey(_ disc: OpenedDisc, _ title: FMP4Title) -> String {
    "\(disc.entry.id)/\(disc.identity.digest)/\(title.key)/\(title.angle)"
  }

  /// A file of the fMP4 HLS: 304 when `If-None-Match` names its ETag, else 200 with its bytes,
  /// `ETag`, `Cache-Control` (a caching proxy in front serves every later request).
  static func fmp4Response(_ request: Request, _ resource: FMP4Resource) -> Response {
    var headers: HTTPFields = [
      .eTag: resource.eTag, .cacheControl: resource.cacheControl,
      .contentType: resource.contentType,
    ]
    if let match = request.headers[.ifNoneMatch],
      match.split(separator: ",").contains(where: {
        var tag = $0  // without the optional white space around it (space, tab)
        while tag.first == " " || tag.first == "\t" { tag.removeFirst() }
        while tag.last == " " || tag.last == "\t" { tag.removeLast() }
        return tag == "*" || tag == resource.eTag || tag == "W/" + resource.eTag
      })
    {
      return Response(status: .notModified, headers: headers)
    }
    headers[.contentLength] = String(resource.body.count)
    var buffer = ByteBuffer()
    buffer.writeBytes(resource.body)
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: buffer))
  }

  /// Registers a JSON GET (and HEAD) route, with errors turned into JSON responses.
  private func json(
    _ routes: RouteCollection<Context>, _ path: RouterPath,
    _ body: @escaping @Sendable (Request, Context) async throws -> Response
  ) {
    routes.get(path) { request, context in await handling { try await body(request, context) } }
    routes.head(path) { request, context in
      await handling { try await body(request, context) }.createHeadResponse()
    }
    refuseOtherMethods(routes, path)
  }

  private func refuseOtherMethods(_ routes: RouteCollection<Context>, _ path: RouterPath) {
    for method in [HTTPRequest.Method.post, .put, .delete, .patch] {
      routes.on(path, method: method) { request, _ in
        ServerError(
          .methodNotAllowed, "\(request.method.rawValue) is not allowed; the server is read-only",
          headers: [.allow: "GET, HEAD"]
        ).response()
      }
    }
  }

  private func handling(_ body: () async throws -> Response) async -> Response {
    do {
      return try await body()
    } catch let error as ServerError {
      return error.response()
    } catch let error as StreamingError {
      return ServerError(error).response()
    } catch let error as DiscKitError {
      return ServerError(error).response()
    } catch {
      return ServerError(.internalServerError, "\(error)").response()
    }
  }

  /// Runs blocking work (disc parsing, reads) on the thread pool.
  func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await threadPool.runIfActive(body)
  }

  private func open(_ context: Context) async throws -> OpenedDisc {
    let id = context.parameters.get("id") ?? ""
    guard DiscEntry.isWellFormedID(id) else {
      throw ServerError(.notFound, "no such disc (ids are 16 hex digits, see /discs)")
    }
    if let disc = library.recentlyOpened(id: id) { return disc }
    return try await blocking { try library.open(id: id) }
  }

  // MARK: Query parameters

  static func start(_ request: Request) throws(ServerError) -> MediaTime? {
    guard let text = request.uri.queryParameters["start"] else { return nil }
    guard let value = Double(String(text)), value.isFinite, value >= 0, value < 1e7 else {
      throw ServerError(.badRequest, "start must be seconds from 0 (got \(text.prefix(40)))")
    }
    return MediaTime(seconds: value)
  }

  static func angle(_ request: Request) throws(ServerError) -> Int {
    guard let text = request.uri.queryParameters["angle"] else { return 1 }
    guard let value = Int(String(text)), (1...9).contains(value) else {
      throw ServerError(.badRequest, "angle must be 1 to 9 (got \(text.prefix(40)))")
    }
    return value
  }

  static func timeline(_ request: Request) throws(ServerError) -> TitleTimeline {
    guard let text = request.uri.queryParameters["timeline"] else { return .continuous }
    guard let value = TitleTimeline(rawValue: String(text)) else {
      throw ServerError(.badRequest, "timeline must be continuous (the default) or original")
    }
    return value
  }

  func scanWindow(_ request: Request) throws(ServerError) -> Int64 {
    guard let text = request.uri.queryParameters["bytes"] else { return configuration.scanWindow }
    var digits = Substring(text)
    var multiplier: Int64 = 1
    switch digits.last {
    case "K", "k": multiplier = 1 << 10
    case "M", "m": multiplier = 1 << 20
    default: break
    }
    if multiplier > 1 { digits = digits.dropLast() }
    guard let value = Int64(digits), value > 0, value <= configuration.maxScanWindow / multiplier
    else {
      throw ServerError(
        .badRequest, "bytes must be 1 to \(configuration.maxScanWindow) (K and M suffixes allowed)")
    }
    return value * multiplier
  }

  // MARK: Documents

  private func discList() async throws -> Response {
    let entries = library.entries()
    let discs = try await blocking { () -> [DiscListDocument.Disc] in
      entries.map { entry in
        do {
          let disc = try library.open(id: entry.id)
          return .init(
            id: entry.id, path: entry.path, kind: disc.disc.kind.rawValue,
            label: disc.disc.label, mainTitle: disc.main?.key,
            duration90k: disc.main?.duration.ticks, error: nil)
        } catch {
          return .init(
            id: entry.id, path: entry.path, kind: nil, label: nil, mainTitle: nil,
            duration90k: nil, error: "\(error)")
        }
      }
    }
    return try JSONResponse.make(DiscListDocument(discs: discs))
  }

  func chapters(_ disc: OpenedDisc, key: String) throws -> ChaptersDocument {
    let title = try TitleResource(disc: disc, key: key).title
    return ChaptersDocument(
      title: title.key,
      chapters: title.chapters.map {
        .init(
          number: $0.number, start90k: $0.start.ticks, duration90k: $0.duration.ticks,
          offset: $0.offset, stream: "stream?start=" + $0.start.seconds.fixed(6))
      })
  }
}
