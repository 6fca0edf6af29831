/// An 8-bit grey picture (row-major, 0 black).
struct GreyImage: Sendable, Hashable {
  var width: Int
  var height: Int
  var pixels: [UInt8]
}

/// Turns a subtitle picture into what Tesseract reads best: one picture per text line, dark
/// text on white, padded, scaled so that a line is about ``lineHeight`` pixels high.
///
/// Subtitle text is a fill with an outline (or a shadow) on transparency. The opaque pixels'
/// luma splits in two groups (Otsu's threshold); the fill is the group that touches transparency
/// less (an outline surrounds it), so yellow-on-black and black-on-white captions both come out
/// as dark text. Each pixel's ink is its opacity times where its luma lies between the two
/// groups' means (antialiased edges stay grey). Lines are the runs of rows holding ink; a run
/// much lower than the tallest (an accent above a capital, a dot) joins its nearest neighbour.
enum OCRPreparation {
  /// The height Tesseract's line recogniser is given (pixels).
  static let lineHeight = 72
  /// White margin around a line, as a fraction of its height.
  static let margin = 0.25

  /// The ink (0-255) of every pixel of `bitmap`.
  static func ink(_ b: SubtitleBitmap) -> [UInt8] {
    let n = b.width * b.height
    var histogram = [Int](repeating: 0, count: 256)
    for i in 0..<n where b.alpha[i] >= 128 { histogram[Int(b.luma[i])] += 1 }
    let total = histogram.reduce(0, +)
    guard total > 0 else { return [UInt8](repeating: 0, count: n) }
    // Otsu's threshold over the opaque pixels' luma.
    var sum = 0.0
    for v in 0..<256 { sum += Double(v * histogram[v]) }
    var sumB = 0.0
    var weightB = 0
    var best = -1.0
    var threshold = 0
    for t in 0..<256 {
      weightB += histogram[t]
      guard weightB > 0 else { continue }
      let weightF = total - weightB
      if weightF == 0 { break }
      sumB += Double(t * histogram[t])
      let meanB = sumB / Double(weightB)
      let meanF = (sum - sumB) / Double(weightF)
      let between = Double(weightB) * Double(weightF) * (meanB - meanF) * (meanB - meanF)
      if between > best {
        best = between
        threshold = t
      }
    }
    var dark = (0.0, 0)
    var light = (0.0, 0)
    for v in 0..<256 where histogram[v] > 0 {
      if v <= threshold {
        dark.0 += Double(v * histogram[v])
        dark.1 += histogram[v]
      } else {
        light.0 += Double(v * histogram[v])
        light.1 += histogram[v]
      }
    }
    let darkMean = dark.1 > 0 ? dark.0 / Double(dark.1) : 0
    let lightMean = light.1 > 0 ? light.0 / Double(light.1) : 255
    // One group only (or two close ones): every opaque pixel is text.
    if light.1 == 0 || dark.1 == 0 || lightMean - darkMean < 48 {
      return b.alpha
    }
    // Which group touches transparency more: that one is the outline.
    var touch = (dark: 0, light: 0)
    for y in 0..<b.height {
      for x in 0..<b.width {
        let i = y * b.width + x
        guard b.alpha[i] >= 128 else { continue }
        var border = x == 0 || y == 0 || x == b.width - 1 || y == b.height - 1
        if !border {
          border =
            b.alpha[i - 1] < 128 || b.alpha[i + 1] < 128 || b.alpha[i - b.width] < 128
            || b.alpha[i + b.width] < 128
        }
        if border {
          if Int(b.luma[i]) <= threshold { touch.dark += 1 } else { touch.light += 1 }
        }
      }
    }
    let fillIsLight =
      Double(touch.light) / Double(light.1) <= Double(touch.dark) / Double(dark.1)
    var out = [UInt8](repeating: 0, count: n)
    let span = max(1.0, lightMean - darkMean)
    for i in 0..<n where b.alpha[i] > 0 {
      var f = (Double(b.luma[i]) - darkMean) / span
      if !fillIsLight { f = 1 - f }
      f = min(1, max(0, f))
      out[i] = UInt8(f * Double(b.alpha[i]))
    }
    return out
  }

  /// The text lines of `bitmap`: row ranges, top to bottom.
  static func lines(ink: [UInt8], width: Int, height: Int) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var start: Int?
    for y in 0...height {
      var has = false
      if y < height {
        let row = y * width
        for x in 0..<width where ink[row + x] >= 128 {
          has = true
          break
        }
      }
      if has, start == nil { start = y }
      if !has, let s = start {
        runs.append(s..<y)
        start = nil
      }
    }
    // Runs much lower than the tallest (accents, dots, noise) join their nearest neighbour.
    while runs.count > 1 {
      let tallest = runs.map(\.count).max() ?? 0
      guard let i = runs.indices.min(by: { runs[$0].count < runs[$1].count }),
        runs[i].count * 100 < tallest * 45
      else { break }
      let gapAbove = i > 0 ? runs[i].lowerBound - runs[i - 1].upperBound : Int.max
      let gapBelow = i + 1 < runs.count ? runs[i + 1].lowerBound - runs[i].upperBound : Int.max
      if gapAbove <= gapBelow {
        runs[i - 1] = runs[i - 1].lowerBound..<runs[i].upperBound
      } else {
        runs[i + 1] = runs[i].lowerBound..<runs[i + 1].upperBound
      }
      runs.remove(at: i)
    }
    return runs
  }

  /// The slant of a line's strokes: the shear `k` (pixels right per pixel up) that lines its
  /// ink up in the fewest, fullest columns (the largest sum of squared column counts), searched
  /// from -0.15 to 0.45. Upright type gives about 0, oblique and italic faces 0.15-0.25.
  static func slant(ink: [UInt8], width: Int, rows: Range<Int>, columns: ClosedRange<Int>)
    -> Double
  {
    var points: [(x: Int, up: Int)] = []
    for y in rows {
      for x in columns where ink[y * width + x] >= 128 { points.append((x, rows.upperBound - y)) }
    }
    guard points.count >= 32 else { return 0 }
    var best = (k: 0.0, score: -1)
    var counts = [Int](repeating: 0, count: columns.count + rows.count + 2)
    for step in 0...20 {
      let k = -0.15 + 0.03 * Double(step)
      for i in counts.indices { counts[i] = 0 }
      let shift = k < 0 ? 0 : Int((k * Double(rows.count)).rounded(.up))
      for p in points {
        let c = p.x - columns.lowerBound - Int((k * Double(p.up)).rounded()) + shift
        if c >= 0, c < counts.count { counts[c] += 1 }
      }
      let score = counts.reduce(0) { $0 + $1 * $1 }
      if score > best.score { best = (k, score) }
    }
    return best.k
  }

  /// The shear above which a line counts as italic (about 6 degrees).
  static let italicSlant = 0.1

  /// Each line of `bitmap` as a padded, scaled, dark-on-light picture, with its slant
  /// (``slant(ink:width:rows:columns:)``).
  static func linePictures(_ b: SubtitleBitmap) -> [(picture: GreyImage, slant: Double)] {
    guard b.width > 0, b.height > 0 else { return [] }
    let ink = ink(b)
    return lines(ink: ink, width: b.width, height: b.height).compactMap {
      rows -> (picture: GreyImage, slant: Double)? in
      // The line's columns holding ink.
      var left = b.width
      var right = -1
      for y in rows {
        for x in 0..<b.width where ink[y * b.width + x] >= 64 {
          left = min(left, x)
          right = max(right, x)
        }
      }
      guard right >= left else { return nil }
      let w = right - left + 1
      let h = rows.count
      let scale = Double(lineHeight) / Double(h)
      let pad = Int(Double(lineHeight) * margin)
      let outW = Int((Double(w) * scale).rounded()) + 2 * pad
      let outH = lineHeight + 2 * pad
      guard outW > 0, outW <= 16384 else { return nil }
      var pixels = [UInt8](repeating: 255, count: outW * outH)
      // Bilinear resampling of the ink.
      for oy in 0..<lineHeight {
        let sy = (Double(oy) + 0.5) / scale - 0.5
        let y0 = max(0, min(h - 1, Int(sy.rounded(.down))))
        let y1 = min(h - 1, y0 + 1)
        let fy = min(1, max(0, sy - Double(y0)))
        for ox in 0..<(outW - 2 * pad) {
          let sx = (Double(ox) + 0.5) / scale - 0.5
          let x0 = max(0, min(w - 1, Int(sx.rounded(.down))))
          let x1 = min(w - 1, x0 + 1)
          let fx = min(1, max(0, sx - Double(x0)))
          func at(_ x: Int, _ y: Int) -> Double {
            Double(ink[(rows.lowerBound + y) * b.width + left + x])
          }
          let v =
            (at(x0, y0) * (1 - fx) + at(x1, y0) * fx) * (1 - fy)
            + (at(x0, y1) * (1 - fx) + at(x1, y1) * fx) * fy
          pixels[(oy + pad) * outW + ox + pad] = UInt8(255 - min(255, max(0, v.rounded())))
        }
      }
      return (
        GreyImage(width: outW, height: outH, pixels: pixels),
        slant(ink: ink, width: b.width, rows: rows, columns: left...right)
      )
    }
  }
}
