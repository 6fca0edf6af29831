@_spi(Formats) import DiscKit
import DiscKitAuthoring
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Every real disc's metadata, wrapped into a UDF 2.50 image (the Blu-ray layout: metadata
/// partition), reads through DiscKit's UDF reader exactly like the folder it came from: the same
/// files and bytes (libudfread agrees), the same playlists, titles, clips and main title.
@Suite("Real discs through UDF 2.50 images", .toolThreads)
struct WrappedRealDiscTests {
  @Test(needsRealData)
  func imageReadsLikeTheFolder() throws {
    let scratch = try TemporaryDirectory()
    var checked = 0
    for folder in LibblurayParityTests.discs {
      let image = scratch.file("disc-\(checked).iso")
      try UDFImageWriter(folder: folder).write(to: image)
      let fromImage = try DiscImage.open(path: image)
      let fromFolder = try DiscImage.open(path: folder)
      #expect(fromImage.fileSystem.kind == .udf)
      #expect(fromImage.kind == fromFolder.kind, "\(folder)")

      // The file tree, through DiscKit and through libudfread.
      let ours = try fromImage.fileSystem.recursiveContents()
      let theirs = try Reference.UDFImage(path: image).recursiveListing()
      #expect(ours.map(\.path) == theirs.map(\.path), "\(folder)")
      #expect(ours.map(\.size) == theirs.map(\.size), "\(folder)")
      let local = try fromFolder.fileSystem.recursiveContents()
      #expect(Set(ours.map(\.path)) == Set(local.map(\.path)), "\(folder)")
      for entry in ours where !entry.isDirectory {
        #expect(
          try fromImage.fileSystem.readFile(atPath: entry.path)
            == fromFolder.fileSystem.readFile(atPath: entry.path), "\(folder)\(entry.path)")
      }

      // The navigation read from both.
      let a = try BlurayDisc(disc: fromImage)
      let b = try BlurayDisc(disc: fromFolder)
      #expect(a.playlists.map(\.name) == b.playlists.map(\.name), "\(folder)")
      func describe(_ disc: BlurayDisc) -> [String] {
        disc.playlists.map { file in
          guard let title = try? disc.title(playlist: file.name) else {
            return file.name + " unreadable"
          }
          return "\(file.name) \(title.duration45k) \(title.size) \(title.chapters.count) "
            + title.clips.map { "\($0.clipID):\($0.startPacket)-\($0.endPacket)" }.joined(
              separator: ",")
        }
      }
      #expect(describe(a) == describe(b), "\(folder)")
      let candidates = { (disc: BlurayDisc) in
        disc.playlists.map {
          SmartTitleSelector.Candidate(name: $0.name, number: $0.number, playlist: $0.playlist)
        }
      }
      #expect(
        SmartTitleSelector.select(candidates(a)).main
          == SmartTitleSelector.select(candidates(b)).main,
        "\(folder)")
      checked += 1
    }
    #expect(checked >= 25)
  }
}
