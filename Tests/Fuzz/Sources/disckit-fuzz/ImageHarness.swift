import DiscKit

#if canImport(Glibc)
  import Glibc
#endif

/// Structure-aware: a small complete disc image (Blu-ray or DVD, seeded from TestImages), mutated
/// where its metadata lives, opened and run through what `titles` and `extract` do: list titles,
/// choose the main one, and read its byte source to the end.
enum ImageHarness: FuzzHarness {
  static let name = "image"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard let disc = try? DiscImage.open(source: MemoryByteSource([UInt8](bytes))) else { return }
    if disc.fileSystem.exists("/BDMV/index.bdmv") || disc.fileSystem.exists("/BDMV") {
      guard let bluray = try? BlurayDisc(disc: disc) else { return }
      _ = bluray.smartSelection()
      _ = bluray.navigationPlaylists()
      for file in bluray.playlists.prefix(8) {
        guard let title = try? bluray.title(playlist: file.name) else { continue }
        _ = try? title.playbackStart(forTitleTime: 90_000)
      }
      if let main = try? bluray.mainTitle(), let source = try? main.byteSource() {
        drain(source)
      }
    } else if let dvd = try? DVDDisc(fileSystem: disc.fileSystem) {
      for case .success(let title) in dvd.titles.prefix(8) {
        if let source = try? dvd.byteSource(title: title.number) { drain(source) }
      }
    }
  }
}

/// Mutations land in the image's non-zero 2 KiB sectors (descriptors, file entries, directories,
/// navigation files, stream headers) far more often than in its empty space; the size is kept so
/// that sector addresses stay meaningful.
@_cdecl("LLVMFuzzerCustomMutator")
public func fuzzerCustomMutator(
  _ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32
) -> Int {
  guard let data, size > 0 else { return LLVMFuzzerMutate(data, size, maxSize) }
  guard let current = selected, ObjectIdentifier(current) == ObjectIdentifier(ImageHarness.self) else {
    return LLVMFuzzerMutate(data, size, maxSize)
  }
  var state = UInt64(seed) | 1
  func next() -> Int {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return Int(truncatingIfNeeded: state >> 1)
  }
  let sectors = size / 2048
  guard sectors > 1 else { return LLVMFuzzerMutate(data, size, maxSize) }
  // Up to 64 tries to find a sector holding something.
  var sector = next() % sectors
  for _ in 0..<64 {
    let base = data + sector * 2048
    if (0..<2048).contains(where: { base[$0] != 0 }) { break }
    sector = next() % sectors
  }
  let start = sector * 2048 + next() % 2048
  let length = min(64, size - start)
  var window = [UInt8](UnsafeBufferPointer(start: data + start, count: length))
  let mutated = window.withUnsafeMutableBufferPointer {
    LLVMFuzzerMutate($0.baseAddress, length, length)
  }
  for i in 0..<min(mutated, length) { data[start + i] = window[i] }
  return size
}

@_silgen_name("LLVMFuzzerMutate")
func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int) -> Int
