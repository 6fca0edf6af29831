@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Titles and title bytes of the generated discs, against libdvdread and the authoring script.
@Suite(.toolThreads) struct DVDTitleTests {
  static var haveGenerated: Bool {
    FileManager.default.fileExists(atPath: Fixtures.generated("dvd-ntsc"))
  }

  /// Whether the generated ISO is there (the test then needs the readers to open it: a reader
  /// regression fails the test instead of disabling it).
  static var haveImage: Bool {
    FileManager.default.fileExists(atPath: Fixtures.generated("dvd-ntsc.iso"))
  }

  @Test(.enabled(if: haveGenerated, "run TestImages/scripts/make-all.sh"))
  func ntscTitlesAsAuthored() throws {
    // make-dvd.sh: VTS 1 = 6 s (chapters 0,2,4), 3 s + 3 s, 6 s (chapters 0,3); VTS 2 = 9 s (0,3,6).
    let disc = try DVDDisc(fileSystem: try FolderFileSystem(root: Fixtures.generated("dvd-ntsc")))
    let titles = try disc.titles.map { try $0.get() }
    #expect(titles.map(\.titleSet) == [1, 1, 1, 2])
    #expect(titles.map(\.titleInSet) == [1, 2, 3, 1])
    #expect(titles.map { $0.chapters.count } == [3, 2, 2, 3])
    let seconds = titles.map { Double($0.duration90k) / 90_000 }
    for (got, want) in zip(seconds, [6.0, 6.0, 6.0, 9.0]) {
      #expect(abs(got - want) < 0.2, "\(seconds)")
    }
    for title in titles {
      #expect(title.video.formatName == "NTSC" && title.video.aspectName == "16:9")
      #expect(title.audio.map(\.codec) == ["ac3"])
      #expect(title.audio.map(\.language) == [title.titleSet == 1 ? "en" : "fr"])
      #expect(title.chapters.first?.start90k == 0)
      #expect(title.chapters.last.map { $0.start90k + $0.duration90k } == title.duration90k)
    }
    // The biggest VOB set (VTS 1) does not hold the longest title (title 4 in VTS 2).
    #expect(try disc.titleVOBs(titleSet: 1).size > disc.titleVOBs(titleSet: 2).size)
    let smart = DVDSmartTitleSelector.select(disc)
    #expect(smart.title == 4)
    #expect(LsdvdTitleSelector.select(disc) == 4)
    // Chapters 2-3 of title 4 are its last two thirds.
    let part = try disc.byteSource(title: 4, chapters: 2...3)
    let whole = try disc.byteSource(title: 4)
    #expect(part.size < whole.size)
    #expect(
      try part.bytes(at: 0, count: Int(part.size))
        == whole.bytes(at: whole.size - part.size, count: Int(part.size)))
    #expect(throws: DiscKitError.self) { try disc.byteSource(title: 4, chapters: 3...4) }
    #expect(throws: DiscKitError.self) { try disc.byteSource(title: 4, angle: 2) }
  }

  @Test(.enabled(if: haveGenerated, "run TestImages/scripts/make-all.sh"))
  func palTitles() throws {
    let disc = try DVDDisc(fileSystem: try FolderFileSystem(root: Fixtures.generated("dvd-pal")))
    let titles = try disc.titles.map { try $0.get() }
    #expect(titles.map { $0.chapters.count } == [2, 1])
    #expect(
      titles.allSatisfy {
        $0.video.formatName == "PAL" && $0.video.aspectName == "4:3" && $0.video.height == 576
      })
    #expect(titles.allSatisfy { $0.audio.map(\.language) == ["de"] })
    #expect(DVDSmartTitleSelector.select(disc).title == 2)
  }

  @Test func timeConversions() throws {
    // 1:23:45 + 12 frames at 29.97 (frame byte 0xC0 | 0x12) and at 25 fps (0x40 | 0x12).
    let ntsc = DVDTime(hour: 0x01, minute: 0x23, second: 0x45, frameByte: 0xD2)
    #expect(ntsc.lsdvdMilliseconds == 5_025_000 + Int(12 * 1000.0 / 29.97))
    #expect(ntsc.ticks90k == 5025 * 90_000 + 12 * 3000)
    let pal = DVDTime(hour: 0x01, minute: 0x23, second: 0x45, frameByte: 0x52)
    #expect(pal.lsdvdMilliseconds == 5_025_480)
    #expect(pal.ticks90k == 5025 * 90_000 + 12 * 3600)
    // Illegal rate code 0: lsdvd drops the frames.
    #expect(DVDTime(hour: 0, minute: 0, second: 0x10, frameByte: 0x12).lsdvdMilliseconds == 10_000)
  }
}
