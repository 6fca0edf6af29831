import DiscKit

/// Test support, not API: what one fuzz input does to the subtitle decoders (the `pgs` and
/// `dvdsub` harnesses of `Tests/Fuzz`, whose kept inputs `DiscKitSubtitlesTests` replays through
/// the same calls). The pictures decoded go on through the OCR's preparation (lines, ink,
/// scaling; everything but libtesseract), and every picture must hold `width * height` pixels: a
/// trap is a bug, whatever the input. A malformed input is decoded as players decode it (what
/// parses is drawn, the errors say what did not), and every error it reports names a structure
/// and a byte offset inside the input.
@_spi(Fuzzing) public enum SubtitleFuzzHarness {
  /// A PGS stream: a `.sup` file when the input starts with `PG`, otherwise PES payloads, each
  /// a 2-byte big-endian length and that many bytes (the segments of one packet).
  public static func pgs(_ bytes: UnsafeRawBufferPointer) {
    let data = [UInt8](bytes)
    var events: [SubtitleEvent] = []
    var errors: [DiscKitError] = []
    if data.count >= 2, data[0] == 0x50, data[1] == 0x47 {
      (events, errors) = PGSDecoder.decode(supFile: data)
    } else {
      var decoder = PGSDecoder()
      var i = 0
      while data.count - i >= 2 {
        let count = min(Int(data[i]) << 8 | Int(data[i + 1]), data.count - i - 2)
        events += decoder.add(
          segments: data[(i + 2)..<(i + 2 + count)], pts90k: Int64(i), offset: Int64(i))
        i += 2 + count
      }
      errors = decoder.errors
    }
    check(errors, size: data.count)
    prepare(events)
  }

  /// A DVD subpicture unit, decoded with a fixed palette on a PAL frame.
  public static func dvdSubpicture(_ bytes: UnsafeRawBufferPointer) {
    let palette: [UInt32] = (0..<16).map { UInt32($0 * 0x0F_0000 + 0x10_8080) }
    do {
      let event = try DVDSubpictureDecoder.decode(
        [UInt8](bytes), pts90k: 0, palette: palette, frameWidth: 720, frameHeight: 576,
        offset: 0)
      prepare(event.map { [$0] } ?? [])
    } catch {
      check([error], size: bytes.count)
    }
  }

  /// Every error names a structure and a byte offset inside the input.
  static func check(_ errors: [DiscKitError], size: Int) {
    for error in errors {
      precondition(!error.structure.isEmpty)
      precondition(error.offset.map { $0 >= 0 && $0 < Swift.max(1, size) } ?? false)
    }
  }

  static func prepare(_ events: [SubtitleEvent]) {
    for event in events {
      for bitmap in event.bitmaps {
        precondition(
          bitmap.width >= 0 && bitmap.height >= 0
            && bitmap.luma.count == bitmap.width * bitmap.height
            && bitmap.alpha.count == bitmap.luma.count)
        for (picture, _) in OCRPreparation.linePictures(bitmap) {
          precondition(picture.pixels.count == picture.width * picture.height)
        }
      }
    }
  }
}
