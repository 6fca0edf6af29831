/// Test support, not API: one fuzz harness, what one fuzz input does to DiscKit (parse it, run a
/// VM on it, open it as a disc and read it). The libFuzzer entry points (`Tests/Fuzz`, chosen with
/// `DISCKIT_FUZZ_TARGET`) and the suite's replay of the kept inputs
/// (`Tests/DiscKitTests/Fuzz/FuzzRegressionTests.swift`) both run these bodies, so an input the
/// fuzzer found replays through the same calls in `make test`. A harness must never trap; a thrown
/// `DiscKitError` is the expected answer to bad input.
///
/// This module is a library product only because the fuzz package (a package of its own) can link
/// nothing but products of DiscKit's package; embedders have no use for it.
public struct FuzzHarness: Sendable {
  /// The name given in `DISCKIT_FUZZ_TARGET`, also the corpus, dictionary and regression folder
  /// name.
  public let name: String
  /// Whether the input is a disc image in the sparse encoding (the `udf`, `iso9660` and `image`
  /// harnesses), whose records the fuzzer's custom mutator keeps aligned.
  public let takesSparseImage: Bool
  /// Feeds one input to DiscKit.
  public let run: @Sendable (UnsafeRawBufferPointer) -> Void

  /// A harness named `name` whose input goes to `run`.
  public init(
    name: String, takesSparseImage: Bool = false,
    run: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
  ) {
    self.name = name
    self.takesSparseImage = takesSparseImage
    self.run = run
  }

  init<Body: FuzzHarnessBody>(_ body: Body.Type) {
    self.init(name: Body.name, takesSparseImage: Body.takesSparseImage) { Body.run($0) }
  }

  /// Every harness over DiscKit alone, in the order `Scripts/fuzz.sh` runs them. (The `range`
  /// harness, over DiscKitStreaming, is the fuzz package's own.)
  public static let all: [FuzzHarness] = [
    FuzzHarness(UDFHarness.self), FuzzHarness(ISO9660Harness.self),
    FuzzHarness(IndexHarness.self), FuzzHarness(MovieObjectHarness.self),
    FuzzHarness(HDMVHarness.self), FuzzHarness(ICSHarness.self), FuzzHarness(MPLSHarness.self),
    FuzzHarness(CLPIHarness.self), FuzzHarness(IFOHarness.self), FuzzHarness(NavPackHarness.self),
    FuzzHarness(TSHarness.self), FuzzHarness(PSHarness.self), FuzzHarness(TimeSeekHarness.self),
    FuzzHarness(SegmentHarness.self), FuzzHarness(ImageHarness.self),
    FuzzHarness(DVDVMHarness.self), FuzzHarness(BDJOHarness.self), FuzzHarness(JARHarness.self),
    FuzzHarness(ClassHarness.self), FuzzHarness(HEVCHarness.self), FuzzHarness(DOVIHarness.self),
  ]
}

/// One harness's body, a caseless enum per harness (see ``FuzzHarness/all``).
protocol FuzzHarnessBody: SendableMetatype {
  /// The harness's name (``FuzzHarness/name``).
  static var name: String { get }
  /// Whether the input is in the sparse image encoding (``SparseImage``).
  static var takesSparseImage: Bool { get }
  /// What one input does.
  static func run(_ bytes: UnsafeRawBufferPointer)
}

extension FuzzHarnessBody {
  static var takesSparseImage: Bool { false }
}
