/// Settings of the disc routes (`DiscKitServer`'s, or any server's over ``DiscLibrary``).
public struct DiscServerConfiguration: Sendable {
  /// When set, every request needs `Authorization: Bearer TOKEN` (or `?token=TOKEN`, for players
  /// that cannot send headers).
  public var token: String?
  /// The most streams served at once; more get 503 with `Retry-After`.
  public var maxStreams: Int
  /// Bytes read from the title per chunk of a streaming body (``ByteChunks``). In the Hummingbird
  /// adapter mounted with its `DiscRequestContext`, a stream holds at most three chunks
  /// (one the connection holds, one waiting for it, one being read), whatever the client's speed.
  /// 128 KiB measured as fast as 512 KiB on loopback, with a quarter of the memory. Many streams
  /// at once get smaller chunks (``streamMemory``).
  public var chunkSize: Int
  /// The chunk memory the streams share: a stream starting while three chunks of ``chunkSize``
  /// for each active stream would pass it reads in chunks half as large (down to 32 KiB, powers
  /// of two), so 64 streams hold 12 MiB instead of 24 (``chunkSize(forActiveStreams:)``).
  public var streamMemory = 16 << 20
  /// Opened discs kept in the cache.
  public var cacheCapacity: Int
  /// Default bytes scanned by `/scan` (as `disckit scan --bytes`), and the most a request may ask.
  public var scanWindow: Int64
  /// The most bytes `/scan?bytes=` may ask for.
  public var maxScanWindow: Int64
  /// Follow symbolic links whose target lies outside the root too (`disckit serve
  /// --follow-links`); by default only links that stay inside it are (``DiscDiscovery``).
  public var followLinks = false
  /// Where the text of the WebVTT subtitle renditions comes from (``HLSSubtitles``; `disckit
  /// serve`: ``SubtitleHelperProvider`` running `disckit-subtitles` when it is installed);
  /// `nil`: the HLS playlists have no subtitle renditions.
  public var subtitles: (any SubtitleTextProvider)? = nil
  /// How long a request waits for a subtitle stream being recognised before it gets 503 with
  /// `Retry-After` (the master playlist, for its forced renditions, waits as long, then lists
  /// what is known).
  public var subtitleWait: Duration = .seconds(5)
  /// Makes the fMP4 HLS's stereo AAC and lossless FLAC audio renditions (``AudioTranscoder``;
  /// `disckit serve` supplies `DiscKitTranscode`'s, over libavcodec). Without one, only the
  /// copied AC-3/E-AC-3 renditions and LPCM's FLAC are offered.
  public var audioTranscoder: (any AudioTranscoder)?
  /// The most requests that transcode audio at once (an AAC or FLAC segment or media playlist);
  /// more wait for one to end (``TranscodeAdmission``). Default: two per processor.
  public var maxTranscodes = TranscodeAdmission.defaultLimit

  /// Creates a configuration; the defaults suit a home server.
  public init(
    token: String? = nil, maxStreams: Int = 64, chunkSize: Int = 128 << 10,
    cacheCapacity: Int = 16, scanWindow: Int64 = 30 << 20, maxScanWindow: Int64 = 256 << 20
  ) {
    self.token = token
    self.maxStreams = maxStreams
    self.chunkSize = max(4096, chunkSize)
    self.cacheCapacity = cacheCapacity
    self.scanWindow = scanWindow
    self.maxScanWindow = maxScanWindow
  }

  /// The chunk size of a stream starting while `active` streams (itself included) are served:
  /// ``chunkSize`` while `active` streams of three chunks fit in ``streamMemory``, otherwise the
  /// largest power of two that fits, at least 32 KiB.
  public func chunkSize(forActiveStreams active: Int) -> Int {
    let fits = streamMemory / (3 * max(1, active))
    guard fits < chunkSize else { return chunkSize }
    var size = 32 << 10
    while size * 2 <= fits { size *= 2 }
    return min(size, chunkSize)
  }
}
