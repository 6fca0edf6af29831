import DiscKitFuzzHarnesses

#if canImport(Glibc)
  import Glibc
#endif

/// Every harness, by name: DiscKit's (``FuzzHarness/all``, whose bodies the test suite also replays
/// the kept inputs through), this package's `range` and the subtitle decoders' `pgs` and `dvdsub`.
let harnesses: [FuzzHarness] = FuzzHarness.all + [rangeHarness, pgsHarness, dvdsubHarness]

nonisolated(unsafe) var selected: FuzzHarness?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
  let name = getenv("DISCKIT_FUZZ_TARGET").map { String(cString: $0) } ?? ""
  guard let harness = harnesses.first(where: { $0.name == name }) else {
    let names = harnesses.map { $0.name }.joined(separator: " ")
    let message = "disckit-fuzz: set DISCKIT_FUZZ_TARGET to one of: \(names)\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(64)
  }
  selected = harness
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
  selected?.run(bytes)
  return 0
}

/// SwiftPM links an executable's entry point as `<module>_main` (`--defsym main=...`), so
/// libFuzzer's own `main` is not used: this one runs the libFuzzer driver.
@_cdecl("disckit_fuzz_main")
public func fuzzMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments, fuzzerTestOneInput)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
