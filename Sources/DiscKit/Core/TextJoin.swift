/// Joining strings without the standard library's `joined(separator:)`.
///
/// `joined(separator:)` first tries a dynamic cast of the sequence to `[String]`; in the statically
/// linked `disckit` each distinct cast scans every protocol conformance record of the program once
/// (tens of microseconds per process). The hot commands (`titles`, `info`, `scan`) join with this
/// instead; the result is the same. The functions take concrete types: a generic one, called from
/// another module unspecialized, would look its collection's metadata up at run time instead.
package enum TextJoin {
  /// The elements of `parts` with `separator` between each two.
  package static func join(_ parts: [String], separator: String) -> String {
    join(parts[...], separator: separator)
  }

  /// The elements of `parts` with `separator` between each two.
  package static func join(_ parts: ArraySlice<String>, separator: String) -> String {
    var result = ""
    var first = true
    for part in parts {
      if first {
        first = false
      } else {
        result += separator
      }
      result += part
    }
    return result
  }

  /// Whether `text` contains `part` (compared as UTF-8 bytes: for the ASCII words DiscKit looks
  /// for, the same answer as `String.contains(_:)`, without its generic lookups at run time).
  package static func contains(_ text: String, _ part: String) -> Bool {
    let needle = Array(part.utf8)
    guard !needle.isEmpty else { return true }
    let haystack = Array(text.utf8)
    guard haystack.count >= needle.count else { return false }
    for start in 0...(haystack.count - needle.count)
    where haystack[start..<start + needle.count].elementsEqual(needle) {
      return true
    }
    return false
  }
}
