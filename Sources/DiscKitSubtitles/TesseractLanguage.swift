import DiscKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which Tesseract language data reads a stream's language, and whether it is installed.
public enum TesseractLanguage {
  /// The three-letter ISO 639-2 code of a disc language: a Blu-ray's as it is, a DVD's two-letter
  /// code as its bibliographic code; `nil` when empty or unknown.
  public static func threeLetter(_ language: String?) -> String? {
    let l = (language ?? "").lowercased().filter { $0.isLetter && $0.isASCII }
    switch l.count {
    case 2: return ISO639.bibliographic[l]
    case 3: return l
    default: return nil
    }
  }

  /// Tesseract's data name for a disc language (ISO 639-2 in either form, or ISO 639-1), or
  /// `nil` for an empty or undetermined one (`und`, `zxx`, `mis`, `mul`, `qaa`-`qtz`).
  public static func code(for language: String?) -> String? {
    guard let l = threeLetter(language) else { return nil }
    switch l.count {
    case 3:
      if ["und", "zxx", "mis", "mul"].contains(l) || ("qaa"..."qtz").contains(l) { return nil }
      if l == "chi" || l == "zho" { return "chi_sim" }
      return ISO639.bibliographicToTerminology[l] ?? l
    default: return nil
    }
  }

  /// The Debian package holding Tesseract data `code` (`tesseract-ocr-chi-sim`).
  public static func package(for code: String) -> String {
    "tesseract-ocr-" + code.lowercased().replacingOccurrences(of: "_", with: "-")
  }

  /// The folder of the installed language data: `$TESSDATA_PREFIX`, else the first of Debian's
  /// and the usual places holding `eng.traineddata` (or any `*.traineddata`).
  public static var dataDirectory: String? {
    var candidates: [String] = []
    if let prefix = getenv("TESSDATA_PREFIX").map({ String(cString: $0) }), !prefix.isEmpty {
      candidates += [prefix, prefix + "/tessdata"]
    }
    candidates += [
      "/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
      "/usr/share/tessdata", "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata",
    ]
    return candidates.first {
      access($0 + "/osd.traineddata", R_OK) == 0 || access($0 + "/eng.traineddata", R_OK) == 0
    }
  }

  /// Whether the data for `code` is installed.
  public static func isInstalled(_ code: String) -> Bool {
    guard let dir = dataDirectory else { return false }
    return access(dir + "/" + code + ".traineddata", R_OK) == 0
  }
}

extension String {
  fileprivate func replacingOccurrences(of a: String, with b: String) -> String {
    split(separator: Character(a), omittingEmptySubsequences: false).joined(separator: b)
  }
}
