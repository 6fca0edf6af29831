#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension String {
  /// printf-style formatting of numbers through the C library's `vsnprintf` (what Foundation's
  /// `String(format:)` does, without linking Foundation). Use `%s` only with C strings; Swift
  /// strings are interpolated around the numbers instead.
  package init(cFormat format: String, _ arguments: any CVarArg...) {
    var capacity = 64
    while true {
      var result: String?
      let needed = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
        let n = withVaList(arguments) { vsnprintf(buffer.baseAddress, capacity, format, $0) }
        if n >= 0 && Int(n) < capacity {
          result = String(
            decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(n)),
            as: UTF8.self)
        }
        return Int(n)
      }
      if let result {
        self = result
        return
      }
      if needed < 0 {
        self = ""
        return
      }
      capacity = needed + 1
    }
  }
}
