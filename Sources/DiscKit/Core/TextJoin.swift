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
}
