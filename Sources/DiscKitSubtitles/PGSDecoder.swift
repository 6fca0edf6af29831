import DiscKit

/// Decodes an HDMV presentation graphics (PGS) stream into ``SubtitleEvent``s.
///
/// A stream is a sequence of display sets, each a presentation composition segment (PCS), window
/// definitions (WDS), palettes (PDS), objects (ODS, run-length coded, possibly in fragments) and an
/// END segment; a Blu-ray carries one or more segments per PES packet, a `.sup` file one per
/// `PG` record. Palettes and objects live for an *epoch* (a PCS whose state is epoch start clears
/// them), so a later display set may show objects defined earlier. Each display set ending with
/// END becomes one event at its PCS's PTS: its composition objects drawn with the composition's
/// palette (cropped where the composition says), each with its `forced_on_flag`; a composition
/// with no objects is a clear. An object grows to at most ``maxObjectBytes``.
///
/// Malformed data is never trusted for a length, and decoding goes on after it, as players do;
/// each malformed segment is an error in ``errors`` (``DiscKit/DiscKitError`` naming the segment,
/// at the byte offset of the packet or `.sup` record that holds it, the segment's place in the
/// packet in the detail), so that a caller knows the text may miss a caption:
/// - a segment whose length runs past its packet (`truncated`; the rest of the packet is dropped,
///   as ffmpeg's decoder drops it), and bytes too few for a segment header at a packet's end;
/// - a composition, palette or object segment shorter than its fixed fields (`truncated`; the
///   segment is skipped), composition objects cut short by the segment's end (the whole ones
///   are kept) and a palette entry cut short (the whole entries are kept);
/// - an object of no or more than ``maxSide`` pixels a side (`malformed`), one whose fragments
///   hold more bytes than its declared length (`malformed`: the surplus is dropped) or more than
///   ``maxObjectBytes`` (`limitExceeded`), and, when its display set ends, one whose fragments
///   hold fewer bytes than declared or whose run-length code ends before its last line
///   (`truncated`: drawn as far as it goes, the rest transparent).
///
/// Skipped without an error, as players (ffmpeg, libbluray) skip them, because a stream read from
/// the middle (a title's play item that starts within a display set or an epoch) has them: an
/// END with no composition before it, an object fragment continuing an object no first fragment
/// started, a composition object the epoch does not define; and window definitions (WDS) and
/// segment types PGS does not define (nothing the text needs); runs past the end of a line are
/// clipped to it (as ffmpeg's run-length decoder does).
public struct PGSDecoder: Sendable {
  /// The most bytes of run-length data one object may hold.
  public static let maxObjectBytes = 4 << 20
  /// The largest picture side accepted (Blu-ray graphics planes are at most 1920x1080).
  public static let maxSide = 4096

  struct Composition {
    var width = 0
    var height = 0
    var paletteID = 0
    var objects: [(id: Int, x: Int, y: Int, forced: Bool, crop: (Int, Int, Int, Int)?)] = []
  }

  struct Object {
    var width = 0
    var height = 0
    var data: [UInt8] = []
    var expected = 0
    /// Where its first fragment was (the packet's offset and the segment's place in it).
    var offset: Int64 = 0
    var position = 0
    /// Whether a fragment brought more than it declared (reported once).
    var overflowed = false
    /// Whether a display set showed it already (a short object is reported once).
    var shown = false
  }

  /// The malformed segments met so far, in stream order (see the type's description).
  public private(set) var errors: [DiscKitError] = []

  /// The palettes of the epoch: per palette id, 256 entries of (luma, alpha).
  private var palettes: [Int: [(UInt8, UInt8)]] = [:]
  /// The objects of the epoch, by id.
  private var objects: [Int: Object] = [:]
  /// The display set being gathered.
  private var composition: Composition?
  private var pts: Int64 = 0
  private var offset: Int64 = 0

  /// A decoder at the start of a stream.
  public init() {}

  /// Adds the segments of one PES packet (or one `.sup` record) presented at `pts90k`, found at
  /// `offset` in the title's bytes; returns the events of the display sets it completes.
  /// Malformed segments are skipped and added to ``errors``.
  public mutating func add(segments data: ArraySlice<UInt8>, pts90k: Int64, offset: Int64)
    -> [SubtitleEvent]
  {
    var events: [SubtitleEvent] = []
    var i = data.startIndex
    while i < data.endIndex {
      let at = i - data.startIndex
      guard data.endIndex - i >= 3 else {
        errors.append(
          DiscKitError(
            .truncated, "PGS segment", at: offset,
            "\(data.endIndex - i) bytes at byte \(at) of the packet are too few for a segment header (3)"
          ))
        break
      }
      let type = data[i]
      let length = Int(data[i + 1]) << 8 | Int(data[i + 2])
      guard length <= data.endIndex - i - 3 else {
        errors.append(
          DiscKitError(
            .truncated, "PGS segment", at: offset,
            "segment type 0x\(String(type, radix: 16)) at byte \(at) of the packet declares \(length) bytes, \(data.endIndex - i - 3) follow"
          ))
        break
      }
      let body = data[(i + 3)..<(i + 3 + length)]
      i += 3 + length
      let place = Place(offset: offset, position: at)
      switch type {
      case 0x16: composition(body, pts90k: pts90k, place)
      case 0x14: palette(body, place)
      case 0x15: object(body, place)
      case 0x80:
        if let event = finish() { events.append(event) }
      default: break  // WDS (0x17) and unknown segments: nothing the text needs.
      }
    }
    return events
  }

  /// Where a segment is: its packet's offset and its place in the packet.
  struct Place {
    var offset: Int64
    var position: Int
  }

  private mutating func report(
    _ code: DiscKitError.Code, _ structure: String, _ place: Place, _ detail: String
  ) {
    errors.append(
      DiscKitError(
        code, structure, at: place.offset, "at byte \(place.position) of the packet: " + detail))
  }

  /// Decodes a whole `.sup` file (`PG`, PTS, DTS, then a segment, repeated).
  ///
  /// - Throws: the first malformed segment (see the type's description), or a record that does
  ///   not start with `PG` or runs past the file's end (`.sup record`, at its offset).
  public static func events(supFile bytes: [UInt8]) throws(DiscKitError) -> [SubtitleEvent] {
    let (events, errors) = decode(supFile: bytes)
    if let first = errors.first { throw first }
    return events
  }

  /// Decodes a whole `.sup` file as a player does: every display set that decodes, and the
  /// errors of the malformed records and segments, which are skipped (a record that does not
  /// start with `PG` or runs past the file's end ends the file).
  public static func decode(supFile bytes: [UInt8]) -> (
    events: [SubtitleEvent], errors: [DiscKitError]
  ) {
    var decoder = PGSDecoder()
    var events: [SubtitleEvent] = []
    var framing: DiscKitError?
    var i = 0
    while i < bytes.count {
      guard bytes.count - i >= 13 else {
        framing = .truncated(".sup record", at: Int64(i), needed: 13)
        break
      }
      guard bytes[i] == 0x50, bytes[i + 1] == 0x47 else {
        framing = .malformed(
          ".sup record", at: Int64(i),
          "starts with 0x\(String(bytes[i], radix: 16)) 0x\(String(bytes[i + 1], radix: 16)), not \"PG\""
        )
        break
      }
      let pts =
        Int64(bytes[i + 2]) << 24 | Int64(bytes[i + 3]) << 16 | Int64(bytes[i + 4]) << 8
        | Int64(bytes[i + 5])
      let length = Int(bytes[i + 11]) << 8 | Int(bytes[i + 12])
      guard bytes.count - i - 13 >= length else {
        framing = .truncated(".sup record", at: Int64(i), needed: Int64(13 + length))
        break
      }
      events += decoder.add(
        segments: bytes[(i + 10)..<(i + 13 + length)], pts90k: pts, offset: Int64(i))
      i += 13 + length
    }
    return (events, decoder.errors + (framing.map { [$0] } ?? []))
  }

  private static func u16(_ d: ArraySlice<UInt8>, _ at: Int) -> Int {
    Int(d[d.startIndex + at]) << 8 | Int(d[d.startIndex + at + 1])
  }

  private mutating func composition(_ d: ArraySlice<UInt8>, pts90k: Int64, _ place: Place) {
    let structure = "PGS presentation composition segment"
    guard d.count >= 11 else {
      report(.truncated, structure, place, "\(d.count) bytes, fewer than its 11 fixed ones")
      return
    }
    var c = Composition()
    c.width = Self.u16(d, 0)
    c.height = Self.u16(d, 2)
    let state = d[d.startIndex + 7]
    if state & 0x80 != 0 {
      palettes = [:]
      objects = [:]
    }
    c.paletteID = Int(d[d.startIndex + 9])
    let count = Int(d[d.startIndex + 10])
    var at = 11
    for index in 0..<count {
      let flags = d.count - at >= 8 ? d[d.startIndex + at + 3] : 0
      guard d.count - at >= (flags & 0x80 != 0 ? 16 : 8) else {
        report(
          .truncated, structure, place,
          "composition object \(index + 1) of \(count) runs past the segment's \(d.count) bytes")
        break
      }
      var crop: (Int, Int, Int, Int)?
      if flags & 0x80 != 0 {
        crop = (
          Self.u16(d, at + 8), Self.u16(d, at + 10), Self.u16(d, at + 12), Self.u16(d, at + 14)
        )
      }
      c.objects.append(
        (
          id: Self.u16(d, at), x: Self.u16(d, at + 4), y: Self.u16(d, at + 6),
          forced: flags & 0x40 != 0, crop: crop
        ))
      at += crop == nil ? 8 : 16
    }
    composition = c
    pts = pts90k
    self.offset = place.offset
  }

  private mutating func palette(_ d: ArraySlice<UInt8>, _ place: Place) {
    let structure = "PGS palette definition segment"
    guard d.count >= 2 else {
      report(.truncated, structure, place, "\(d.count) bytes, fewer than its 2 fixed ones")
      return
    }
    if (d.count - 2) % 5 != 0 {
      report(
        .truncated, structure, place,
        "the last palette entry holds \((d.count - 2) % 5) of its 5 bytes (the whole ones are kept)"
      )
    }
    let id = Int(d[d.startIndex])
    var entries = palettes[id] ?? Array(repeating: (0, 0), count: 256)
    var at = d.startIndex + 2
    while d.endIndex - at >= 5 {
      let y = Int(d[at + 1])
      entries[Int(d[at])] = (Self.fullRange(y), d[at + 4])
      at += 5
    }
    palettes[id] = entries
  }

  /// Limited-range (16-235) luma to full range.
  static func fullRange(_ y: Int) -> UInt8 {
    UInt8(clamping: ((y - 16) * 255 + 109) / 219)
  }

  private mutating func object(_ d: ArraySlice<UInt8>, _ place: Place) {
    let structure = "PGS object definition segment"
    guard d.count >= 4 else {
      report(.truncated, structure, place, "\(d.count) bytes, fewer than its 4 fixed ones")
      return
    }
    let id = Self.u16(d, 0)
    let sequence = d[d.startIndex + 3]
    let fragment: ArraySlice<UInt8>
    var o: Object
    if sequence & 0x80 != 0 {
      guard d.count >= 11 else {
        report(
          .truncated, structure, place,
          "object \(id)'s first fragment has \(d.count) bytes, fewer than its 11 fixed ones")
        return
      }
      let length =
        Int(d[d.startIndex + 4]) << 16 | Int(d[d.startIndex + 5]) << 8
        | Int(d[d.startIndex + 6])
      o = Object()
      o.width = Self.u16(d, 7)
      o.height = Self.u16(d, 9)
      o.expected = max(0, length - 4)
      o.offset = place.offset
      o.position = place.position
      guard o.width > 0, o.height > 0, o.width <= Self.maxSide, o.height <= Self.maxSide else {
        report(
          .malformed, structure, place,
          "object \(id) is \(o.width)x\(o.height) pixels (1 to \(Self.maxSide) a side)")
        objects[id] = nil
        return
      }
      if o.expected > Self.maxObjectBytes {
        report(
          .limitExceeded, structure, place,
          "object \(id) declares \(o.expected) bytes of run-length data, more than \(Self.maxObjectBytes) (the rest is dropped)"
        )
      }
      fragment = d[(d.startIndex + 11)...]
    } else if let started = objects[id] {
      o = started
      fragment = d[(d.startIndex + 4)...]
    } else {
      return  // A stream read from the middle: the object's first fragment came before.
    }
    let room = max(0, min(o.expected, Self.maxObjectBytes) - o.data.count)
    if fragment.count > room, o.expected <= Self.maxObjectBytes, !o.overflowed {
      o.overflowed = true
      report(
        .malformed, structure, place,
        "object \(id)'s fragments hold more than the \(o.expected) bytes its first fragment declares (the surplus is dropped)"
      )
    }
    o.data += fragment.prefix(room)
    objects[id] = o
  }

  private mutating func finish() -> SubtitleEvent? {
    guard let c = composition else { return nil }
    composition = nil
    let palette = palettes[c.paletteID] ?? Array(repeating: (0, 0), count: 256)
    var bitmaps: [SubtitleBitmap] = []
    for placed in c.objects {
      guard let o = objects[placed.id] else { continue }
      let (decoded, lines) = Self.decode(o, palette: palette, forced: placed.forced)
      let short = o.data.count < min(o.expected, Self.maxObjectBytes)
      objects[placed.id]?.shown = true
      if short || lines < o.height, !o.shown {
        let place = Place(offset: o.offset, position: o.position)
        report(
          .truncated, "PGS object run-length data", place,
          short
            ? "object \(placed.id)'s fragments hold \(o.data.count) of its \(o.expected) bytes"
            : "object \(placed.id)'s run-length code ends after \(lines) of its \(o.height) lines")
      }
      var bitmap = decoded
      bitmap.x = placed.x
      bitmap.y = placed.y
      if let (cx, cy, cw, ch) = placed.crop {
        bitmap = bitmap.cropped(x: cx, y: cy, width: cw, height: ch)
      }
      if !bitmap.isBlank { bitmaps.append(bitmap) }
    }
    return SubtitleEvent(
      pts90k: pts, bitmaps: bitmaps, frameWidth: c.width, frameHeight: c.height, offset: offset)
  }

  /// The run-length decoded object, each pixel looked up in the palette, and the lines its code
  /// ended (all of them when it is whole).
  static func decode(_ o: Object, palette: [(UInt8, UInt8)], forced: Bool) -> (
    SubtitleBitmap, lines: Int
  ) {
    let count = o.width * o.height
    var luma = [UInt8](repeating: 0, count: count)
    var alpha = [UInt8](repeating: 0, count: count)
    let d = o.data
    var i = 0
    var x = 0
    var y = 0
    func put(_ colour: Int, _ run: Int) {
      guard y < o.height else { return }
      let n = min(run, o.width - x)
      guard n > 0 else { return }
      let (l, a) = palette[colour]
      let start = y * o.width + x
      if a != 0 {
        for p in start..<(start + n) {
          luma[p] = l
          alpha[p] = a
        }
      }
      x += n
    }
    while i < d.count, y < o.height {
      let b = d[i]
      i += 1
      if b != 0 {
        put(Int(b), 1)
        continue
      }
      guard i < d.count else { break }
      let c = d[i]
      i += 1
      if c == 0 {
        x = 0
        y += 1
        continue
      }
      var run = Int(c & 0x3F)
      if c & 0x40 != 0 {
        guard i < d.count else { break }
        run = run << 8 | Int(d[i])
        i += 1
      }
      var colour = 0
      if c & 0x80 != 0 {
        guard i < d.count else { break }
        colour = Int(d[i])
        i += 1
      }
      put(colour, run)
    }
    let bitmap = SubtitleBitmap(
      x: 0, y: 0, width: o.width, height: o.height, luma: luma, alpha: alpha, forced: forced)
    // The last line needs no end-of-line code when its pixels fill it.
    return (bitmap, y == o.height - 1 && x == o.width ? o.height : y)
  }
}

extension SubtitleBitmap {
  /// The part `x, y, width, height` (in the picture's own coordinates, clamped to it), placed
  /// where it shows on the frame.
  func cropped(x cx: Int, y cy: Int, width cw: Int, height ch: Int) -> SubtitleBitmap {
    let x0 = min(max(0, cx), width)
    let y0 = min(max(0, cy), height)
    let w = min(cw, width - x0)
    let h = min(ch, height - y0)
    guard w > 0, h > 0 else {
      return SubtitleBitmap(
        x: x, y: y, width: 0, height: 0, luma: [], alpha: [], forced: forced)
    }
    var l: [UInt8] = []
    var a: [UInt8] = []
    l.reserveCapacity(w * h)
    a.reserveCapacity(w * h)
    for row in y0..<(y0 + h) {
      l += luma[(row * width + x0)..<(row * width + x0 + w)]
      a += alpha[(row * width + x0)..<(row * width + x0 + w)]
    }
    return SubtitleBitmap(x: x, y: y, width: w, height: h, luma: l, alpha: a, forced: forced)
  }
}
