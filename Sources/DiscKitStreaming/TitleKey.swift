import DiscKit

/// The `{key}` of a title URL: the playlist number on a Blu-ray (`00800`; `800` and
/// `00800.mpls` are accepted), the title number on a DVD (`1`...`99`).
package enum TitleKey {
  /// The canonical key of a playlist number: five digits.
  package static func playlistKey(_ number: Int) -> String {
    let digits = String(number)
    return digits.count >= 5 ? digits : String(repeating: "0", count: 5 - digits.count) + digits
  }

  /// The number in a key, or nil when it is not 1 to 5 digits (optionally followed by `.mpls`).
  package static func number(_ key: some StringProtocol) -> Int? {
    var text = Substring(key)
    if text.lowercased().hasSuffix(".mpls") { text = text.dropLast(5) }
    guard !text.isEmpty, text.utf8.count <= 5, text.utf8.allSatisfy({ (0x30...0x39).contains($0) })
    else { return nil }
    return Int(text)
  }

  /// Whether `key` names a title: a playlist or DVD title number (``number(_:)``) or an episode,
  /// `00002:e3` (``DiscKit/Episode/titleKey``).
  package static func isTitle(_ key: some StringProtocol) -> Bool {
    if number(key) != nil { return true }
    guard let colon = key.firstIndex(of: ":"), number(key[..<colon]) != nil else { return false }
    let rest = key[key.index(after: colon)...].utf8
    return rest.count >= 2 && rest.count <= 5 && rest.first == 0x65
      && rest.dropFirst().allSatisfy { (0x30...0x39).contains($0) }
  }
}
