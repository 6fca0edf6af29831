/// A playlist named in a string of a BD-J program or resource.
///
/// Three forms are recognised:
/// - a BD-J locator with a playlist part, `bd://0.PLAYLIST:00800` (also with a title, item, mark
///   or stream part after it, `bd://1.PLAYLIST:00800.ITEM:0`), the form BD-J programs hand to
///   the player to start a playlist;
/// - a playlist file name, `00800.mpls`;
/// - a studio key naming the feature in a text resource (`featurePlaylist=800`,
///   `<mainFeature playlist="00800"/>`): a key or element containing "feature" (not "featurette")
///   with a playlist number beside it.
@_spi(Formats)
public struct PlaylistMention: Sendable, Hashable {
  /// How the playlist was named.
  public enum Form: String, Sendable, Hashable, Codable {
    /// A `bd://…PLAYLIST:nnnnn` locator.
    case locator
    /// A `nnnnn.mpls` file name.
    case fileName
    /// A key or element naming the feature.
    case featureKey
  }

  /// The playlist number.
  public var playlist: Int
  /// The form.
  public var form: Form
  /// The string or line it was found in (at most 200 characters).
  public var text: String

  /// Creates a mention.
  package init(playlist: Int, form: Form, text: String) {
    self.playlist = playlist
    self.form = form
    self.text = text
  }

  /// The mentions in one string (a class-file constant or a line of text).
  package static func mentions(in string: String) -> [PlaylistMention] {
    let bytes = Array(string.utf8)
    var found: [PlaylistMention] = []
    func add(_ number: Int, _ form: Form) {
      let mention = PlaylistMention(playlist: number, form: form, text: String(string.prefix(200)))
      if !found.contains(mention) { found.append(mention) }
    }
    if contains(bytes, Array("bd://".utf8)) {
      let marker = Array("PLAYLIST:".utf8)
      var i = 0
      while let at = index(of: marker, in: bytes, from: i) {
        let (number, digits) = number(in: bytes, at: at + marker.count, maxDigits: 5)
        if digits > 0 { add(number, .locator) }
        i = at + marker.count
      }
    }
    // nnnnn.mpls, five digits not preceded by a sixth.
    let suffix = Array(".mpls".utf8)
    var i = 0
    while i + 5 + suffix.count <= bytes.count {
      if bytes[i + 5] == 0x2E,
        bytes[(i + 5)..<(i + 5 + suffix.count)].elementsEqual(suffix, by: { $0 | 0x20 == $1 }),
        bytes[i..<(i + 5)].allSatisfy(isDigit), i == 0 || !isDigit(bytes[i - 1])
      {
        add(number(in: bytes, at: i, maxDigits: 5).0, .fileName)
      }
      i += 1
    }
    if let keyed = featureKey(bytes) { add(keyed, .featureKey) }
    return found
  }

  /// The mentions in a text resource (`.properties`, `.xml`, `.txt`), line by line.
  package static func mentions(inText text: String, limit: Int = 10_000) -> [PlaylistMention] {
    var found: [PlaylistMention] = []
    for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).prefix(limit) {
      for mention in mentions(in: String(line)) where !found.contains(mention) {
        found.append(mention)
      }
    }
    return found
  }

  /// A number beside a key containing "feature": `key=value`, `key: value`, `key="value"`,
  /// `<key>value</key>` or an XML element with a feature attribute and a five-digit value.
  private static func featureKey(_ bytes: [UInt8]) -> Int? {
    let lower = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    guard let at = index(of: Array("feature".utf8), in: lower, from: 0),
      index(of: Array("featurette".utf8), in: lower, from: 0) == nil
    else { return nil }
    // A key=value pair whose key holds "feature": the value's first number (1 to 5 digits).
    if let separator = lower.firstIndex(where: { $0 == 0x3D || $0 == 0x3A }), separator > at {
      var j = separator + 1
      while j < lower.count, lower[j] == 0x20 || lower[j] == 0x22 || lower[j] == 0x27 { j += 1 }
      let (value, digits) = number(in: lower, at: j, maxDigits: 6)
      if digits > 0, digits <= 5 { return value }
    }
    // Otherwise a standalone five-digit number on the line.
    var j = 0
    while j < lower.count {
      if isDigit(lower[j]) {
        var k = j
        while k < lower.count, isDigit(lower[k]) { k += 1 }
        if k - j == 5 { return number(in: lower, at: j, maxDigits: 5).0 }
        j = k
      } else {
        j += 1
      }
    }
    return nil
  }

  private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

  private static func number(in bytes: [UInt8], at start: Int, maxDigits: Int) -> (Int, Int) {
    var value = 0
    var j = start
    while j < bytes.count, j - start < maxDigits, isDigit(bytes[j]) {
      value = value * 10 + Int(bytes[j] - 0x30)
      j += 1
    }
    if j < bytes.count, isDigit(bytes[j]) { return (0, 0) }
    return (value, j - start)
  }

  private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
    index(of: needle, in: bytes, from: 0) != nil
  }

  private static func index(of needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
    guard !needle.isEmpty, bytes.count >= needle.count, from <= bytes.count - needle.count else {
      return nil
    }
    var i = from
    while i <= bytes.count - needle.count {
      if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
      i += 1
    }
    return nil
  }
}
