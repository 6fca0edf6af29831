// swift-tools-version: 6.1
import PackageDescription

// DiscKit: Blu-ray and DVD disc images in pure Swift.
//
// - `DiscKit` is the library: byte sources, ISO9660, UDF, BDMV, DVD, MPEG-TS, timing.
//   It depends on nothing but the standard library and swift-system, and holds no process policy
//   (no output files, no signal handlers).
// - `DiscKitOutput` writes files: the atomic file writer, the removal of temporary files on
//   SIGINT/SIGTERM/SIGHUP (opt-in, by the executables) and kernel-side copying
//   (`copy_file_range` through `CDiscKitShims`, as the Glibc module does not declare it).
// - `DiscKitAuthoring` writes UDF images and BDMV trees (used by `disckit author` and by tests).
// - `DiscKitReference` bridges to the C reference libraries (libudfread, libbluray, libdvdread).
//   It is used only by tests, by the `disckit-crosscheck` helper and by the benchmark.
// - `DiscKitCLI` is the whole command tree (testable); `disckit` is a thin `@main`. It links no C
//   library: commands that need one run in a helper program beside `disckit` (HelperProgram).
// - `DiscKitMedia` writes titles to Matroska over libavformat; only the `disckit-mkv` helper
//   program (and tests, benchmark) link it, never `disckit`.
// - `DiscKitSubtitles` reads disc subtitles as text (PGS and DVD subpictures, OCR with
//   libtesseract, cues on the title timeline, WebVTT/SRT, an on-disk cache); only the
//   `disckit-subtitles` helper program (and tests, benchmark) link it; `disckit serve` runs the
//   helper for the WebVTT renditions of its HLS (DiscKitStreaming.SubtitleHelperProvider).
// - `DiscKitCrosscheck` / `disckit-crosscheck`: `disckit crosscheck`, the only program linking
//   the C reference libraries.
// - `DiscKitStreaming` is the server core without a web framework: the library of opened discs
//   and their discovery, title resources, byte ranges and validators, HLS playlists, the stream
//   limiter and an async sequence of a title's bytes in bounded, reused chunks.
// - `DiscKitServer` is the thin Hummingbird 2 adapter over it (routes, middleware, errors as
//   responses, the NIO-bound stream writer), mountable into any Hummingbird router;
//   `disckit-serve` is its thin executable, run by `disckit serve` (so that `disckit` itself
//   links no NIO).
// - `DiscKitTranscode` decodes disc audio (TrueHD, DTS, AC-3, E-AC-3, LPCM) with libavcodec and
//   encodes the fMP4 HLS's stereo AAC and lossless FLAC renditions: DiscKitStreaming's
//   `AudioTranscoder` hook, supplied by `disckit-serve` (the streaming core links no codec
//   library).
// - `DiscKitFuzzHarnesses` is test support, not API: the fuzz harnesses' bodies (what one input
//   does to DiscKit), shared by the libFuzzer package (Tests/Fuzz, a package of its own, which can
//   link only products: hence a library product) and the suite's replay of the kept inputs.
let package = Package(
  name: "DiscKit",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "DiscKit", targets: ["DiscKit"]),
    .library(name: "DiscKitOutput", targets: ["DiscKitOutput"]),
    .library(name: "DiscKitAuthoring", targets: ["DiscKitAuthoring"]),
    .library(name: "DiscKitMedia", targets: ["DiscKitMedia"]),
    .executable(name: "disckit", targets: ["disckit"]),
    .executable(name: "disckit-mkv", targets: ["disckit-mkv"]),
    .executable(name: "disckit-crosscheck", targets: ["disckit-crosscheck"]),
    .library(name: "DiscKitStreaming", targets: ["DiscKitStreaming"]),
    .library(name: "DiscKitServer", targets: ["DiscKitServer"]),
    .library(name: "DiscKitTranscode", targets: ["DiscKitTranscode"]),
    .executable(name: "disckit-serve", targets: ["disckit-serve"]),
    .library(name: "DiscKitFuzzHarnesses", targets: ["DiscKitFuzzHarnesses"]),
    .library(name: "DiscKitSubtitles", targets: ["DiscKitSubtitles"]),
    .executable(name: "disckit-subtitles", targets: ["disckit-subtitles"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    // Without Hummingbird's default traits (FullFoundation, ConfigurationSupport): the server
    // links FoundationEssentials only, no Foundation, CoreFoundation, ICU or swift-configuration.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
  ],
  targets: [
    // copy_file_range(2) and preadv2(2) with RWF_NOWAIT, which the Swift Glibc module does not
    // declare (direct calls, so that they work in the statically linked `disckit`, where `dlsym`
    // finds nothing). A few lines of C with no library behind them: the core uses the second.
    .target(name: "CDiscKitShims"),
    .target(
      name: "DiscKit",
      dependencies: ["CDiscKitShims", .product(name: "SystemPackage", package: "swift-system")],
      exclude: ["Documents/Schemas"]
    ),
    .target(
      name: "DiscKitOutput",
      dependencies: [
        "DiscKit", "CDiscKitShims", .product(name: "SystemPackage", package: "swift-system"),
      ]
    ),
    .target(
      name: "DiscKitAuthoring",
      dependencies: [
        "DiscKit", "DiscKitOutput", .product(name: "SystemPackage", package: "swift-system"),
      ]
    ),
    .systemLibrary(
      name: "CUDFRead", pkgConfig: "libudfread", providers: [.apt(["libudfread-dev"])]),
    .systemLibrary(
      name: "CBluray", pkgConfig: "libbluray", providers: [.apt(["libbluray-dev"])]),
    .systemLibrary(
      name: "CDVDRead", pkgConfig: "dvdread", providers: [.apt(["libdvdread-dev"])]),
    .systemLibrary(
      name: "CDVDNav", pkgConfig: "dvdnav", providers: [.apt(["libdvdnav-dev"])]),
    .systemLibrary(
      name: "CFFmpeg", pkgConfig: "libavformat",
      providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev"])]),
    .systemLibrary(
      name: "CTesseract", pkgConfig: "tesseract", providers: [.apt(["libtesseract-dev"])]),
    // Disc subtitles as text: PGS and DVD subpicture decoding, OCR with libtesseract, cues on the
    // title timeline, WebVTT/SRT, the on-disk cache; linked by the `disckit-subtitles` helper.
    .target(name: "DiscKitSubtitles", dependencies: ["DiscKit", "DiscKitOutput", "CTesseract"]),
    .executableTarget(
      name: "disckit-subtitles",
      dependencies: [
        "DiscKitCLI", "DiscKitSubtitles", "DiscKitOutput",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    // Matroska output over libavformat; linked only by the `disckit-mkv` helper program.
    .target(name: "DiscKitMedia", dependencies: ["DiscKit", "DiscKitOutput", "CFFmpeg"]),
    .target(
      name: "DiscKitReference",
      dependencies: ["DiscKit", "CUDFRead", "CBluray", "CDVDRead", "CDVDNav"]
    ),
    .target(
      name: "DiscKitCLI",
      dependencies: [
        "DiscKit", "DiscKitAuthoring", "DiscKitOutput",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "SystemPackage", package: "swift-system"),
      ]
    ),
    // Release `disckit` on Linux: a static executable (glibc, the Swift runtime and libstdc++ all
    // linked in; no dynamic loader at start), without debug sections. Measured (issue 11):
    // `--version` 0.5 ms instead of 1.5 ms (as `/bin/true`). No C library is linked
    // into `disckit` (its helpers link them), so nothing needs `dlopen`. glibc's name-service calls
    // (`getpwuid_r`, linked in by FoundationEssentials through ArgumentParser, and not called by
    // any disckit command) would load glibc's NSS modules: they match where `disckit` was built.
    .executableTarget(
      name: "disckit", dependencies: ["DiscKitCLI", "DiscKitOutput"],
      linkerSettings: [
        .unsafeFlags(
          ["-static-executable", "-Xlinker", "--strip-debug"],
          .when(platforms: [.linux], configuration: .release))
      ]
    ),
    .executableTarget(
      name: "disckit-mkv",
      dependencies: ["DiscKitCLI", "DiscKitMedia", "DiscKitOutput", "DiscKitSubtitles"]),
    .target(
      name: "DiscKitCrosscheck",
      dependencies: [
        "DiscKit", "DiscKitCLI", "DiscKitReference",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(name: "disckit-crosscheck", dependencies: ["DiscKitCrosscheck"]),
    // The server core: no web framework, no NIO (the standard library, Foundation and DiscKit).
    .target(name: "DiscKitStreaming", dependencies: ["DiscKit"]),
    .target(
      name: "DiscKitServer",
      dependencies: [
        "DiscKit", "DiscKitStreaming",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ]
    ),
    // libavcodec, libavutil and libswresample loaded with dlopen at their first call, for
    // DiscKitTranscode: `disckit serve` maps them (and the ~100 libraries libavcodec needs, 16 MiB
    // resident) only once a title's HLS probes its audio, never for plain streams (issue 29).
    .target(
      name: "CDiscKitLibAV",
      linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
    // AAC and FLAC renditions of disc audio over libavcodec/libswresample (the streaming core's
    // `AudioTranscoder`); linked by `disckit-serve` only.
    .target(
      name: "DiscKitTranscode", dependencies: ["DiscKit", "DiscKitStreaming", "CDiscKitLibAV"]),
    .executableTarget(
      name: "disckit-serve",
      dependencies: [
        "DiscKitServer", "DiscKitCLI", "DiscKitTranscode",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .executableTarget(
      name: "DiscKitBench",
      dependencies: [
        "DiscKit", "DiscKitAuthoring", "DiscKitOutput", "DiscKitReference", "DiscKitCLI",
        "DiscKitMedia", "DiscKitSubtitles", "DiscKitStreaming", "DiscKitTranscode",
        "DiscKitAuthoringFixtures",
      ]
    ),
    .target(
      name: "DiscKitTestSupport",
      dependencies: ["DiscKit", "DiscKitFuzzHarnesses"],
      path: "Tests/DiscKitTestSupport"
    ),
    // The fuzz harnesses' bodies: DiscKit only (no Testing), as `disckit-fuzz` (Tests/Fuzz) links
    // them with libFuzzer.
    .target(
      name: "DiscKitFuzzHarnesses",
      dependencies: ["DiscKit"],
      path: "Tests/DiscKitFuzzHarnesses"
    ),
    // Test fixtures written with DiscKitAuthoring (synthetic BDMV folders, ffmpeg clips, trees for
    // the UDF writer), shared by the authoring, oracle and media tests. No C library.
    // The retail-like and flood disc writers (Foundation), for the tests and the benchmark:
    // out of DiscKitAuthoring, so that `disckit` (which links DiscKitAuthoring for `author`)
    // links no Foundation, CoreFoundation or ICU (their static initializers ran at every start).
    .target(
      name: "DiscKitAuthoringFixtures",
      dependencies: ["DiscKit", "DiscKitAuthoring"]
    ),
    .target(
      name: "DiscKitAuthoringTestSupport",
      dependencies: ["DiscKit", "DiscKitAuthoring", "DiscKitTestSupport"],
      path: "Tests/DiscKitAuthoringTestSupport"
    ),
    // The test targets, named by what they link beyond DiscKit (each builds without the others):
    // - `DiscKitTests`: the core's tests; DiscKit only (no C library, no authoring, no CLI; the fuzz
    //   harnesses' bodies, replayed on the kept inputs, are DiscKit only too). Their oracles
    //   are hand-derived facts, inputs the test builds, and Debian tools run as processes.
    .testTarget(
      name: "DiscKitTests",
      dependencies: ["DiscKit", "DiscKitFuzzHarnesses", "DiscKitTestSupport"]
    ),
    // - `DiscKitAuthoringTests`: the writers (UDF image writer, BDMV builder, flood disc, JAR
    //   writer, HDMV assembler) and the core readers on what they write; no C library.
    .testTarget(
      name: "DiscKitAuthoringTests",
      dependencies: [
        "DiscKit", "DiscKitAuthoring", "DiscKitAuthoringTestSupport", "DiscKitTestSupport",
        "DiscKitAuthoringFixtures",
      ]
    ),
    // - `DiscKitOracleTests`: comparisons with the C reference libraries (libudfread, libbluray,
    //   libdvdread, libdvdnav through DiscKitReference) and `disckit crosscheck`, of the readers and
    //   of the writers.
    .testTarget(
      name: "DiscKitOracleTests",
      dependencies: [
        "DiscKit", "DiscKitAuthoring", "DiscKitOutput", "DiscKitReference", "CUDFRead", "CBluray",
        "DiscKitCLI", "DiscKitCrosscheck", "DiscKitAuthoringTestSupport", "DiscKitTestSupport",
        "DiscKitAuthoringFixtures",
      ]
    ),
    // - `DiscKitMediaTests`: Matroska output over libavformat (DiscKitMedia), against mkvmerge,
    //   ffprobe, lsdvd and libbluray.
    .testTarget(
      name: "DiscKitMediaTests",
      dependencies: [
        "DiscKit", "DiscKitMedia", "DiscKitAuthoring", "DiscKitReference",
        "DiscKitAuthoringTestSupport", "DiscKitTestSupport",
      ]
    ),
    // The output target's own tests (atomic writer, signal policy): no C library but the shim.
    .testTarget(
      name: "DiscKitOutputTests",
      dependencies: ["DiscKitOutput", "DiscKit", "DiscKitTestSupport"]
    ),
    // The streaming core's tests link no Hummingbird and no NIO.
    .testTarget(
      name: "DiscKitStreamingTests",
      dependencies: [
        "DiscKitStreaming", "DiscKit", "DiscKitTestSupport", "DiscKitAuthoringTestSupport",
      ]
    ),
    // The Hummingbird adapter: in process (HummingbirdTesting) and with real clients.
    .testTarget(
      name: "DiscKitServerTests",
      dependencies: [
        "DiscKitServer", "DiscKitStreaming", "DiscKit", "DiscKitTestSupport", "DiscKitTranscode",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
      ]
    ),
    // - `DiscKitSubtitlesTests`: recognised subtitle text and cue times, against the authored text,
    //   ffprobe's subtitle packets and libbluray's clip times.
    .testTarget(
      name: "DiscKitSubtitlesTests",
      dependencies: [
        "DiscKitSubtitles", "DiscKit", "DiscKitReference", "DiscKitTestSupport",
      ]
    ),
    .testTarget(
      name: "DiscKitCLITests",
      dependencies: ["DiscKitCLI", "DiscKitCrosscheck", "DiscKit", "DiscKitTestSupport"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
