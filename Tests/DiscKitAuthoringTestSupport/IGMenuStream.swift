@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring

/// A menu clip's IG stream that libbluray's graphics controller opens: the tests that press
/// buttons in libbluray's HDMV machine (menu buttons, episode menus) author their menus with it.
package enum IGMenuStream {
  /// ICS, PDS (palette 0, one entry), ODS, END (a display set starts with its composition) as
  /// `.m2ts` packets, padded with null packets to one 6144-byte aligned unit. Every button's
  /// normal and selected states show object 0, 8 x 2 pixels of palette entry 1 (libbluray opens
  /// a menu once it drew one).
  package static func drawn(_ composition: InteractiveComposition) -> [UInt8] {
    let palette: [UInt8] = [0, 0, 1, 16, 128, 128, 255]
    // Run-length coded lines of 8 pixels of entry 1, each ending 00 00.
    let line: [UInt8] = [UInt8](repeating: 1, count: 8) + [0, 0]
    let body: [UInt8] = [0, 8, 0, 2] + line + line
    let object: [UInt8] =
      [0, 0, 0, 0xC0, 0, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    var ics = composition.serialize()
    for group in composition.pages[0].groups {
      for button in group.buttons {
        let id = [UInt8(button.id >> 8), UInt8(button.id & 0xFF)]
        let place = [
          UInt8(button.x >> 8), UInt8(button.x & 0xFF), UInt8(button.y >> 8),
          UInt8(button.y & 0xFF),
        ]
        guard
          let at = (0..<(ics.count - 9)).first(where: {
            Array(ics[$0..<($0 + 2)]) == id && Array(ics[($0 + 5)..<($0 + 9)]) == place
          })
        else { continue }
        // Past id, numeric value, flags, x, y and four neighbours: normal start/end, repeat;
        // selected sound, start/end.
        let normal = at + 17
        for k in 0..<4 { ics[normal + k] = 0 }
        for k in 0..<4 { ics[normal + 6 + k] = 0 }
      }
    }
    var ts = IGStreamWriter.transportStream(
      segments: [(0x18, ics), (0x14, palette), (0x15, object), (0x80, [])], pid: 0x1400,
      timestamp90k: 90_000)
    var null = [UInt8](repeating: 0xFF, count: 192)
    null[0..<8] = [0, 0, 0, 0, 0x47, 0x1F, 0xFF, 0x10]
    while ts.count % 6144 != 0 { ts += null }
    return ts
  }
}
