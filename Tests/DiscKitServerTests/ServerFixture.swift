import DiscKitTestSupport
import Foundation
import Testing

/// A served root built from the generated test discs:
///
///     movies/simple.iso        Blu-ray (title = 2 clips, chapters every 2 s)
///     movies/angles.iso        Blu-ray, one play item with 2 angles
///     sample-bluray.iso        the committed sample
///     dvd/dvd-pal.iso          DVD
///     folders/seamless/        Blu-ray folder (BDMV/), two seamless clips
///     broken/truncated.iso     simple.iso cut after 600 KiB (422)
///     broken/noise.iso         64 KiB of seeded noise (422)
///     escape.iso -> outside    a symbolic link leaving the root (never listed)
final class ServerFixture: @unchecked Sendable {
  static let simple = Fixtures.generated("bluray/simple.iso")
  static let ready =
    ServerProcess.haveBinary && Curl.available
    && FileManager.default.fileExists(atPath: simple)
    && FileManager.default.fileExists(atPath: Fixtures.generated("dvd-pal.iso"))
  static let notReady: Comment =
    "needs the built disckit-serve, curl and TestImages/scripts/make-all.sh output"

  let directory: TemporaryDirectory
  let outside: TemporaryDirectory
  var root: String { directory.path + "/root" }

  init() throws {
    directory = try TemporaryDirectory("disckit-serve")
    outside = try TemporaryDirectory("disckit-outside")
    let fm = FileManager.default
    for folder in ["movies", "dvd", "folders", "broken"] {
      try fm.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
    }
    try fm.copyItem(atPath: Self.simple, toPath: root + "/movies/simple.iso")
    try fm.copyItem(
      atPath: Fixtures.generated("bluray/angles.iso"), toPath: root + "/movies/angles.iso")
    try fm.copyItem(
      atPath: Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path,
      toPath: root + "/sample-bluray.iso")
    try fm.copyItem(atPath: Fixtures.generated("dvd-pal.iso"), toPath: root + "/dvd/dvd-pal.iso")
    try fm.copyItem(
      atPath: Fixtures.generated("bluray/seamless"), toPath: root + "/folders/seamless")
    let simple = try Data(contentsOf: URL(fileURLWithPath: Self.simple))
    try simple.prefix(600 << 10).write(to: URL(fileURLWithPath: root + "/broken/truncated.iso"))
    var random = SeededRandom(seed: 10)
    try Data((0..<(64 << 10)).map { _ in UInt8.random(in: 0...255, using: &random) })
      .write(to: URL(fileURLWithPath: root + "/broken/noise.iso"))
    try fm.copyItem(atPath: Self.simple, toPath: outside.path + "/secret.iso")
    try fm.createSymbolicLink(atPath: root + "/escape.iso", withDestinationPath: outside.path + "/secret.iso")
  }

  /// Starts a server over the root.
  func start(_ arguments: [String] = []) throws -> ServerProcess {
    try ServerProcess(root: root, arguments)
  }

  /// `GET /discs` as path -> entry.
  static func discs(_ server: ServerProcess) throws -> [String: [String: Any]] {
    let (status, object) = try Curl.json(server.base + "/discs")
    #expect(status == 200)
    let list = object["discs"] as? [[String: Any]] ?? []
    return Dictionary(uniqueKeysWithValues: list.map { ($0["path"] as? String ?? "", $0) })
  }

  /// The id of the disc at `path`.
  static func id(_ server: ServerProcess, _ path: String) throws -> String {
    try #require(try discs(server)[path]?["id"] as? String)
  }

  /// Runs the built disckit.
  static func disckit(_ arguments: [String]) throws -> Tool.Result {
    try Tool.run(ServerProcess.disckit, arguments)
  }
}
