@_spi(Formats) import DiscKit
import Foundation

/// The M2TS/TS PES pre-scanner.
enum TSHarness: FuzzHarness {
  static let name = "ts"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    let source = MemoryByteSource([UInt8](bytes))
    _ = try? PESPreScanner.scan(source: source, offset: 0, window: source.size)
  }
}

/// The MPEG program stream scanner (DVD VOBs). The first byte picks the read size, which must not
/// change the report.
enum PSHarness: FuzzHarness {
  static let name = "ps"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard let first = bytes.first else { return }
    let source = MemoryByteSource([UInt8](bytes.dropFirst()))
    _ = try? ProgramStreamScanner.scan(source: source, chunkSize: Int(first) * 61 + 1)
  }
}

/// Time seek in a transport stream: the first four bytes are the time (hundredths of a second).
enum TimeSeekHarness: FuzzHarness {
  static let name = "timeseek"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= 4 else { return }
    let hundredths = bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let source = MemoryByteSource([UInt8](bytes.dropFirst(4)))
    _ = try? TransportStreamTimeSeek.seek(source: source, to: Double(hundredths) / 100)
  }
}

/// HEVC colour metadata: an Annex B byte stream's SPS (VUI) and HDR10 SEI messages.
enum HEVCHarness: FuzzHarness {
  static let name = "hevc"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    _ = try? HEVCColourMetadata(parsingAnnexB: [UInt8](bytes)[...])
  }
}

/// One line of `disckit segment --json-lines`: a JSON request decoded and evaluated.
enum SegmentHarness: FuzzHarness {
  static let name = "segment"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard let request = try? JSONDecoder().decode(SegmentRequest.self, from: Data(bytes)) else {
      return
    }
    _ = request.evaluate()
  }
}
