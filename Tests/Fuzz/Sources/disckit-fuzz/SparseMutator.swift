/// For the sparse-image harnesses (`udf`, `iso9660`, `image`: ``FuzzHarness/takesSparseImage``),
/// most mutations land inside one record's bytes, so records stay aligned and the sector they
/// describe keeps its address; the rest are libFuzzer's own (which also change sector numbers,
/// lengths and the record list).
@_cdecl("LLVMFuzzerCustomMutator")
public func fuzzerCustomMutator(
  _ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32
) -> Int {
  guard let data, size > 10, selected?.takesSparseImage == true, seed % 5 != 0
  else { return LLVMFuzzerMutate(data, size, maxSize) }
  // The records' data spans.
  var spans: [(start: Int, length: Int)] = []
  var at = 4
  while at + 6 <= size {
    let given = min(Int(data[at + 4]) | Int(data[at + 5]) << 8, 2048)
    let length = min(given, size - at - 6)
    if length > 0 { spans.append((at + 6, length)) }
    at += 6 + given
  }
  guard !spans.isEmpty else { return LLVMFuzzerMutate(data, size, maxSize) }
  let span = spans[Int(seed / 5) % spans.count]
  // A window of up to 64 bytes inside the record, mutated in place (its length kept).
  let offset = span.length > 64 ? Int(seed / 7) % (span.length - 63) : 0
  let length = min(64, span.length)
  var window = [UInt8](UnsafeBufferPointer(start: data + span.start + offset, count: length))
  let mutated = window.withUnsafeMutableBufferPointer {
    LLVMFuzzerMutate($0.baseAddress, length, length)
  }
  for i in 0..<min(mutated, length) { data[span.start + offset + i] = window[i] }
  return size
}

@_silgen_name("LLVMFuzzerMutate")
func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int) -> Int
