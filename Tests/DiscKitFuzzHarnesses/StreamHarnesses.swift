@_spi(Formats) import DiscKit
import Foundation

/// The M2TS/TS PES pre-scanner.
enum TSHarness: FuzzHarnessBody {
  static let name = "ts"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    let source = MemoryByteSource([UInt8](bytes))
    _ = try? PESPreScanner.scan(source: source, offset: 0, window: source.size)
  }
}

/// The MPEG program stream scanner (DVD VOBs). The first byte picks the read size, which must not
/// change the report.
enum PSHarness: FuzzHarnessBody {
  static let name = "ps"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard let first = bytes.first else { return }
    let source = MemoryByteSource([UInt8](bytes.dropFirst()))
    _ = try? ProgramStreamScanner.scan(source: source, chunkSize: Int(first) * 61 + 1)
  }
}

/// Time seek in a transport stream: the first four bytes are the time (hundredths of a second).
enum TimeSeekHarness: FuzzHarnessBody {
  static let name = "timeseek"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= 4 else { return }
    let hundredths = bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let source = MemoryByteSource([UInt8](bytes.dropFirst(4)))
    _ = try? TransportStreamTimeSeek.seek(source: source, to: Double(hundredths) / 100)
  }
}

/// HEVC colour metadata: an Annex B byte stream's SPS (VUI) and HDR10 SEI messages, read as
/// the Matroska writer reads them (``HEVCColourMetadata``) and as the fMP4 writer's sample entry
/// reads each NAL unit (``HEVCSampleEntryFacts``: the SPS, the prefix SEI payload walk).
enum HEVCHarness: FuzzHarnessBody {
  static let name = "hevc"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    let stream = [UInt8](bytes)
    _ = try? HEVCColourMetadata(parsingAnnexB: stream[...])
    for range in HEVCNALUnit.split(stream[...]).prefix(64) where range.count >= 2 {
      let nal = stream[range]
      switch (nal[nal.startIndex] >> 1) & 0x3F {
      case 33: _ = try? HEVCSampleEntryFacts(sequenceParameterSet: nal)
      case HEVCNALUnit.prefixSEI: _ = HEVCSampleEntryFacts.hdr10Payloads(prefixSEI: nal)
      default: break
      }
    }
  }
}

/// The PMT's Dolby Vision video descriptor (tag 0xB0) body.
enum DOVIHarness: FuzzHarnessBody {
  static let name = "dovi"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    _ = try? DolbyVisionConfiguration(parsing: [UInt8](bytes))
  }
}

/// One line of `disckit segment --json-lines`: a JSON request decoded and evaluated.
enum SegmentHarness: FuzzHarnessBody {
  static let name = "segment"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard let request = try? JSONDecoder().decode(SegmentRequest.self, from: Data(bytes)) else {
      return
    }
    _ = request.evaluate()
  }
}
