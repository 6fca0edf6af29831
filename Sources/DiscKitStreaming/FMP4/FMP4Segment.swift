import DiscKit
import Synchronization

/// Writes the bytes of a media segment's `mdat`, in order, a buffer at a time: the second pass
/// of a segment whose samples were planned first (sizes, durations, flags: the `moof`), so that
/// no more than a buffer of the payload is ever in memory.
///
/// DiscKit's readers take the samples from the disc's bytes (the video's access units, the
/// audio's syncframes, LPCM rewritten as FLAC); any other producer (an audio encoder) conforms
/// the same way and makes its ``FMP4Segment`` with ``FMP4Segment/init(sequence:decodeTime:samples:payload:)``.
package protocol FMP4PayloadReader: Sendable {
  /// Fills `buffer` with the next bytes of the payload; fewer than `buffer.count` only at its
  /// end (0 after it).
  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(DiscKitError) -> Int
}

/// One media segment of an fMP4 rendition, planned: its `moof` (with the exact `trun` and
/// `data_offset`) and `mdat` header, the size of the `mdat`'s payload, and how to write that
/// payload (a fresh ``FMP4PayloadReader`` per pass). Its bytes are `header` then the payload;
/// ``source`` serves them as a ``DiscKit/ByteSource`` (ranges, chunked bodies).
package struct FMP4Segment: Sendable {
  /// `moof` and the `mdat` box header.
  package let header: [UInt8]
  /// Bytes of the `mdat`'s payload.
  package let payloadSize: Int64
  /// A reader of the payload from its first byte.
  package let payload: @Sendable () -> any FMP4PayloadReader

  /// The segment's size in bytes.
  package var size: Int64 { Int64(header.count) + payloadSize }

  package init(
    header: [UInt8], payloadSize: Int64,
    payload: @escaping @Sendable () -> any FMP4PayloadReader
  ) {
    self.header = header
    self.payloadSize = payloadSize
    self.payload = payload
  }

  /// A segment of `samples` (their sizes add up to the payload's size), the first decoded at
  /// `decodeTime`, numbered `sequence` (`mfhd`); without samples, an empty fragment lasting
  /// `emptyDuration` (``FMP4Writer/fragmentHeader(sequence:decodeTime:samples:payloadSize:emptyDuration:)``).
  package init(
    sequence: UInt32, decodeTime: UInt64, samples: [FMP4Writer.Sample], emptyDuration: UInt32 = 0,
    payload: @escaping @Sendable () -> any FMP4PayloadReader
  ) {
    let size = samples.reduce(Int64(0)) { $0 + Int64($1.size) }
    self.init(
      header: FMP4Writer.fragmentHeader(
        sequence: sequence, decodeTime: decodeTime, samples: samples, payloadSize: Int(size),
        emptyDuration: emptyDuration),
      payloadSize: size, payload: payload)
  }

  /// An empty fragment (no samples) at `decodeTime` lasting `duration` ticks.
  package static func empty(sequence: UInt32, decodeTime: UInt64, duration: Int64)
    -> FMP4Segment
  {
    FMP4Segment(
      sequence: sequence, decodeTime: decodeTime, samples: [],
      emptyDuration: UInt32(clamping: max(0, duration))
    ) { MemoryPayload(bytes: []) }
  }

  /// The size of a segment of `samples` (`moof`, `mdat` header and payload), without making it.
  package static func size(of samples: [FMP4Writer.Sample]) -> Int64 {
    // An empty fragment: moof 8, mfhd 16, traf 8, tfhd 20, tfdt 20, mdat header 8.
    if samples.isEmpty { return 80 }
    // moof 8, mfhd 16, traf 8, tfhd 16, tfdt 20, trun 20 + 16 a sample, mdat header 8.
    return 96 + 16 * Int64(samples.count) + samples.reduce(Int64(0)) { $0 + Int64($1.size) }
  }

  /// The segment's bytes as a source (each read continues the last one's payload pass; a read
  /// elsewhere starts a new pass).
  package var source: FMP4SegmentSource { FMP4SegmentSource(self) }

  /// All of the segment's bytes (for tools and tests; a server streams ``source``).
  package func bytes() throws(DiscKitError) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: Int(size))
    let source = source
    let outcome = out.withUnsafeMutableBytes { raw in
      Result { () throws(DiscKitError) -> Int in try source.readFully(at: 0, into: raw) }
    }
    let got = try outcome.get()
    guard got == out.count else {
      throw DiscKitError(
        .malformed, "fMP4 segment", at: nil,
        "the payload ended after \(got - header.count) of its planned \(payloadSize) bytes")
    }
    return out
  }
}

/// A media segment's bytes as a ``DiscKit/ByteSource``: the header from memory, the payload from
/// one ``FMP4PayloadReader`` that sequential reads continue (a server's chunks), restarted for a
/// read before where it is and skipped forward for one after (a `Range` request), so memory stays
/// at the caller's buffers whatever the segment's size.
package final class FMP4SegmentSource: ByteSource, Sendable {
  let segment: FMP4Segment
  private let state = Mutex<Pass?>(nil)

  struct Pass {
    var reader: any FMP4PayloadReader
    /// Payload bytes written so far.
    var position: Int64
  }

  init(_ segment: FMP4Segment) { self.segment = segment }

  package var size: Int64 { segment.size }

  package func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer)
    throws(DiscKitError) -> Int
  {
    guard offset >= 0 else {
      throw DiscKitError(.invalidArgument, "fMP4 segment", at: offset, "negative offset")
    }
    // The payload is made from many reads of the disc: never under ResidentReads, whose
    // refusal would come after part of a pass (the caller reads it where it may block).
    if ResidentReads.only {
      throw DiscKitError(.wouldBlock, "fMP4 segment", at: offset, "made on a thread that may block")
    }
    guard offset < size, buffer.count > 0 else { return 0 }
    let header = segment.header
    var written = 0
    if offset < Int64(header.count) {
      let n = min(buffer.count, header.count - Int(offset))
      header.withUnsafeBytes { raw in
        UnsafeMutableRawBufferPointer(rebasing: buffer[0..<n]).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: raw[Int(offset)..<(Int(offset) + n)]))
      }
      written = n
    }
    let want = Int(min(Int64(buffer.count - written), size - offset - Int64(written)))
    guard want > 0 else { return written }
    let payloadOffset = offset + Int64(written) - Int64(header.count)
    let target = UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + want)])
    let got = try state.withLock { pass throws(DiscKitError) -> Int in
      if pass == nil || pass!.position > payloadOffset {
        pass = Pass(reader: segment.payload(), position: 0)
      }
      guard var current = pass else { return 0 }
      pass = nil
      if current.position < payloadOffset {
        // Skipped forward, a bounded buffer at a time.
        var scratch = [UInt8](repeating: 0, count: 64 << 10)
        while current.position < payloadOffset {
          let n = Int(min(Int64(scratch.count), payloadOffset - current.position))
          let outcome = scratch.withUnsafeMutableBytes { raw in
            Result { () throws(DiscKitError) -> Int in
              try current.reader.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<n]))
            }
          }
          let got = try outcome.get()
          if got == 0 { return 0 }
          current.position += Int64(got)
        }
      }
      let got = try current.reader.read(into: target)
      current.position += Int64(got)
      pass = current
      return got
    }
    return written + got
  }
}

/// Where a payload reader writes: the caller's buffer, and what does not fit kept for the next
/// call (at most what one step of the reader makes: a transport packet's payload, or one audio
/// PES's frames).
struct PayloadOutput: @unchecked Sendable {  // `buffer`: only during a reader's call
  var pending: [UInt8] = []
  var pendingStart = 0
  var buffer: UnsafeMutableRawBufferPointer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
  var written = 0

  var full: Bool { written == buffer.count }

  /// Starts a call: first what was kept.
  mutating func begin(_ buffer: UnsafeMutableRawBufferPointer) {
    self.buffer = buffer
    written = 0
    if pendingStart < pending.count {
      let n = min(buffer.count, pending.count - pendingStart)
      pending.withUnsafeBytes { raw in
        UnsafeMutableRawBufferPointer(rebasing: buffer[0..<n]).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: raw[pendingStart..<(pendingStart + n)]))
      }
      written = n
      pendingStart += n
    }
    if pendingStart == pending.count {
      pending.removeAll(keepingCapacity: true)
      pendingStart = 0
    }
  }

  mutating func write(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count > 0 else { return }
    let n = min(bytes.count, buffer.count - written)
    if n > 0 {
      UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + n)]).copyMemory(
        from: UnsafeRawBufferPointer(rebasing: bytes[0..<n]))
      written += n
    }
    if n < bytes.count {
      pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[n...]))
    }
  }

  mutating func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { write($0) }
  }

  mutating func u32(_ value: UInt32) {
    withUnsafeBytes(of: value.bigEndian) { write($0) }
  }
}

/// Which planned segment of a title (the key of ``FMP4Title/plans``).
package struct FMP4SegmentKey: Hashable, Sendable {
  package var rendition: FMP4Title.Rendition
  package var index: Int
  package var keyFrameOnly: Bool

  package init(rendition: FMP4Title.Rendition, index: Int, keyFrameOnly: Bool) {
    self.rendition = rendition
    self.index = index
    self.keyFrameOnly = keyFrameOnly
  }
}
