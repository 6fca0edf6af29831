import CTesseract
import DiscKit

/// One libtesseract instance for one language (not shareable between threads: each worker
/// makes its own).
final class TesseractEngine {
  private let handle: OpaquePointer

  /// Loads language data `code` from `directory`.
  init(code: String, directory: String) throws(DiscKitError) {
    guard let h = TessBaseAPICreate() else {
      throw DiscKitError(.unsupported, "Tesseract", "TessBaseAPICreate failed")
    }
    // The LSTM engine only (OEM 1): the data packages of Debian carry it for every language.
    guard TessBaseAPIInit2(h, directory, code, OEM_LSTM_ONLY) == 0 else {
      TessBaseAPIDelete(h)
      throw DiscKitError(
        .notFound, "Tesseract language data \(code)",
        "cannot load \(directory)/\(code).traineddata (install \(TesseractLanguage.package(for: code)))"
      )
    }
    handle = h
    TessBaseAPISetPageSegMode(handle, PSM_SINGLE_LINE)
    _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
    _ = TessBaseAPISetVariable(handle, "preserve_interword_spaces", "1")
  }

  deinit { TessBaseAPIDelete(handle) }

  /// The text of one line picture (8-bit grey, dark text on white).
  func line(_ image: GreyImage) -> String {
    image.pixels.withUnsafeBufferPointer { p in
      TessBaseAPISetImage(
        handle, p.baseAddress, Int32(image.width), Int32(image.height), 1, Int32(image.width))
    }
    TessBaseAPISetSourceResolution(handle, 300)
    guard let text = TessBaseAPIGetUTF8Text(handle) else { return "" }
    defer { TessDeleteText(text) }
    return String(cString: text)
  }

  /// libtesseract's version string.
  static var version: String { TessVersion().map { String(cString: $0) } ?? "?" }
}
