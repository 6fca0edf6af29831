import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitStreaming

/// The library's answer without system calls (`recentlyOpened`): a disc opened less than
/// `revalidation` ago, as it was then; after that, nil, so that the server looks at the files
/// again (`open`) and sees a disc replaced on disk.
@Suite("Disc library revalidation", .toolThreads)
struct DiscLibraryRevalidationTests {
  static let sample = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path

  /// A library over a copy of the sample image (so that the test can change it).
  static func library(_ revalidation: Duration) throws -> (DiscLibrary, String, TemporaryDirectory)
  {
    let dir = try TemporaryDirectory("revalidation")
    let copy = dir.file("disc.iso")
    try FileManager.default.copyItem(atPath: sample, toPath: copy)
    let library = try DiscLibrary(root: dir.path, revalidation: revalidation)
    let entry = try #require(library.entries().first)
    return (library, entry.id, dir)
  }

  @Test func aRecentlyOpenedDiscIsAnsweredWithoutLookingAtItsFiles() throws {
    let (library, id, dir) = try Self.library(.seconds(3600))
    #expect(library.recentlyOpened(id: id) == nil, "not opened yet")
    let opened = try library.open(id: id)
    let again = try #require(library.recentlyOpened(id: id))
    #expect(again.identity == opened.identity)
    // The image changes on disk (its modification time moves on): within the revalidation
    // window the cached disc is still answered; open(id:) looks and opens it again.
    let path = dir.file("disc.iso")
    let later = Date(timeIntervalSinceNow: 10)
    try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path)
    #expect(library.recentlyOpened(id: id)?.identity == opened.identity)
    let reopened = try library.open(id: id)
    #expect(reopened.identity != opened.identity)
    #expect(library.recentlyOpened(id: id)?.identity == reopened.identity)
  }

  @Test func withNoWindowEveryRequestLooksAtTheFiles() throws {
    let (library, id, dir) = try Self.library(.zero)
    _ = try library.open(id: id)
    #expect(library.recentlyOpened(id: id) == nil)
    _ = try library.open(id: id)
    #expect(library.recentlyOpened(id: id) == nil)
    withExtendedLifetime(dir) {}
  }
}
