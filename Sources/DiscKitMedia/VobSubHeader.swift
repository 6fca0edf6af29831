/// The VobSub `.idx` header that Matroska stores as an `S_VOBSUB` track's `CodecPrivate` (as
/// mkvmerge writes it from an `.idx` file): the picture size and the 16-colour palette, the
/// colours converted from the PGC's colour table (`0x00YYCrCb`, ITU-R BT.601 limited range) to
/// RGB the way libavcodec's DVD subtitle decoder converts an IFO palette.
struct VobSubHeader: Sendable, Hashable {
  /// The picture size the subpictures are drawn on.
  var width: Int
  var height: Int
  /// The PGC's 16 palette entries (`0x00YYCrCb`).
  var palette: [UInt32]

  /// `size: WxH` and `palette: rrggbb, ...` lines.
  var text: String {
    let colours = palette.prefix(16).map { entry in
      let rgb = Self.rgb(entry)
      return hex(rgb >> 16) + hex(rgb >> 8) + hex(rgb)
    }
    return "size: \(width)x\(height)\npalette: " + colours.joined(separator: ", ") + "\n"
  }

  private func hex(_ v: UInt32) -> String {
    let byte = v & 0xFF
    return (byte < 16 ? "0" : "") + String(byte, radix: 16)
  }

  /// `0x00RRGGBB` of a `0x00YYCrCb` entry: fixed point with 10 fraction bits, rounded and
  /// clamped, as libavcodec's `YUV_TO_RGB1_CCIR` / `YUV_TO_RGB2_CCIR`.
  static func rgb(_ entry: UInt32) -> UInt32 {
    func fix(_ x: Double) -> Int { Int(x * 1024 + 0.5) }
    let half = 512
    let y = Int((entry >> 16) & 0xFF)
    let cr = Int((entry >> 8) & 0xFF) - 128
    let cb = Int(entry & 0xFF) - 128
    let rAdd = fix(1.40200 * 255 / 224) * cr + half
    let gAdd = -fix(0.34414 * 255 / 224) * cb - fix(0.71414 * 255 / 224) * cr + half
    let bAdd = fix(1.77200 * 255 / 224) * cb + half
    let luma = (y - 16) * fix(255.0 / 219)
    func clamp(_ v: Int) -> UInt32 { UInt32(min(255, max(0, v >> 10))) }
    return clamp(luma + rAdd) << 16 | clamp(luma + gAdd) << 8 | clamp(luma + bAdd)
  }
}
