// The adapter re-exports the streaming core, so that `import DiscKitServer` keeps giving the
// library of discs, title resources, HLS playlists and the stream limiter to route authors.
@_exported import DiscKitStreaming
