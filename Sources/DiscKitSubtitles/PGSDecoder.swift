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
/// with no objects is a clear. Malformed segments are skipped (never trusted for a length); an
/// object grows to at most ``maxObjectBytes``.
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
  }

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
  public mutating func add(segments data: ArraySlice<UInt8>, pts90k: Int64, offset: Int64)
    -> [SubtitleEvent]
  {
    var events: [SubtitleEvent] = []
    var i = data.startIndex
    while data.endIndex - i >= 3 {
      let type = data[i]
      let length = Int(data[i + 1]) << 8 | Int(data[i + 2])
      guard length <= data.endIndex - i - 3 else { break }
      let body = data[(i + 3)..<(i + 3 + length)]
      i += 3 + length
      switch type {
      case 0x16: composition(body, pts90k: pts90k, offset: offset)
      case 0x14: palette(body)
      case 0x15: object(body)
      case 0x80:
        if let event = finish() { events.append(event) }
      default: break  // WDS (0x17) and unknown segments: nothing the text needs.
      }
    }
    return events
  }

  /// Decodes a whole `.sup` file (`PG`, PTS, DTS, then a segment, repeated).
  public static func events(supFile bytes: [UInt8]) -> [SubtitleEvent] {
    var decoder = PGSDecoder()
    var events: [SubtitleEvent] = []
    var i = 0
    while bytes.count - i >= 13, bytes[i] == 0x50, bytes[i + 1] == 0x47 {
      let pts =
        Int64(bytes[i + 2]) << 24 | Int64(bytes[i + 3]) << 16 | Int64(bytes[i + 4]) << 8
        | Int64(bytes[i + 5])
      let length = Int(bytes[i + 11]) << 8 | Int(bytes[i + 12])
      guard bytes.count - i - 13 >= length else { break }
      events += decoder.add(
        segments: bytes[(i + 10)..<(i + 13 + length)], pts90k: pts, offset: Int64(i))
      i += 13 + length
    }
    return events
  }

  private static func u16(_ d: ArraySlice<UInt8>, _ at: Int) -> Int {
    Int(d[d.startIndex + at]) << 8 | Int(d[d.startIndex + at + 1])
  }

  private mutating func composition(_ d: ArraySlice<UInt8>, pts90k: Int64, offset: Int64) {
    guard d.count >= 11 else { return }
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
    for _ in 0..<count {
      guard d.count - at >= 8 else { break }
      let flags = d[d.startIndex + at + 3]
      var crop: (Int, Int, Int, Int)?
      if flags & 0x80 != 0 {
        guard d.count - at >= 16 else { break }
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
    self.offset = offset
  }

  private mutating func palette(_ d: ArraySlice<UInt8>) {
    guard d.count >= 2 else { return }
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

  private mutating func object(_ d: ArraySlice<UInt8>) {
    guard d.count >= 4 else { return }
    let id = Self.u16(d, 0)
    let sequence = d[d.startIndex + 3]
    if sequence & 0x80 != 0 {
      guard d.count >= 11 else { return }
      let length =
        Int(d[d.startIndex + 4]) << 16 | Int(d[d.startIndex + 5]) << 8
        | Int(d[d.startIndex + 6])
      var o = Object()
      o.width = Self.u16(d, 7)
      o.height = Self.u16(d, 9)
      o.expected = max(0, length - 4)
      o.data = Array(d[(d.startIndex + 11)...].prefix(Self.maxObjectBytes))
      objects[id] = o
    } else if var o = objects[id] {
      let room = max(0, Self.maxObjectBytes - o.data.count)
      o.data += d[(d.startIndex + 4)...].prefix(room)
      objects[id] = o
    }
  }

  private mutating func finish() -> SubtitleEvent? {
    guard let c = composition else { return nil }
    composition = nil
    let palette = palettes[c.paletteID] ?? Array(repeating: (0, 0), count: 256)
    var bitmaps: [SubtitleBitmap] = []
    for placed in c.objects {
      guard let o = objects[placed.id], o.width > 0, o.height > 0, o.width <= Self.maxSide,
        o.height <= Self.maxSide,
        var bitmap = Self.decode(o, palette: palette, forced: placed.forced)
      else { continue }
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

  /// The run-length decoded object, each pixel looked up in the palette.
  static func decode(_ o: Object, palette: [(UInt8, UInt8)], forced: Bool) -> SubtitleBitmap? {
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
    return SubtitleBitmap(
      x: 0, y: 0, width: o.width, height: o.height, luma: luma, alpha: alpha, forced: forced)
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
