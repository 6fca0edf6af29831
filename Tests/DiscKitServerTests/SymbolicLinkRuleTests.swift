import DiscKitTestSupport
import Foundation
import Testing

/// `disckit titles --batch ROOT` and `disckit serve ROOT` list the same discs on one tree of
/// symbolic links: links are followed while their target stays inside ROOT; nothing outside ROOT
/// is listed by either. The expected list is written out by hand from that rule.
@Suite("Symbolic links: one rule for titles --batch and serve", .toolThreads)
struct SymbolicLinkRuleTests {
  static let sample = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
  static let ready =
    ServerProcess.haveBinary && Curl.available
    && FileManager.default.isExecutableFile(atPath: ServerProcess.disckit)
    && FileManager.default.fileExists(atPath: sample)
  static let notReady: Comment = "needs the built disckit and disckit-serve, and curl"

  @Test(.enabled(if: ready, notReady))
  func batchAndServeListTheSameDiscs() throws {
    let directory = try TemporaryDirectory("disckit-links")
    let root = directory.path + "/root"
    let outside = directory.path + "/outside"
    let fm = FileManager.default
    func folder(_ path: String) throws {
      try fm.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func link(_ path: String, to target: String) throws {
      try fm.createSymbolicLink(atPath: path, withDestinationPath: target)
    }
    try folder(root + "/shelf/disc/BDMV/STREAM")
    try folder(root + "/.store")
    try folder(root + "/leaky/BDMV")
    try folder(outside + "/shelf")
    try fm.copyItem(atPath: Self.sample, toPath: root + "/shelf/a.iso")
    try fm.copyItem(atPath: Self.sample, toPath: root + "/.store/c.iso")
    try fm.copyItem(atPath: Self.sample, toPath: outside + "/secret.iso")
    try fm.copyItem(atPath: Self.sample, toPath: outside + "/shelf/d.iso")
    // A link to an image inside ROOT: another name for it, listed.
    try link(root + "/link-in.iso", to: root + "/shelf/a.iso")
    // A link to an image outside ROOT: never listed.
    try link(root + "/link-out.iso", to: outside + "/secret.iso")
    // A linked folder inside ROOT (the hidden folder is not walked by its own name): followed.
    try link(root + "/store-link", to: root + "/.store")
    // A linked folder already walked under its own name: walked once.
    try link(root + "/zz-shelf-again", to: root + "/shelf")
    // A linked folder outside ROOT: never walked.
    try link(root + "/folder-out", to: outside + "/shelf")
    // Loops: to ROOT itself and to a parent.
    try link(root + "/loop", to: root)
    try link(root + "/shelf/up", to: "..")
    // A disc folder whose stream folder leads outside ROOT: refused.
    try link(root + "/leaky/BDMV/STREAM", to: outside + "/shelf")
    // A dangling link.
    try link(root + "/dangling.iso", to: root + "/missing.iso")
    let expected = ["link-in.iso", "shelf/a.iso", "shelf/disc", "store-link/c.iso"]

    try check(root, expected: expected, options: [])
    // --follow-links: links leaving ROOT are followed too, by both commands.
    let everything = [
      "folder-out/d.iso", "leaky", "link-in.iso", "link-out.iso", "shelf/a.iso", "shelf/disc",
      "store-link/c.iso",
    ]
    try check(root, expected: everything, options: ["--follow-links"])
  }

  /// `titles --batch ROOT` and `serve ROOT` with `options` list `expected` (relative paths, in
  /// order), and the server opens every listed image.
  func check(_ root: String, expected: [String], options: [String]) throws {
    let batch = try Tool.run(ServerProcess.disckit, ["titles", "--batch", root] + options)
    let listed = try batch.text.split(separator: "\n").map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      let path = try #require(object?["path"] as? String)
      return String(path.dropFirst(root.count + 1))
    }
    #expect(listed == expected, "\(options) \(batch.stderr)")

    let server = try ServerProcess(root: root, options, via: true)
    let (status, object) = try Curl.json(server.base + "/discs")
    #expect(status == 200)
    let discs = object["discs"] as? [[String: Any]] ?? []
    #expect(discs.compactMap { $0["path"] as? String } == expected, "\(options)")
    for disc in discs where (disc["path"] as? String)?.hasSuffix(".iso") == true {
      #expect(disc["error"] == nil, "\(disc)")
    }
  }
}
