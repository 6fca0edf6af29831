import DiscKit

/// Decodes one DVD subpicture unit (SPU) into a ``SubtitleEvent``.
///
/// An SPU is its size (2 bytes), the offset of its first display control sequence (2 bytes),
/// two interlaced fields of 2-bit pixels in nibble run-length code, and control sequences: each a
/// delay (in units of 1024 ticks at 90 kHz after the SPU's PTS), the offset of the next sequence,
/// and commands: forced start (0x00), start (0x01), stop (0x02), the four colours as indexes into
/// the program chain's 16-entry palette (0x03), their contrast (0x04), the display area (0x05),
/// the two fields' offsets (0x06), colour changes (0x07, skipped by their length) and end (0xFF).
///
/// Every offset and length is checked against the unit. A unit that does not parse is an error
/// (``DiscKit/DiscKitError`` naming the unit, its control sequence or the command, at the unit's
/// byte offset, the problem's place in the unit in the detail): a unit shorter than its
/// size field says or than 4 bytes (`truncated`), a control sequence that starts outside the
/// unit or whose next-sequence offset leaves it (`malformed`) or leads back to an earlier
/// sequence (`loop`), a command whose arguments run past the unit's end (`truncated`), a display
/// area whose end lies before its start or field offsets outside the unit (`malformed`), a
/// display area wider or taller than 2048 (`limitExceeded`).
///
/// Skipped without an error, as players do (ffmpeg's `dvdsubdec`): an unknown command ends its
/// control sequence; colour changes (0x07) are not applied; a repeated start or stop keeps the
/// first; runs past a line's end are clipped to it, and a field whose code ends early leaves its
/// remaining lines transparent. A well-formed unit that sets no display area or field offsets
/// (one that only stops a display) shows nothing: `nil`.
public enum DVDSubpictureDecoder {
  /// The event of `unit` presented at `pts90k`, its colours from `palette` (16 `0x00YYCrCb`
  /// entries, ITU-R BT.601 limited range, as in the IFO); `nil` when the unit shows nothing.
  ///
  /// - Parameter offset: where the unit starts in the title's bytes (the offset of its errors).
  /// - Throws: ``DiscKit/DiscKitError`` for a unit that does not parse (see the type's
  ///   description).
  public static func decode(
    _ unit: [UInt8], pts90k: Int64, palette: [UInt32], frameWidth: Int, frameHeight: Int,
    offset: Int64
  ) throws(DiscKitError) -> SubtitleEvent? {
    let name = "DVD subpicture unit"
    let control = "DVD subpicture control sequence"
    /// The error of `structure` at byte `place` of the unit.
    func failure(_ code: DiscKitError.Code, _ structure: String, _ place: Int, _ detail: String)
      -> DiscKitError
    {
      DiscKitError(code, structure, at: offset, "at byte \(place) of the unit: " + detail)
    }
    guard unit.count >= 4 else { throw .truncated(name, at: offset, needed: 4) }
    func u16(_ i: Int) -> Int { Int(unit[i]) << 8 | Int(unit[i + 1]) }
    let size = u16(0)
    guard size <= unit.count else { throw .truncated(name, at: offset, needed: Int64(size)) }
    var sequence = u16(2)
    guard size >= 4, sequence >= 4, sequence + 4 <= size else {
      throw failure(
        .malformed, name, 2,
        "the first control sequence at byte \(sequence) leaves no room for its 4-byte header in the \(size)-byte unit"
      )
    }
    var colours = [0, 1, 2, 3]
    var contrast = [0, 15, 15, 15]
    var area: (x1: Int, x2: Int, y1: Int, y2: Int)?
    var fields: (Int, Int)?
    var start: Int64?
    var stop: Int64?
    var forced = false
    var visited = Set<Int>()
    while true {
      visited.insert(sequence)
      let delay = Int64(u16(sequence)) << 10
      let next = u16(sequence + 2)
      var i = sequence + 4
      /// The command at `i - 1` needs `count` argument bytes.
      func arguments(_ count: Int) throws(DiscKitError) {
        guard i + count <= size else {
          throw failure(
            .truncated, control, i - 1,
            "command 0x\(String(unit[i - 1], radix: 16)) needs \(count) argument bytes, the \(size)-byte unit ends after \(size - i)"
          )
        }
      }
      commands: while i < size {
        let command = unit[i]
        i += 1
        switch command {
        case 0x00:
          forced = true
          if start == nil { start = delay }
        case 0x01: if start == nil { start = delay }
        case 0x02: if stop == nil { stop = delay }
        case 0x03:
          try arguments(2)
          colours = [
            Int(unit[i + 1] & 0x0F), Int(unit[i + 1] >> 4), Int(unit[i] & 0x0F), Int(unit[i] >> 4),
          ]
          i += 2
        case 0x04:
          try arguments(2)
          contrast = [
            Int(unit[i + 1] & 0x0F), Int(unit[i + 1] >> 4), Int(unit[i] & 0x0F), Int(unit[i] >> 4),
          ]
          i += 2
        case 0x05:
          try arguments(6)
          let x1 = Int(unit[i]) << 4 | Int(unit[i + 1]) >> 4
          let x2 = Int(unit[i + 1] & 0x0F) << 8 | Int(unit[i + 2])
          let y1 = Int(unit[i + 3]) << 4 | Int(unit[i + 4]) >> 4
          let y2 = Int(unit[i + 4] & 0x0F) << 8 | Int(unit[i + 5])
          guard x2 >= x1, y2 >= y1 else {
            throw failure(
              .malformed, "DVD subpicture display area (0x05)", i - 1,
              "ends before it starts: x \(x1)-\(x2), y \(y1)-\(y2)")
          }
          guard x2 - x1 < 2048, y2 - y1 < 2048 else {
            throw failure(
              .limitExceeded, "DVD subpicture display area (0x05)", i - 1,
              "\(x2 - x1 + 1)x\(y2 - y1 + 1) pixels, more than 2048 a side")
          }
          area = (x1, x2, y1, y2)
          i += 6
        case 0x06:
          try arguments(4)
          let (top, bottom) = (u16(i), u16(i + 2))
          guard top >= 4, top < size, bottom >= 4, bottom < size else {
            throw failure(
              .malformed, "DVD subpicture field offsets (0x06)", i - 1,
              "fields at bytes \(top) and \(bottom) of the \(size)-byte unit (4 to \(size - 1))")
          }
          fields = (top, bottom)
          i += 4
        case 0x07:
          try arguments(2)
          let length = u16(i)
          guard length >= 2, i + length <= size else {
            throw failure(
              .truncated, control, i - 1,
              "colour change (0x07) of \(length) bytes runs past the \(size)-byte unit")
          }
          i += length
        default: break commands  // 0xFF and anything unknown end the sequence
        }
      }
      if next == sequence { break }
      guard next >= 4, next + 4 <= size else {
        throw failure(
          .malformed, control, sequence + 2,
          "the next sequence at byte \(next) leaves no room for its 4-byte header in the \(size)-byte unit"
        )
      }
      guard !visited.contains(next) else {
        throw failure(
          .loop, control, sequence + 2,
          "the next sequence at byte \(next) was read already")
      }
      sequence = next
    }
    guard let area, let fields else { return nil }
    let width = area.x2 - area.x1 + 1
    let height = area.y2 - area.y1 + 1
    var luma = [UInt8](repeating: 0, count: width * height)
    var alpha = [UInt8](repeating: 0, count: width * height)
    let colourLuma = colours.map { c -> UInt8 in
      let y = c < palette.count ? Int((palette[c] >> 16) & 0xFF) : 0
      return UInt8(clamping: ((y - 16) * 255 + 109) / 219)
    }
    let colourAlpha = contrast.map { UInt8($0 * 17) }
    for field in 0..<2 {
      var nibble = 2 * (field == 0 ? fields.0 : fields.1)
      let end = 2 * size
      func next() -> Int? {
        guard nibble < end else { return nil }
        let b = unit[nibble >> 1]
        let v = nibble & 1 == 0 ? b >> 4 : b & 0x0F
        nibble += 1
        return Int(v)
      }
      var y = field
      var x = 0
      decoding: while y < height {
        guard var v = next() else { break }
        // 1 to 4 nibbles: a value below 0x4, 0x10, 0x40 takes one more.
        for limit in [0x4, 0x10, 0x40] {
          guard v < limit else { break }
          guard let n = next() else { break decoding }
          v = v << 4 | n
        }
        let colour = v & 3
        var run = v >> 2
        if run == 0 { run = width - x }
        let n = min(run, width - x)
        if colourAlpha[colour] != 0 {
          let base = y * width + x
          for p in base..<(base + n) {
            luma[p] = colourLuma[colour]
            alpha[p] = colourAlpha[colour]
          }
        }
        x += n
        if x >= width {
          x = 0
          y += 2
          nibble = (nibble + 1) & ~1
        }
      }
    }
    let bitmap = SubtitleBitmap(
      x: area.x1, y: area.y1, width: width, height: height, luma: luma, alpha: alpha,
      forced: forced)
    let shown = pts90k + (start ?? 0)
    return SubtitleEvent(
      pts90k: shown, bitmaps: bitmap.isBlank ? [] : [bitmap], endPTS90k: stop.map { pts90k + $0 },
      frameWidth: frameWidth, frameHeight: frameHeight, offset: offset)
  }
}
