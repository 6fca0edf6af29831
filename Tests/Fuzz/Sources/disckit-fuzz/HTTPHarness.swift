import DiscKitFuzzHarnesses
import DiscKitStreaming

/// A `Range` request header (``ByteRangeRequest``): the first eight bytes are the resource's size,
/// the rest the header's text. Whatever the text, a partial range is never empty and lies inside
/// the resource (RFC 9110 §14.1.2); a violation traps, which libFuzzer reports. (Over
/// DiscKitStreaming, so not among DiscKit's shared ``FuzzHarness/all``.)
let rangeHarness = FuzzHarness(name: "range") { bytes in
  guard bytes.count >= 8 else { return }
  let size = Int64(bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } >> 2)
  let header = String(decoding: bytes.dropFirst(8), as: UTF8.self)
  switch ByteRangeRequest(header: header, size: size) {
  case .whole, .unsatisfiable: break
  case .partial(let range):
    precondition(!range.isEmpty && range.lowerBound >= 0 && range.upperBound <= size)
  }
}
