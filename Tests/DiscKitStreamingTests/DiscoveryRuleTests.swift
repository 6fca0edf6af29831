import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitStreaming

/// `disckit serve ROOT` and `disckit titles --batch ROOT` list the same discs: one rule
/// (`DiscFinder`), the server only adding its confinement to the root.
@Suite("One discovery rule for serve and --batch", .toolThreads)
struct DiscoveryRuleTests {
  @Test func serveAndBatchListTheSameDiscs() throws {
    let root = try TemporaryDirectory("disckit-one-rule")
    let fm = FileManager.default
    func folder(_ path: String) throws {
      try fm.createDirectory(atPath: root.path + "/" + path, withIntermediateDirectories: true)
    }
    func file(_ path: String) throws {
      try folder((path as NSString).deletingLastPathComponent)
      try Data().write(to: URL(fileURLWithPath: root.path + "/" + path))
    }
    // Discs: every image extension in any case, every kind of disc folder, nested.
    try file("films/a.iso")
    try file("films/b.IMG")
    try file("films/deep/er/c.udf")
    try folder("films/d/BDMV/STREAM")
    try folder("films/e/VIDEO_TS")
    try folder("camcorder/PRIVATE/AVCHD/BDMV")
    try folder("lower/bdmv")
    // Not discs: other files, hidden names, the inside of a disc folder.
    try file("films/notes.txt")
    try file("films/.hidden.iso")
    try file("films/d/BDMV/STREAM/00000.m2ts")
    try fm.createSymbolicLink(
      atPath: root.path + "/alias", withDestinationPath: root.path + "/films/deep")
    // `alias` comes first in byte order: the folder it links to is walked there, and once.
    let expected: Set<String> = [
      "films/a.iso", "films/b.IMG", "alias/er/c.udf", "films/d", "films/e", "camcorder", "lower",
    ]
    let served = Set(try DiscDiscovery(root: root.path).discover().map(\.path))
    let real = try #require(DiscFinder.realPath(root.path))
    let batch = Set(
      try DiscFinder.discs(under: real).map { String($0.dropFirst(real.count + 1)) })
    #expect(batch == expected)
    #expect(served == expected)
  }
}
