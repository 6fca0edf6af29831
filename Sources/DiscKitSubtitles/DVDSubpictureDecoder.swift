/// Decodes one DVD subpicture unit (SPU) into a ``SubtitleEvent``.
///
/// An SPU is its size (2 bytes), the offset of its first display control sequence (2 bytes),
/// two interlaced fields of 2-bit pixels in nibble run-length code, and control sequences: each a
/// delay (in units of 1024 ticks at 90 kHz after the SPU's PTS), the offset of the next sequence,
/// and commands: forced start (0x00), start (0x01), stop (0x02), the four colours as indexes into
/// the program chain's 16-entry palette (0x03), their contrast (0x04), the display area (0x05),
/// the two fields' offsets (0x06), colour changes (0x07, skipped by their length) and end (0xFF).
/// Every offset and length is checked against the unit; a unit that does not parse gives `nil`.
public enum DVDSubpictureDecoder {
  /// The event of `unit` presented at `pts90k`, its colours from `palette` (16 `0x00YYCrCb`
  /// entries, ITU-R BT.601 limited range, as in the IFO).
  public static func decode(
    _ unit: [UInt8], pts90k: Int64, palette: [UInt32], frameWidth: Int, frameHeight: Int,
    offset: Int64
  ) -> SubtitleEvent? {
    guard unit.count >= 4 else { return nil }
    func u16(_ i: Int) -> Int { Int(unit[i]) << 8 | Int(unit[i + 1]) }
    let size = min(u16(0), unit.count)
    var sequence = u16(2)
    var colours = [0, 1, 2, 3]
    var contrast = [0, 15, 15, 15]
    var area: (x1: Int, x2: Int, y1: Int, y2: Int)?
    var fields: (Int, Int)?
    var start: Int64?
    var stop: Int64?
    var forced = false
    var visited = Set<Int>()
    while sequence + 4 <= size, visited.insert(sequence).inserted {
      let delay = Int64(u16(sequence)) << 10
      let next = u16(sequence + 2)
      var i = sequence + 4
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
          guard i + 2 <= size else { break commands }
          colours = [
            Int(unit[i + 1] & 0x0F), Int(unit[i + 1] >> 4), Int(unit[i] & 0x0F), Int(unit[i] >> 4),
          ]
          i += 2
        case 0x04:
          guard i + 2 <= size else { break commands }
          contrast = [
            Int(unit[i + 1] & 0x0F), Int(unit[i + 1] >> 4), Int(unit[i] & 0x0F), Int(unit[i] >> 4),
          ]
          i += 2
        case 0x05:
          guard i + 6 <= size else { break commands }
          let x1 = Int(unit[i]) << 4 | Int(unit[i + 1]) >> 4
          let x2 = Int(unit[i + 1] & 0x0F) << 8 | Int(unit[i + 2])
          let y1 = Int(unit[i + 3]) << 4 | Int(unit[i + 4]) >> 4
          let y2 = Int(unit[i + 4] & 0x0F) << 8 | Int(unit[i + 5])
          area = (x1, x2, y1, y2)
          i += 6
        case 0x06:
          guard i + 4 <= size else { break commands }
          fields = (u16(i), u16(i + 2))
          i += 4
        case 0x07:
          guard i + 2 <= size else { break commands }
          i += max(2, u16(i))
        default: break commands  // 0xFF and anything unknown end the sequence
        }
      }
      if next == sequence { break }
      sequence = next
    }
    guard let area, let fields, area.x2 >= area.x1, area.y2 >= area.y1 else { return nil }
    let width = area.x2 - area.x1 + 1
    let height = area.y2 - area.y1 + 1
    guard width <= 2048, height <= 2048 else { return nil }
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
