#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// IMF-fixdate formatting for `Last-Modified` (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`.
package enum HTTPDate {
  private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// The date of `secondsSince1970` in UTC.
  package static func format(secondsSince1970: Int64) -> String {
    var time = time_t(secondsSince1970)
    var parts = tm()
    guard gmtime_r(&time, &parts) != nil else { return "Thu, 01 Jan 1970 00:00:00 GMT" }
    func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let day = days[Int(max(0, min(6, parts.tm_wday)))]
    let month = months[Int(max(0, min(11, parts.tm_mon)))]
    return
      "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }
}
