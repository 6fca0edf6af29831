@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// Bad input gives a typed error and leaves nothing behind.
@Suite("BDMV builder: bad input", .toolThreads)
struct BDMVBuilderBadInputTests {
  static func expectNothingLeft(_ dir: TemporaryDirectory, besides: [String]) {
    #expect(AuthoringFixtures.contents(dir.path) == besides.sorted())
  }

  @Test func notATransportStream() throws {
    let dir = try TemporaryDirectory("disckit-bdmv-bad")
    try AuthoringFixtures.write(AuthoringFixtures.bytes(100_000, seed: 1), dir.file("noise.ts"))
    let builder = try BDMVBuilder(clips: [dir.file("noise.ts")])
    #expect(throws: DiscKitError.self) { try builder.writeImage(to: dir.file("out.iso")) }
    do {
      _ = try builder.writeFolder(to: dir.file("out"))
      Issue.record("no error")
    } catch {
      #expect(error.code == .malformed)
      #expect(error.structure == dir.file("noise.ts"))
      #expect(error.offset == 0)
    }
    Self.expectNothingLeft(dir, besides: ["noise.ts"])
  }

  @Test func missingSource() throws {
    let dir = try TemporaryDirectory("disckit-bdmv-bad")
    do {
      _ = try BDMVBuilder(clips: [dir.file("absent.ts")])
      Issue.record("no error")
    } catch {
      #expect(error.code == .cannotOpen)
    }
    Self.expectNothingLeft(dir, besides: [])
  }

  @Test(.enabled(if: BDMVTestClips.available, Comment(rawValue: BDMVTestClips.missing)))
  func sourceVanishesBeforeWriting() throws {
    let clips = try BDMVTestClips.get()
    let dir = try TemporaryDirectory("disckit-bdmv-bad")
    let first = dir.file("first.ts")
    let second = dir.file("second.ts")
    try FileManager.default.copyItem(atPath: clips.file("a.ts"), toPath: first)
    try FileManager.default.copyItem(atPath: clips.file("b.ts"), toPath: second)
    let builder = try BDMVBuilder(clips: [first, second])
    try FileManager.default.removeItem(atPath: second)
    do {
      _ = try builder.writeImage(to: dir.file("out.iso"))
      Issue.record("no error")
    } catch {
      #expect(error.code == .cannotOpen)
      #expect(error.structure == second)
    }
    Self.expectNothingLeft(dir, besides: ["first.ts"])
  }

  @Test func unreadableSource() throws {
    let dir = try TemporaryDirectory("disckit-bdmv-bad")
    // A directory cannot be read as a stream (root ignores permission bits, so no chmod 000).
    try FileManager.default.createDirectory(
      atPath: dir.file("dir.ts"), withIntermediateDirectories: true)
    #expect(throws: DiscKitError.self) {
      let builder = try BDMVBuilder(clips: [dir.file("dir.ts")])
      _ = try builder.writeFolder(to: dir.file("out"))
    }
    Self.expectNothingLeft(dir, besides: ["dir.ts"])
  }

  @Test(.enabled(if: BDMVTestClips.available, Comment(rawValue: BDMVTestClips.missing)))
  func streamWithoutVideo() throws {
    let clips = try BDMVTestClips.get()
    let dir = try TemporaryDirectory("disckit-bdmv-bad")
    let builder = try BDMVBuilder(clips: [clips.file("audio-only.ts")])
    do {
      _ = try builder.writeImage(to: dir.file("out.iso"))
      Issue.record("no error")
    } catch {
      // An audio-only clip is a sub-path's (secondary audio), never a play item.
      #expect(error.code == .invalidArgument)
      #expect(error.structure == "title 1")
      #expect(error.detail.contains("audio-only.ts has no video"))
    }
    Self.expectNothingLeft(dir, besides: [])
  }

  @Test func tooManyClips() throws {
    let paths = (0..<100_000).map { "/nonexistent/\($0).ts" }
    do {
      _ = try BDMVBuilder(clips: paths)
      Issue.record("no error")
    } catch {
      #expect(error.code == .limitExceeded)
    }
  }

  @Test func playlistNumbersPastFiveDigits() throws {
    let dir = try TemporaryDirectory("disckit-bdmv-bad")
    try AuthoringFixtures.write(AuthoringFixtures.bytes(10, seed: 2), dir.file("x.ts"))
    do {
      _ = try BDMVBuilder(
        clips: [dir.file("x.ts")],
        titles: [.init(clips: [dir.file("x.ts")], playlistNumber: 99_990)],
        options: .init(
          decoys: BDMVBuilder.Decoy.obfuscation(title: 0, count: 20), firstPlaylistNumber: 99_980))
      Issue.record("no error")
    } catch {
      #expect(error.code == .limitExceeded)
      #expect(error.structure == "BDMV/PLAYLIST")
    }
    do {
      _ = try BDMVBuilder(
        clips: [dir.file("x.ts")],
        titles: Array(repeating: .init(clips: [dir.file("x.ts")]), count: 1000))
      Issue.record("no error")
    } catch {
      #expect(error.code == .limitExceeded)
    }
  }

  @Test func titleNamesAClipNotGiven() throws {
    let dir = try TemporaryDirectory("disckit-bdmv-bad")
    try AuthoringFixtures.write(AuthoringFixtures.bytes(10, seed: 2), dir.file("x.ts"))
    #expect(throws: DiscKitError.self) {
      _ = try BDMVBuilder(clips: [dir.file("x.ts")], titles: [.init(clips: ["other.ts"])])
    }
  }

  @Test func outputFolderExists() throws {
    let dir = try TemporaryDirectory("disckit-bdmv-bad")
    try AuthoringFixtures.write(AuthoringFixtures.bytes(10, seed: 2), dir.file("x.ts"))
    try AuthoringFixtures.write(AuthoringFixtures.bytes(10, seed: 3), dir.file("out/keep"))
    let builder = try BDMVBuilder(clips: [dir.file("x.ts")])
    do {
      _ = try builder.writeFolder(to: dir.file("out"))
      Issue.record("no error")
    } catch {
      #expect(error.code == .alreadyExists)
    }
    #expect(AuthoringFixtures.contents(dir.file("out")) == ["keep"])
  }
}
