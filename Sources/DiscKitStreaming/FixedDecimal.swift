#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Double {
  /// printf's `%.Nf` of the value (`decimals` digits after the point, rounded as the C library
  /// rounds), what Foundation's `String(format:)` gives, through `vsnprintf`: the server links
  /// no Foundation (only FoundationEssentials, which has no `String(format:)`).
  package func fixed(_ decimals: Int) -> String {
    var capacity = 32
    while true {
      var text: String?
      let needed = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
        let n = withVaList([Int32(clamping: decimals), self]) {
          vsnprintf(buffer.baseAddress, capacity, "%.*f", $0)
        }
        if n >= 0 && Int(n) < capacity {
          text = String(
            decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(n)),
            as: UTF8.self)
        }
        return Int(n)
      }
      if let text { return text }
      if needed < 0 { return "" }
      capacity = needed + 1
    }
  }
}
