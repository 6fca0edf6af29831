import ArgumentParser
import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitCLI

@Suite("CLI parsing", .toolThreads)
struct CommandParsingTests {
  @Test func lsParsesItsOptions() throws {
    let command = try DiscKitCommand.parseAsRoot([
      "ls", "disc.iso", "/BDMV", "--recursive", "--json",
    ])
    let ls = try #require(command as? ListCommand)
    #expect(ls.image.image == "disc.iso")
    #expect(ls.path == "/BDMV")
    #expect(ls.recursive)
    #expect(ls.output.json)
  }

  @Test func catDefaultsToStandardOutput() throws {
    let cat = try #require(
      try DiscKitCommand.parseAsRoot(["cat", "disc.iso", "/a"]) as? CatCommand)
    #expect(cat.output == "-")
    #expect(!cat.force)
  }

  @Test func unknownOptionIsAUsageError() {
    #expect(throws: (any Error).self) { try DiscKitCommand.parseAsRoot(["ls", "--bogus"]) }
  }

  @Test func folderListingEndToEnd() throws {
    let dir = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: dir.file("BDMV/PLAYLIST"), withIntermediateDirectories: true)
    try Data([0x49, 0x4E, 0x44, 0x58, 0x30, 0x32, 0x30, 0x30]).write(
      to: URL(fileURLWithPath: dir.file("BDMV/index.bdmv")))
    let disc = try DiscKit.DiscImage.open(path: dir.path)
    let listing = try ListingDocument(image: disc, path: "/", recursive: true)
    #expect(listing.entries.map(\.path) == ["/BDMV", "/BDMV/PLAYLIST", "/BDMV/index.bdmv"])
    #expect(listing.entries[2].size == 8)
    #expect(InfoDocument(image: disc).discKind == "bluray")
    #expect(InfoDocument(image: disc).fileSystem == "folder")
  }
}
