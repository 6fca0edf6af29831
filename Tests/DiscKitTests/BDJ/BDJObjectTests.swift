@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
@_spi(Formats) import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// BD-J objects authored here, read back by DiscKit and by libbluray's `bd_read_bdjo`.
@Suite("BDJO")
struct BDJObjectTests {
  /// Objects covering every field: no/one/many playlists and applications, odd and even string
  /// lengths (the word-alignment padding), names, parameters, profiles and flags.
  static func samples() -> [BDJObject] {
    let menu = BDJApplication(
      controlCode: 1, type: 1, organizationID: 0x5600_0001, applicationID: 0x4001,
      profiles: [.init(profile: 1, major: 1, minor: 0, micro: 0)], priority: 3, binding: 3,
      visibility: 2, names: [.init(language: "eng", name: "Menu")], iconLocator: "",
      iconFlags: 0x12, baseDirectory: "00000", classpathExtension: "/00000",
      initialClassName: "com.studio.menu.MenuXlet", parameters: ["a", "bc"])
    let helper = BDJApplication(
      controlCode: 2, type: 1, organizationID: 0xFFFF_0002, applicationID: 0x7FFF,
      profiles: [
        .init(profile: 1, major: 1, minor: 1, micro: 0),
        .init(profile: 2, major: 1, minor: 0, micro: 0),
      ], priority: 255, binding: 1, visibility: 3,
      names: [.init(language: "eng", name: "Helper"), .init(language: "fra", name: "Aidé")],
      iconLocator: "icon.png", iconFlags: 0x34, baseDirectory: "00001/base",
      classpathExtension: "", initialClassName: "Helperx", parameters: [])
    return [
      BDJObject(
        terminalInfo: .init(), cache: [],
        accessiblePlaylists: .init(
          accessToAll: false, autostartFirstPlaylist: false, playlists: []),
        applications: [], keyInterestTable: 0, fileAccessInfo: ""),
      BDJObject(
        terminalInfo: .init(
          defaultFont: "00000", initialHaviConfiguration: 3, menuCallMask: true,
          titleSearchMask: false),
        cache: [.init(type: 1, name: "00000", language: "*.*")],
        accessiblePlaylists: .init(
          accessToAll: true, autostartFirstPlaylist: true, playlists: ["00800"]),
        applications: [menu], keyInterestTable: 0xFFE0_0000, fileAccessInfo: "."),
      BDJObject(
        version: "0300",
        terminalInfo: .init(
          defaultFont: "*****", initialHaviConfiguration: 1, menuCallMask: false,
          titleSearchMask: true),
        cache: [
          .init(type: 1, name: "00000", language: "eng"),
          .init(type: 2, name: "00001", language: "%%%"),
        ],
        accessiblePlaylists: .init(
          accessToAll: false, autostartFirstPlaylist: false,
          playlists: (0..<300).map { BDMVBuilder.fiveDigits(100 + $0) }),
        applications: [menu, helper], keyInterestTable: 0xA5A0_0000,
        fileAccessInfo: "BDMV/JAR;BDMV/AUXDATA"),
    ]
  }

  @Test func parsesWhatWasAuthored() throws {
    for sample in Self.samples() {
      #expect(try BDJObject(bytes: sample.serialize()) == sample)
    }
  }

  @Test func libblurayReadsTheSameFields() throws {
    let dir = try TemporaryDirectory("disckit-bdjo")
    for (i, sample) in Self.samples().enumerated() {
      let path = dir.file("\(i).bdjo")
      let bytes = sample.serialize()
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let reference = try #require(Reference.readBDJO(path: path), "sample \(i)")
      let parsed = try BDJObject(bytes: bytes)
      #expect(Reference.libblurayView(of: parsed) == reference, "sample \(i)")
    }
  }

  @Test func everyTruncationIsATypedError() throws {
    let bytes = Self.samples()[2].serialize()
    // The last byte pads the odd-length file access information: not needed.
    for length in 0..<bytes.count - 1 {
      #expect(throws: DiscKitError.self) { try BDJObject(bytes: Array(bytes.prefix(length))) }
    }
  }

  @Test func wrongHeaderAndAddresses() throws {
    var bytes = Self.samples()[1].serialize()
    bytes[0] = UInt8(ascii: "X")
    #expect(throws: DiscKitError(.malformed, "BDJO", at: 0, "")) {
      try BDJObject(bytes: bytes)
    }
    bytes = Self.samples()[1].serialize()
    bytes[12...15] = [0x7F, 0xFF, 0xFF, 0xFF]  // application cache address past the end
    #expect(throws: DiscKitError(.malformed, "BDJO", at: 12, "")) {
      try BDJObject(bytes: bytes)
    }
  }

  /// Seeded byte flips: a typed error or a value, never a trap.
  @Test func byteFlipsNeverTrap() {
    var random = SeededRandom(seed: 0xBD10)
    let samples = Self.samples().map { $0.serialize() }
    for _ in 0..<3000 {
      var bytes = samples[Int.random(in: 0..<samples.count, using: &random)]
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(
          in: 0...255, using: &random)
      }
      _ = try? BDJObject(bytes: bytes)
    }
  }
}
