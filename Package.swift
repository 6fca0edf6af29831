// swift-tools-version: 6.1
import PackageDescription

// DiscKit: Blu-ray and DVD disc images in pure Swift.
//
// - `DiscKit` is the library: byte sources, ISO9660, UDF, BDMV, DVD, MPEG-TS, timing.
//   It depends on nothing but the standard library, swift-system and `CDiscKitShims` (one C
//   function: copy_file_range, which the Glibc module does not declare).
// - `DiscKitAuthoring` writes UDF images and BDMV trees (used by `disckit author` and by tests).
// - `DiscKitReference` bridges to the C reference libraries (libudfread, libbluray, libdvdread).
//   It is used only by tests, by the `disckit-crosscheck` helper and by the benchmark.
// - `DiscKitCLI` is the whole command tree (testable); `disckit` is a thin `@main`. It links no C
//   library: commands that need one run in a helper program beside `disckit` (HelperProgram).
// - `DiscKitMedia` writes titles to Matroska over libavformat; only the `disckit-mkv` helper
//   program (and tests, benchmark) link it, never `disckit`.
// - `DiscKitCrosscheck` / `disckit-crosscheck`: `disckit crosscheck`, the only program linking
//   the C reference libraries.
// - `DiscKitServer` is the HTTP routes over discs (Hummingbird 2, SwiftNIO), mountable into any
//   Hummingbird router; `disckit-serve` is its thin executable, run by `disckit serve` (so that
//   `disckit` itself links no NIO).
let package = Package(
  name: "DiscKit",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "DiscKit", targets: ["DiscKit"]),
    .library(name: "DiscKitAuthoring", targets: ["DiscKitAuthoring"]),
    .library(name: "DiscKitMedia", targets: ["DiscKitMedia"]),
    .executable(name: "disckit", targets: ["disckit"]),
    .executable(name: "disckit-mkv", targets: ["disckit-mkv"]),
    .executable(name: "disckit-crosscheck", targets: ["disckit-crosscheck"]),
    .library(name: "DiscKitServer", targets: ["DiscKitServer"]),
    .executable(name: "disckit-serve", targets: ["disckit-serve"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
  ],
  targets: [
    // copy_file_range(2), which the Swift Glibc module does not declare (a direct call, so that it
    // works in the statically linked `disckit`, where `dlsym` finds nothing).
    .target(name: "CDiscKitShims"),
    .target(
      name: "DiscKit",
      dependencies: ["CDiscKitShims", .product(name: "SystemPackage", package: "swift-system")],
      exclude: ["Documents/Schemas"]
    ),
    .target(
      name: "DiscKitAuthoring",
      dependencies: ["DiscKit", .product(name: "SystemPackage", package: "swift-system")]
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
      name: "CFFmpeg", pkgConfig: "libavformat", providers: [.apt(["libavformat-dev"])]),
    // Matroska output over libavformat; linked only by the `disckit-mkv` helper program.
    .target(name: "DiscKitMedia", dependencies: ["DiscKit", "CFFmpeg"]),
    .target(
      name: "DiscKitReference",
      dependencies: ["DiscKit", "CUDFRead", "CBluray", "CDVDRead", "CDVDNav"]
    ),
    .target(
      name: "DiscKitCLI",
      dependencies: [
        "DiscKit", "DiscKitAuthoring",
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
      name: "disckit", dependencies: ["DiscKitCLI"],
      linkerSettings: [
        .unsafeFlags(
          ["-static-executable", "-Xlinker", "--strip-debug"],
          .when(platforms: [.linux], configuration: .release))
      ]
    ),
    .executableTarget(name: "disckit-mkv", dependencies: ["DiscKitCLI", "DiscKitMedia"]),
    .target(
      name: "DiscKitCrosscheck",
      dependencies: [
        "DiscKit", "DiscKitCLI", "DiscKitReference",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(name: "disckit-crosscheck", dependencies: ["DiscKitCrosscheck"]),
    .target(
      name: "DiscKitServer",
      dependencies: [
        "DiscKit",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "SystemPackage", package: "swift-system"),
      ]
    ),
    .executableTarget(
      name: "disckit-serve",
      dependencies: [
        "DiscKitServer", "DiscKitCLI",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .executableTarget(
      name: "DiscKitBench",
      dependencies: [
        "DiscKit", "DiscKitAuthoring", "DiscKitReference", "DiscKitCLI", "DiscKitMedia",
      ]
    ),
    .target(
      name: "DiscKitTestSupport",
      dependencies: ["DiscKit"],
      path: "Tests/DiscKitTestSupport"
    ),
    .testTarget(
      name: "DiscKitTests",
      dependencies: [
        "DiscKit", "DiscKitAuthoring", "DiscKitReference", "DiscKitTestSupport", "DiscKitCLI",
        "DiscKitCrosscheck",
        "DiscKitMedia",
      ]
    ),
    .testTarget(
      name: "DiscKitServerTests",
      dependencies: ["DiscKitServer", "DiscKit", "DiscKitTestSupport"]
    ),
    .testTarget(
      name: "DiscKitCLITests",
      dependencies: ["DiscKitCLI", "DiscKitCrosscheck", "DiscKit", "DiscKitTestSupport"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
