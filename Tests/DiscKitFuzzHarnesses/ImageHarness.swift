@_spi(Formats) import DiscKit

/// Structure-aware: a small complete disc image (Blu-ray or DVD, seeded from TestImages) in the
/// sparse encoding (``SparseImage``: its metadata sectors and the first sectors of each stream),
/// opened and run through what `titles` and `extract` do: list titles, choose the main one, and
/// read its byte source where a player would.
enum ImageHarness: FuzzHarnessBody {
  static let name = "image"
  static let takesSparseImage = true
  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard let disc = try? DiscImage.open(source: SparseImage(bytes)) else { return }
    if disc.fileSystem.exists("/BDMV/index.bdmv") || disc.fileSystem.exists("/BDMV") {
      guard let bluray = try? BlurayDisc(disc: disc) else { return }
      _ = bluray.navigationPlaylists()
      for file in bluray.playlists.prefix(8) {
        guard let title = try? bluray.title(playlist: file.name) else { continue }
        _ = try? title.playbackStart(forTitleTime: 90_000)
      }
      _ = bluray.namedEvidence()
    } else if let dvd = try? DVDDisc(fileSystem: disc.fileSystem) {
      for case .success(let title) in dvd.titles.prefix(8) {
        if let source = try? dvd.byteSource(title: title.number) { sample(source) }
      }
    }
    // Through the façade, as `titles` and `extract` do: the list (the evidence-first selection),
    // the main title and its bytes on both timelines (timestamp shifts and the join scan of every
    // clip range).
    guard let opened = try? Disc(image: disc) else { return }
    _ = try? opened.titleList()
    if let main = try? opened.mainTitle() {
      if let source = try? main.byteSource(timeline: .original) { sample(source) }
      if let continuous = try? main.byteSource(timeline: .continuous) { sample(continuous) }
    }
  }
}
