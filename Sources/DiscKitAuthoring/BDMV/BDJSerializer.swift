@_spi(Formats) import DiscKit

extension BDJObject {
  /// Serialises this object as a `BDJO` file: the header with the six section addresses, then
  /// the terminal information, application cache, table of accessible playlists, application
  /// management table, key interest table and file access information, each word-aligned.
  package func serialize() -> [UInt8] {
    func fixed(_ text: String, _ n: Int) -> [UInt8] {
      let raw = Array(text.utf8.prefix(n))
      return raw + [UInt8](repeating: 0, count: n - raw.count)
    }
    var terminal = BDMVWriter()
    terminal.u32(10)
    terminal.bytes += fixed(terminalInfo.defaultFont, 5)
    terminal.u8(
      terminalInfo.initialHaviConfiguration << 4 | (terminalInfo.menuCallMask ? 0x08 : 0)
        | (terminalInfo.titleSearchMask ? 0x04 : 0))
    terminal.zeros(4)

    var cacheInfo = BDMVWriter()
    cacheInfo.u32(UInt32(2 + 12 * cache.count))
    cacheInfo.u8(UInt8(cache.count))
    cacheInfo.u8(0)
    for entry in cache {
      cacheInfo.u8(entry.type)
      cacheInfo.bytes += fixed(entry.name, 5) + fixed(entry.language, 3)
      cacheInfo.zeros(3)
    }

    var table = BDMVWriter()
    table.u32(UInt32(4 + 6 * accessiblePlaylists.playlists.count))
    table.u32(
      UInt32(accessiblePlaylists.playlists.count) << 21
        | (accessiblePlaylists.accessToAll ? 1 << 20 : 0)
        | (accessiblePlaylists.autostartFirstPlaylist ? 1 << 19 : 0))
    for name in accessiblePlaylists.playlists {
      table.bytes += fixed(name, 5)
      table.u8(0)
    }

    var apps = BDMVWriter()
    apps.u32(0)
    apps.u8(UInt8(applications.count))
    apps.u8(0)
    for app in applications { app.serialize(into: &apps) }
    apps.patch32(at: 0, UInt32(apps.count - 4))

    var w = BDMVWriter()
    w.bytes += Array("BDJO".utf8) + fixed(version, 4)
    var start = 48
    for section in [terminal.bytes, cacheInfo.bytes, table.bytes, apps.bytes, [0, 0, 0, 0]] {
      w.u32(UInt32(start))
      start += section.count
    }
    w.u32(UInt32(start))
    w.zeros(16)
    w.bytes += terminal.bytes + cacheInfo.bytes + table.bytes + apps.bytes
    w.u32(keyInterestTable)
    let access = Array(fileAccessInfo.utf8)
    w.u16(UInt16(access.count))
    w.bytes += access
    if access.count & 1 != 0 { w.u8(0) }
    return w.bytes
  }
}

extension BDJApplication {
  func serialize(into w: inout BDMVWriter) {
    w.u8(controlCode)
    w.u8(type << 4)
    w.u32(organizationID)
    w.u16(applicationID)
    w.u8(0)  // descriptor tag
    w.u8(0)
    let lengthAt = w.count
    w.u32(0)
    let start = w.count
    w.zeros(4)
    w.u8(UInt8(profiles.count) << 4)
    w.u8(0)
    for p in profiles {
      w.u16(p.profile)
      w.u8(p.major)
      w.u8(p.minor)
      w.u8(p.micro)
      w.u8(0)
    }
    w.u8(priority)
    w.u8(binding << 6 | (visibility & 3) << 4)
    var names: [UInt8] = []
    for n in self.names {
      let text = Array(n.name.utf8)
      names += Array(n.language.utf8.prefix(3)) + [UInt8(text.count)] + text
    }
    w.u16(UInt16(names.count))
    w.bytes += names
    if names.count & 1 != 0 { w.u8(0) }
    func aligned(_ s: String) {
      let raw = Array(s.utf8)
      w.u8(UInt8(raw.count))
      w.bytes += raw
      if raw.count & 1 == 0 { w.u8(0) }
    }
    aligned(iconLocator)
    w.u16(iconFlags)
    aligned(baseDirectory)
    aligned(classpathExtension)
    aligned(initialClassName)
    var parameterBytes: [UInt8] = []
    for p in parameters {
      let raw = Array(p.utf8)
      parameterBytes += [UInt8(raw.count)] + raw
    }
    w.u8(UInt8(parameterBytes.count))
    w.bytes += parameterBytes
    if parameterBytes.count & 1 == 0 { w.u8(0) }
    w.patch32(at: lengthAt, UInt32(w.count - start))
  }
}

/// Writes zip archives (JAR files) whose members are stored uncompressed: enough for tests and
/// benchmarks to put BD-J programs and resources on a disc.
package enum StoredZipWriter {
  /// The archive holding `members` (path, bytes) in order.
  package static func archive(_ members: [(path: String, bytes: [UInt8])]) -> [UInt8] {
    var w = LittleEndianWriter()
    var central = LittleEndianWriter()
    for (path, bytes) in members {
      let name = Array(path.utf8)
      let crc = crc32(bytes)
      let offset = UInt32(w.bytes.count)
      w.u32(0x0403_4B50)
      w.u16(20)
      w.u16(0)
      w.u16(0)
      w.u32(0)
      w.u32(crc)
      w.u32(UInt32(bytes.count))
      w.u32(UInt32(bytes.count))
      w.u16(UInt16(name.count))
      w.u16(0)
      w.bytes += name + bytes
      central.u32(0x0201_4B50)
      central.u16(20)
      central.u16(20)
      central.u16(0)
      central.u16(0)
      central.u32(0)
      central.u32(crc)
      central.u32(UInt32(bytes.count))
      central.u32(UInt32(bytes.count))
      central.u16(UInt16(name.count))
      central.u16(0)
      central.u16(0)
      central.u16(0)
      central.u16(0)
      central.u32(0)
      central.u32(offset)
      central.bytes += name
    }
    let directoryOffset = UInt32(w.bytes.count)
    w.bytes += central.bytes
    w.u32(0x0605_4B50)
    w.u16(0)
    w.u16(0)
    w.u16(UInt16(members.count))
    w.u16(UInt16(members.count))
    w.u32(UInt32(central.bytes.count))
    w.u32(directoryOffset)
    w.u16(0)
    return w.bytes
  }

  private struct LittleEndianWriter {
    var bytes: [UInt8] = []
    mutating func u16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    mutating func u32(_ v: UInt32) {
      bytes += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)]
    }
  }

  private static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes {
      c ^= UInt32(b)
      for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return c ^ 0xFFFF_FFFF
  }
}
