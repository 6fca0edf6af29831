#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which Tesseract language data reads a stream's language, and whether it is installed.
public enum TesseractLanguage {
  /// ISO 639-2 bibliographic codes (and the few tesseract names that differ from the
  /// terminology code) to Tesseract's data names.
  static let fromBibliographic: [String: String] = [
    "alb": "sqi", "arm": "hye", "baq": "eus", "bur": "mya", "chi": "chi_sim", "cze": "ces",
    "dut": "nld", "fre": "fra", "geo": "kat", "ger": "deu", "gre": "ell", "ice": "isl",
    "mac": "mkd", "mao": "mri", "may": "msa", "per": "fas", "rum": "ron", "slo": "slk",
    "tib": "bod", "wel": "cym", "zho": "chi_sim",
  ]
  /// ISO 639-1 codes (DVD IFO languages) to ISO 639-2 bibliographic codes (as DiscKitMedia's
  /// Matroska tracks name them), from the iso-codes tables.
  static let twoLetter: [String: String] = [
    "aa": "aar", "ab": "abk", "ae": "ave", "af": "afr", "ak": "aka", "am": "amh", "an": "arg",
    "ar": "ara", "as": "asm", "av": "ava", "ay": "aym", "az": "aze", "ba": "bak", "be": "bel",
    "bg": "bul", "bh": "bih", "bi": "bis", "bm": "bam", "bn": "ben", "bo": "tib", "br": "bre",
    "bs": "bos", "ca": "cat", "ce": "che", "ch": "cha", "co": "cos", "cr": "cre", "cs": "cze",
    "cu": "chu", "cv": "chv", "cy": "wel", "da": "dan", "de": "ger", "dv": "div", "dz": "dzo",
    "ee": "ewe", "el": "gre", "en": "eng", "eo": "epo", "es": "spa", "et": "est", "eu": "baq",
    "fa": "per", "ff": "ful", "fi": "fin", "fj": "fij", "fo": "fao", "fr": "fre", "fy": "fry",
    "ga": "gle", "gd": "gla", "gl": "glg", "gn": "grn", "gu": "guj", "gv": "glv", "ha": "hau",
    "he": "heb", "hi": "hin", "ho": "hmo", "hr": "hrv", "ht": "hat", "hu": "hun", "hy": "arm",
    "hz": "her", "ia": "ina", "id": "ind", "ie": "ile", "ig": "ibo", "ii": "iii", "ik": "ipk",
    "io": "ido", "is": "ice", "it": "ita", "iu": "iku", "ja": "jpn", "jv": "jav", "ka": "geo",
    "kg": "kon", "ki": "kik", "kj": "kua", "kk": "kaz", "kl": "kal", "km": "khm", "kn": "kan",
    "ko": "kor", "kr": "kau", "ks": "kas", "ku": "kur", "kv": "kom", "kw": "cor", "ky": "kir",
    "la": "lat", "lb": "ltz", "lg": "lug", "li": "lim", "ln": "lin", "lo": "lao", "lt": "lit",
    "lu": "lub", "lv": "lav", "mg": "mlg", "mh": "mah", "mi": "mao", "mk": "mac", "ml": "mal",
    "mn": "mon", "mr": "mar", "ms": "may", "mt": "mlt", "my": "bur", "na": "nau", "nb": "nob",
    "nd": "nde", "ne": "nep", "ng": "ndo", "nl": "dut", "nn": "nno", "no": "nor", "nr": "nbl",
    "nv": "nav", "ny": "nya", "oc": "oci", "oj": "oji", "om": "orm", "or": "ori", "os": "oss",
    "pa": "pan", "pi": "pli", "pl": "pol", "ps": "pus", "pt": "por", "qu": "que", "rm": "roh",
    "rn": "run", "ro": "rum", "ru": "rus", "rw": "kin", "sa": "san", "sc": "srd", "sd": "snd",
    "se": "sme", "sg": "sag", "si": "sin", "sk": "slo", "sl": "slv", "sm": "smo", "sn": "sna",
    "so": "som", "sq": "alb", "sr": "srp", "ss": "ssw", "st": "sot", "su": "sun", "sv": "swe",
    "sw": "swa", "ta": "tam", "te": "tel", "tg": "tgk", "th": "tha", "ti": "tir", "tk": "tuk",
    "tl": "tgl", "tn": "tsn", "to": "ton", "tr": "tur", "ts": "tso", "tt": "tat", "tw": "twi",
    "ty": "tah", "ug": "uig", "uk": "ukr", "ur": "urd", "uz": "uzb", "ve": "ven", "vi": "vie",
    "vo": "vol", "wa": "wln", "wo": "wol", "xh": "xho", "yi": "yid", "yo": "yor", "za": "zha",
    "zh": "chi", "zu": "zul",
  ]

  /// The three-letter ISO 639-2 code of a disc language: a Blu-ray's as it is, a DVD's two-letter
  /// code as its bibliographic code; `nil` when empty or unknown.
  public static func threeLetter(_ language: String?) -> String? {
    let l = (language ?? "").lowercased().filter { $0.isLetter && $0.isASCII }
    switch l.count {
    case 2: return twoLetter[l]
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
      return fromBibliographic[l] ?? l
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
