@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring

/// BD-J objects the tests author: samples covering every BDJO field, and a menu title's object.
/// Shared by the BDJO and BD-J evidence tests and their libbluray comparisons.
package enum BDJTestObjects {
  /// Objects covering every field: no/one/many playlists and applications, odd and even string
  /// lengths (the word-alignment padding), names, parameters, profiles and flags.
  package static func samples() -> [BDJObject] {
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

  /// The BDJO of a menu title: autostart Xlet in JAR 00001, playlists 00010 (autostart) and
  /// the feature in its accessible table.
  package static func menuObject(feature: String) -> BDJObject {
    BDJObject(
      terminalInfo: .init(), cache: [.init(type: 1, name: "00001", language: "*.*")],
      accessiblePlaylists: .init(
        accessToAll: false, autostartFirstPlaylist: true, playlists: ["00010", feature]),
      applications: [
        BDJApplication(
          controlCode: 1, organizationID: 0x5600_0001, applicationID: 0x4000,
          baseDirectory: "00001", initialClassName: "com.studio.Menu")
      ])
  }
}
