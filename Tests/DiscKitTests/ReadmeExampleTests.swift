// swift-format-ignore-file
// (the README example lines keep the README's column alignment)
import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The README's `## Library` example, compiled verbatim and run on the committed sample disc.
///
/// ``ReadmeExampleTests/snippet`` is the README's fenced block, character for character; one test
/// checks that the README still contains exactly it, so the text below and the README cannot
/// drift. ``libraryExample(_:)`` holds the same lines as code (between its two markers, the only
/// indentation added). Its parameter is named `Disc`, so `Disc.open(path: "movie.iso")` in the
/// verbatim lines calls ``SampleDisc/open(path:)``, which opens the sample image for that name.
@Suite("README example", .toolThreads)
struct ReadmeExampleTests {
  static let sample = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
  static let hasSample = FileManager.default.fileExists(atPath: sample)

  /// The README's `## Library` block, as it stands there.
  static let snippet = #"""
    ```swift
    import DiscKit

    let disc = try Disc.open(path: "movie.iso")          // UDF, ISO9660 or a folder; Sendable
    let list = try disc.titleList()                      // numbered as `disckit titles` numbers them
    print(list.reason)                                   // why the main title is the main title
    let title = try disc.mainTitle()                     // or disc.title(key: "00800"), disc.title(number: 2)
    print(title.duration, title.size, title.chapters.count, title.streams.map(\.language))
    let source = try title.byteSource(timeline: .continuous)  // positional reads from any task
    let part = try title.byteSource(timeline: .original, chapters: 2...4)  // = bd_seek_chapter + bd_read
    let start = try title.playbackStart(at: MediaTime(seconds: 600))
    let scan = try title.scan(at: MediaTime(seconds: 600))   // first keyframe, audio, PAT gate
    ```
    """#

  /// Opens the sample disc for the README's `movie.iso`.
  enum SampleDisc {
    static func open(path: String) throws -> DiscKit.Disc {
      #expect(path == "movie.iso")
      return try DiscKit.Disc.open(path: ReadmeExampleTests.sample)
    }
  }

  /// The snippet's lines after `import DiscKit`, verbatim, and what they made.
  static func libraryExample(_ Disc: SampleDisc.Type) throws -> (
    DiscKit.Disc, TitleList, DiscTitle, any ByteSource, any ByteSource, DiscTitle.PlaybackStart,
    DiscTitle.ScanReport
  ) {
    // README begin
    let disc = try Disc.open(path: "movie.iso")          // UDF, ISO9660 or a folder; Sendable
    let list = try disc.titleList()                      // numbered as `disckit titles` numbers them
    print(list.reason)                                   // why the main title is the main title
    let title = try disc.mainTitle()                     // or disc.title(key: "00800"), disc.title(number: 2)
    print(title.duration, title.size, title.chapters.count, title.streams.map(\.language))
    let source = try title.byteSource(timeline: .continuous)  // positional reads from any task
    let part = try title.byteSource(timeline: .original, chapters: 2...4)  // = bd_seek_chapter + bd_read
    let start = try title.playbackStart(at: MediaTime(seconds: 600))
    let scan = try title.scan(at: MediaTime(seconds: 600))   // first keyframe, audio, PAT gate
    // README end
    return (disc, list, title, source, part, start, scan)
  }

  @Test func theReadmeHoldsExactlyTheSnippet() throws {
    let readme = try String(
      contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(readme.range(of: "\n## Library\n"), "README has a ## Library section")
    let rest = readme[section.upperBound...]
    let next = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
    let fence = try #require(rest[..<next].range(of: "```swift\n"))
    let end = try #require(rest[fence.upperBound...].range(of: "\n```"))
    #expect(String(rest[fence.lowerBound..<end.upperBound]) == Self.snippet)
  }

  @Test func theCompiledLinesAreTheSnippets() throws {
    let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let lines = source.components(separatedBy: "\n")
    let begin = try #require(lines.firstIndex { $0.hasSuffix("// README begin") })
    let end = try #require(lines.firstIndex { $0.hasSuffix("// README end") })
    let code = lines[(begin + 1)..<end].map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 }
    let snippetLines = Self.snippet.components(separatedBy: "\n")
    // ```swift, import DiscKit, an empty line, the code, ```.
    #expect(Array(snippetLines.dropFirst(3).dropLast()) == code)
  }

  @Test(.enabled(if: hasSample, "TestImages/sample-bluray.iso is missing"))
  func libraryExampleRuns() throws {
    let (disc, list, title, source, part, start, scan) = try Self.libraryExample(SampleDisc.self)
    // Compared with how TestImages/scripts/sample-bluray.sh made the disc: title 1 (the first
    // playlist, 00000) is clips a + b, 4 s + 3 s, with a chapter every 2 s.
    #expect(disc.kind == .bluray)
    #expect(list.mainKey == "00000")
    #expect(title.key == "00000")
    #expect(abs(title.duration.seconds - 7) < 0.05)
    #expect(title.chapters.count == 4)
    // Chapters 2-4 are the title from 2 s on: fewer bytes than the whole, starting with a packet.
    #expect(part.size > 0 && part.size < source.size)
    // 600 s is past the end of a 7 s title; the start is still a BDAV source packet in it: a
    // 4-byte header, then the TS sync byte.
    #expect(start.offset >= 0 && start.offset < source.size)
    var packet = [UInt8](repeating: 0, count: 192)
    let read = try packet.withUnsafeMutableBytes { try source.read(at: start.offset, into: $0) }
    #expect(read == 192)
    #expect(packet[4] == 0x47)
    _ = scan
  }
}
