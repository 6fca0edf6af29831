// swift-tools-version: 6.1
import PackageDescription

// DiscKit's libFuzzer harnesses: a package of its own so the normal build never sees them.
// Built by `make fuzz` (Scripts/fuzz.sh) with `-sanitize=fuzzer,address`; one binary, one harness
// per parser entry point, chosen with DISCKIT_FUZZ_TARGET (see Sources/disckit-fuzz/Harness.swift).
// The harnesses' bodies are DiscKit's `DiscKitFuzzHarnesses` (Tests/DiscKitFuzzHarnesses), which
// the test suite replays the kept inputs through; this package adds the libFuzzer entry points, the
// sparse-image mutator, the `range` harness (over DiscKitStreaming) and the `pgs` and `dvdsub`
// harnesses (DiscKitSubtitles' decoders; their bodies are its `SubtitleFuzzHarness`).
let package = Package(
  name: "DiscKitFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "DiscKit", path: "../..")],
  targets: [
    .executableTarget(
      name: "disckit-fuzz",
      dependencies: [
        .product(name: "DiscKitFuzzHarnesses", package: "DiscKit"),
        .product(name: "DiscKitStreaming", package: "DiscKit"),
        .product(name: "DiscKitSubtitles", package: "DiscKit"),
      ],
      // libFuzzer provides main(); the harness file must not.
      swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    )
  ],
  swiftLanguageModes: [.v6]
)
