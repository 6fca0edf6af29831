@_spi(Formats) import DiscKit

#if canImport(Glibc)
  import Glibc
#endif

/// Structure-aware: a small complete disc image (Blu-ray or DVD, seeded from TestImages) in the
/// sparse encoding (``SparseImage``: its metadata sectors and the first sectors of each stream),
/// opened and run through what `titles` and `extract` do: list titles, choose the main one, and
/// read its byte source where a player would.
enum ImageHarness: FuzzHarness {
  static let name = "image"
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

/// For the sparse-image harnesses (`udf`, `iso9660`, `image`), most mutations land inside one
/// record's bytes, so records stay aligned and the sector they describe keeps its address; the
/// rest are libFuzzer's own (which also change sector numbers, lengths and the record list).
@_cdecl("LLVMFuzzerCustomMutator")
public func fuzzerCustomMutator(
  _ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32
) -> Int {
  let sparse: [any FuzzHarness.Type] = [ImageHarness.self, UDFHarness.self, ISO9660Harness.self]
  guard let data, size > 10, let current = selected,
    sparse.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(current) }),
    seed % 5 != 0
  else { return LLVMFuzzerMutate(data, size, maxSize) }
  // The records' data spans.
  var spans: [(start: Int, length: Int)] = []
  var at = 4
  while at + 6 <= size {
    let given = min(Int(data[at + 4]) | Int(data[at + 5]) << 8, 2048)
    let length = min(given, size - at - 6)
    if length > 0 { spans.append((at + 6, length)) }
    at += 6 + given
  }
  guard !spans.isEmpty else { return LLVMFuzzerMutate(data, size, maxSize) }
  let span = spans[Int(seed / 5) % spans.count]
  // A window of up to 64 bytes inside the record, mutated in place (its length kept).
  let offset = span.length > 64 ? Int(seed / 7) % (span.length - 63) : 0
  let length = min(64, span.length)
  var window = [UInt8](UnsafeBufferPointer(start: data + span.start + offset, count: length))
  let mutated = window.withUnsafeMutableBufferPointer {
    LLVMFuzzerMutate($0.baseAddress, length, length)
  }
  for i in 0..<min(mutated, length) { data[span.start + offset + i] = window[i] }
  return size
}

@_silgen_name("LLVMFuzzerMutate")
func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int) -> Int
