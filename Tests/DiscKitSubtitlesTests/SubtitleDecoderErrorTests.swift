import DiscKit
import DiscKitSubtitles
import DiscKitTestSupport
import Testing

/// Malformed PGS segments and DVD subpicture units, crafted here byte by byte from the formats'
/// layouts (HDMV PG: PCS 0x16, PDS 0x14, ODS 0x15, END 0x80; DVD SPU: size, control offset,
/// nibble run-length fields, control sequences), and the same input well formed beside each:
/// the decoders draw what parses (the expected pictures come from the crafted layout: a white
/// 4x2 rectangle), give the errors a caller should know (code, structure and byte offset as
/// crafted), and skip without an error what a stream read from the middle holds.
@Suite("Subtitle decoders: malformed input", .toolThreads)
struct SubtitleDecoderErrorTests {
  // MARK: PGS

  /// A segment: type, 16-bit length, body.
  static func segment(_ type: UInt8, _ body: [UInt8]) -> [UInt8] {
    [type, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
  }

  /// A 1920x1080 composition (`state` 0x80: epoch start, 0: normal) showing `objects` (id, x,
  /// y; not forced, not cropped) with palette 0, `count` objects declared.
  static func pcs(objects: [(Int, Int, Int)], count: Int? = nil, state: UInt8 = 0x80) -> [UInt8] {
    var body: [UInt8] = [0x07, 0x80, 0x04, 0x38, 0x10, 0x00, 0x01, state, 0x00, 0x00]
    body.append(UInt8(count ?? objects.count))
    for (id, x, y) in objects {
      body += [UInt8(id >> 8), UInt8(id & 0xFF), 0x00, 0x00]
      body += [UInt8(x >> 8), UInt8(x & 0xFF), UInt8(y >> 8), UInt8(y & 0xFF)]
    }
    return segment(0x16, body)
  }

  /// Palette 0: entry 1 white (Y 235, limited range), opaque.
  static let pds = segment(0x14, [0x00, 0x00, 0x01, 235, 128, 128, 0xFF])

  /// Two lines of four pixels of colour 1: `00 84 01` (a run of 4 of colour 1), `00 00` (end
  /// of line).
  static let rle: [UInt8] = [0x00, 0x84, 0x01, 0x00, 0x00, 0x00, 0x84, 0x01, 0x00, 0x00]

  /// Object `id` of `width` x `height` in one fragment (first and last), its data length
  /// declared as `declared` (default: the data's) plus the 4 bytes of width and height.
  static func ods(
    id: Int = 0, width: Int = 4, height: Int = 2, data: [UInt8] = rle, declared: Int? = nil,
    sequence: UInt8 = 0xC0
  ) -> [UInt8] {
    let length = (declared ?? data.count) + 4
    var body: [UInt8] = [UInt8(id >> 8), UInt8(id & 0xFF), 0x00, sequence]
    if sequence & 0x80 != 0 {
      body += [UInt8(length >> 16), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
      body += [UInt8(width >> 8), UInt8(width & 0xFF), UInt8(height >> 8), UInt8(height & 0xFF)]
    }
    return segment(0x15, body + data)
  }

  static let end = segment(0x80, [])

  /// The white 4x2 rectangle at (x, y).
  static func white(x: Int = 100, y: Int = 900) -> SubtitleBitmap {
    SubtitleBitmap(
      x: x, y: y, width: 4, height: 2, luma: Array(repeating: 255, count: 8),
      alpha: Array(repeating: 255, count: 8), forced: false)
  }

  /// Decodes packets (segments, offset) in order: the events and the errors.
  static func decode(_ packets: [([UInt8], Int64)]) -> ([SubtitleEvent], [DiscKitError]) {
    var decoder = PGSDecoder()
    var events: [SubtitleEvent] = []
    for (bytes, offset) in packets {
      events += decoder.add(segments: bytes[...], pts90k: 90_000, offset: offset)
    }
    return (events, decoder.errors)
  }

  @Test func aWellFormedDisplaySetDrawsItsObject() {
    let (events, errors) = Self.decode([
      (Self.pcs(objects: [(0, 100, 900)]), 0), (Self.pds, 188), (Self.ods(), 376),
      (Self.end, 564),
    ])
    #expect(errors.isEmpty)
    #expect(events.map(\.bitmaps) == [[Self.white()]])
    #expect(events.first?.frameWidth == 1920 && events.first?.frameHeight == 1080)
  }

  @Test func aSegmentRunningPastItsPacketIsTruncatedAndDropsTheRest() throws {
    // One packet of all four segments; the ODS's length says 10 bytes more than follow.
    var ods = Self.ods()
    ods[2] &+= 10
    let packet = Self.pcs(objects: [(0, 100, 900)]) + Self.pds + ods + Self.end
    let (events, errors) = Self.decode([(packet, 4096)])
    #expect(errors == [DiscKitError(.truncated, "PGS segment", at: 4096, "")])
    let odsAt = Self.pcs(objects: [(0, 100, 900)]).count + Self.pds.count
    #expect(errors.first?.detail.contains("at byte \(odsAt) of the packet") == true)
    // The END went with the rest of the packet: no display set ended.
    #expect(events.isEmpty)
    // Bytes too few for a segment header at a packet's end.
    let (_, tail) = Self.decode([(Self.pds + [0x80, 0x00], 10)])
    #expect(tail == [DiscKitError(.truncated, "PGS segment", at: 10, "")])
  }

  @Test func shortSegmentsAreTruncated() {
    let (events, errors) = Self.decode([
      (Self.segment(0x16, [0x07, 0x80, 0x04]), 0), (Self.segment(0x14, [0x00]), 188),
      (Self.segment(0x15, [0x00, 0x00]), 376),
      (Self.segment(0x15, [0x00, 0x00, 0x00, 0xC0, 0x00, 0x00]), 564), (Self.end, 752),
    ])
    #expect(
      errors == [
        DiscKitError(.truncated, "PGS presentation composition segment", at: 0, ""),
        DiscKitError(.truncated, "PGS palette definition segment", at: 188, ""),
        DiscKitError(.truncated, "PGS object definition segment", at: 376, ""),
        DiscKitError(.truncated, "PGS object definition segment", at: 564, ""),
      ])
    // The composition was skipped: its END ends nothing.
    #expect(events.isEmpty)
  }

  @Test func compositionObjectsCutShortKeepTheWholeOnes() {
    // Two objects declared, one present.
    let (events, errors) = Self.decode([
      (Self.pcs(objects: [(0, 100, 900)], count: 2), 0), (Self.pds, 188), (Self.ods(), 376),
      (Self.end, 564),
    ])
    #expect(errors == [DiscKitError(.truncated, "PGS presentation composition segment", at: 0, "")])
    #expect(events.map(\.bitmaps) == [[Self.white()]])
  }

  @Test func aPaletteEntryCutShortKeepsTheWholeOnes() {
    let pds = Self.segment(0x14, [0x00, 0x00, 0x01, 235, 128, 128, 0xFF, 0x02, 16])
    let (events, errors) = Self.decode([
      (Self.pcs(objects: [(0, 100, 900)]), 0), (pds, 188), (Self.ods(), 376), (Self.end, 564),
    ])
    #expect(errors == [DiscKitError(.truncated, "PGS palette definition segment", at: 188, "")])
    #expect(events.map(\.bitmaps) == [[Self.white()]])
  }

  @Test func objectsOfNoPixelsOrTooManyAreMalformed() {
    for (width, height) in [(0, 2), (4, 0), (PGSDecoder.maxSide + 1, 2)] {
      let (events, errors) = Self.decode([
        (Self.pcs(objects: [(0, 100, 900)]), 0), (Self.pds, 188),
        (Self.ods(width: width, height: height), 376), (Self.end, 564),
      ])
      #expect(errors == [DiscKitError(.malformed, "PGS object definition segment", at: 376, "")])
      // The display set still ends, without the object.
      #expect(events.map(\.bitmaps) == [[]])
    }
  }

  @Test func anObjectHoldingMoreThanItDeclaresIsMalformed() {
    // Declares the first line only; the second follows anyway and is dropped.
    let (events, errors) = Self.decode([
      (Self.pcs(objects: [(0, 100, 900)]), 0), (Self.pds, 188),
      (Self.ods(declared: 5), 376), (Self.end, 564),
    ])
    #expect(
      errors == [
        DiscKitError(.malformed, "PGS object definition segment", at: 376, ""),
        // Its declared bytes end after the first line.
        DiscKitError(.truncated, "PGS object run-length data", at: 376, ""),
      ])
    let top = SubtitleBitmap(
      x: 100, y: 900, width: 4, height: 2, luma: Array(repeating: 255, count: 4) + [0, 0, 0, 0],
      alpha: Array(repeating: 255, count: 4) + [0, 0, 0, 0], forced: false)
    #expect(events.map(\.bitmaps) == [[top]])
  }

  @Test func anObjectDeclaringMoreThanTheLimitIsALimitError() {
    let (_, errors) = Self.decode([
      (Self.pcs(objects: [(0, 100, 900)]), 0), (Self.pds, 188),
      (Self.ods(declared: PGSDecoder.maxObjectBytes + 1), 376), (Self.end, 564),
    ])
    // Its ten bytes are also fewer than it declares.
    #expect(
      errors == [
        DiscKitError(.limitExceeded, "PGS object definition segment", at: 376, ""),
        DiscKitError(.truncated, "PGS object run-length data", at: 376, ""),
      ])
  }

  @Test func anObjectWhoseFragmentsEndEarlyIsTruncatedOnce() {
    // Declares both lines, the first fragment holds the first, no second fragment comes; the
    // object is shown by two display sets (the second a palette update) and reported once.
    let first = Array(Self.rle.prefix(5))
    let (events, errors) = Self.decode([
      (Self.pcs(objects: [(0, 100, 900)]), 0), (Self.pds, 188),
      (Self.ods(data: first, declared: Self.rle.count), 376), (Self.end, 564),
      (Self.pcs(objects: [(0, 100, 900)], state: 0), 752), (Self.end, 940),
    ])
    #expect(errors == [DiscKitError(.truncated, "PGS object run-length data", at: 376, "")])
    #expect(events.count == 2)
  }

  @Test func whatAStreamReadFromTheMiddleHoldsIsSkippedWithoutAnError() {
    // An END with no composition, a fragment continuing an object never started, a composition
    // object the epoch does not define, a window definition and an undefined segment type.
    let (events, errors) = Self.decode([
      (Self.end, 0), (Self.ods(id: 3, data: [0x01, 0x01], sequence: 0x40), 188),
      (Self.pcs(objects: [(7, 0, 0), (0, 100, 900)]), 376),
      (Self.segment(0x17, [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]), 564),
      (Self.segment(0x99, [0x01, 0x02]), 752), (Self.pds, 940), (Self.ods(), 1128),
      (Self.end, 1316),
    ])
    #expect(errors.isEmpty)
    #expect(events.map(\.bitmaps) == [[Self.white()]])
  }

  /// A `.sup` record: `PG`, PTS, DTS (0), one segment.
  static func record(_ segment: [UInt8], pts: UInt32 = 90_000) -> [UInt8] {
    [
      0x50, 0x47, UInt8(pts >> 24), UInt8((pts >> 16) & 0xFF), UInt8((pts >> 8) & 0xFF),
      UInt8(pts & 0xFF), 0, 0, 0, 0,
    ] + segment
  }

  @Test func aSupFileWithABadRecordThrowsOrDecodesWhatCameBefore() throws {
    let good = [Self.pcs(objects: [(0, 100, 900)]), Self.pds, Self.ods(), Self.end].flatMap {
      Self.record($0)
    }
    #expect(try PGSDecoder.events(supFile: good).map(\.bitmaps) == [[Self.white()]])
    // A record that is not `PG`, then one cut short.
    for (tail, code) in [
      ([0x50, 0x58] + Array(repeating: 0, count: 11), DiscKitError.Code.malformed),
      (Array(Self.record(Self.pds).dropLast(2)), .truncated),
    ] {
      let bytes = good + tail
      let expected = DiscKitError(code, ".sup record", at: Int64(good.count), "")
      #expect(throws: expected) { try PGSDecoder.events(supFile: bytes) }
      let (events, errors) = PGSDecoder.decode(supFile: bytes)
      #expect(errors == [expected])
      #expect(events.map(\.bitmaps) == [[Self.white()]])
    }
  }

  // MARK: DVD subpictures

  /// Palette entry 1 white (Y 235).
  static let palette: [UInt32] = [0x10_8080, 0xEB_8080] + Array(repeating: 0x10_8080, count: 14)

  /// A 4x2 unit: field 0 (line 0) at byte 4, field 1 (line 1) at byte 5, each `0x11` (a run of
  /// 4 of colour 1, two nibbles), then one control sequence at byte 6 (delay 0, next: itself):
  /// start, colours (pattern = entry 1), contrast (pattern opaque), area 0-3 x 0-1, field
  /// offsets, `extra` commands, end.
  static func unit(
    area: [UInt8] = [0x00, 0x00, 0x03, 0x00, 0x00, 0x01], fields: [UInt8] = [0, 4, 0, 5],
    extra: [UInt8] = [], next: Int? = nil, size: Int? = nil
  ) -> [UInt8] {
    let next = next ?? 6
    var control: [UInt8] = [0x00, 0x00, UInt8(next >> 8), UInt8(next & 0xFF), 0x01]
    control += [0x03, 0x00, 0x10, 0x04, 0x00, 0xF0, 0x05] + area + [0x06] + fields + extra + [0xFF]
    var bytes: [UInt8] = [0, 0, 0x00, 0x06, 0x11, 0x11] + control
    let size = size ?? bytes.count
    bytes[0] = UInt8(size >> 8)
    bytes[1] = UInt8(size & 0xFF)
    return bytes
  }

  static func decode(_ unit: [UInt8]) throws(DiscKitError) -> SubtitleEvent? {
    try DVDSubpictureDecoder.decode(
      unit, pts90k: 90_000, palette: palette, frameWidth: 720, frameHeight: 576, offset: 2048)
  }

  /// `decode(unit)` throws an error of `code` and `structure` at the unit's offset, its detail
  /// naming byte `place` of the unit.
  static func expectError(
    _ unit: [UInt8], _ code: DiscKitError.Code, _ structure: String, place: Int?,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let event = try decode(unit)
      Issue.record("decoded \(String(describing: event))", sourceLocation: sourceLocation)
    } catch {
      #expect(
        error == DiscKitError(code, structure, at: 2048, ""), "\(error)",
        sourceLocation: sourceLocation)
      if let place {
        #expect(
          error.detail.hasPrefix("at byte \(place) of the unit"), "\(error)",
          sourceLocation: sourceLocation)
      }
    }
  }

  @Test func aWellFormedUnitDrawsItsArea() throws {
    let event = try #require(try Self.decode(Self.unit()))
    #expect(event.bitmaps == [Self.white(x: 0, y: 0)])
    #expect(event.pts90k == 90_000 && event.endPTS90k == nil)
  }

  @Test func aUnitShorterThanItsSizeOrFourBytesIsTruncated() {
    Self.expectError([0x00, 0x10], .truncated, "DVD subpicture unit", place: nil)
    var unit = Self.unit()
    unit[1] &+= 1
    Self.expectError(unit, .truncated, "DVD subpicture unit", place: nil)
  }

  @Test func aControlSequenceOutsideTheUnitIsMalformed() {
    var unit = Self.unit()
    unit[3] = UInt8(unit.count - 2)  // no room for the 4-byte header
    Self.expectError(unit, .malformed, "DVD subpicture unit", place: 2)
    // The next-sequence offset (bytes 8-9) leaves the unit.
    Self.expectError(
      Self.unit(next: 0x400), .malformed, "DVD subpicture control sequence", place: 8)
  }

  @Test func aControlSequenceLeadingBackIsALoop() {
    // The sequence at byte 6 leads to a second one (at the end), which leads back to byte 6.
    let base = Self.unit()
    var unit = Self.unit(next: base.count)
    unit += [0x00, 0x00, 0x00, 0x06, 0xFF]
    unit[0] = UInt8(unit.count >> 8)
    unit[1] = UInt8(unit.count & 0xFF)
    Self.expectError(unit, .loop, "DVD subpicture control sequence", place: base.count + 2)
  }

  @Test func commandArgumentsPastTheUnitAreTruncated() {
    // The unit ends within the area command's six argument bytes (the command at byte 17).
    let unit = Array(Self.unit().prefix(20))
    var cut = unit
    cut[0] = 0
    cut[1] = 20
    Self.expectError(cut, .truncated, "DVD subpicture control sequence", place: 17)
    // A colour change (0x07) longer than what is left.
    Self.expectError(
      Self.unit(extra: [0x07, 0x01, 0x00]), .truncated, "DVD subpicture control sequence",
      place: 29)
  }

  @Test func badAreasAndFieldOffsetsAreErrors() {
    // x 3-0: ends before it starts.
    Self.expectError(
      Self.unit(area: [0x00, 0x30, 0x00, 0x00, 0x00, 0x01]), .malformed,
      "DVD subpicture display area (0x05)", place: 17)
    // x 0-3000.
    Self.expectError(
      Self.unit(area: [0x00, 0x0B, 0xB8, 0x00, 0x00, 0x01]), .limitExceeded,
      "DVD subpicture display area (0x05)", place: 17)
    // The second field past the unit.
    Self.expectError(
      Self.unit(fields: [0, 4, 0x10, 0x00]), .malformed, "DVD subpicture field offsets (0x06)",
      place: 24)
  }

  @Test func whatPlayersSkipIsSkippedWithoutAnError() throws {
    // An unknown command ends its sequence; a colour change is skipped by its length.
    let unknown = try #require(try Self.decode(Self.unit(extra: [0x09, 0x55])))
    #expect(unknown.bitmaps == [Self.white(x: 0, y: 0)])
    let change = try #require(try Self.decode(Self.unit(extra: [0x07, 0x00, 0x04, 0x00, 0x00])))
    #expect(change.bitmaps == [Self.white(x: 0, y: 0)])
    // A unit that only stops a display (no area, no fields) shows nothing.
    let stop: [UInt8] = [0x00, 0x0A, 0x00, 0x04, 0x00, 0x10, 0x00, 0x04, 0x02, 0xFF]
    #expect(try Self.decode(stop) == nil)
  }
}
