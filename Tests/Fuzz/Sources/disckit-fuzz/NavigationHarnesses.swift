import DiscKit

/// index.bdmv.
enum IndexHarness: FuzzHarness {
  static let name = "index"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    _ = try? BDMVIndex(bytes: [UInt8](bytes))
  }
}

/// MovieObject.bdmv, and the reach analysis over its navigation commands.
enum MovieObjectHarness: FuzzHarness {
  static let name = "movieobject"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    _ = try? MovieObjectFile(bytes: [UInt8](bytes))
  }
}

/// A movie playlist (MPLS).
enum MPLSHarness: FuzzHarness {
  static let name = "mpls"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    _ = try? MoviePlaylist(bytes: [UInt8](bytes))
  }
}

/// Clip information (CLPI): sequence, program and EP map.
enum CLPIHarness: FuzzHarness {
  static let name = "clpi"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    _ = try? ClipInformation(bytes: [UInt8](bytes))
  }
}

/// DVD IFOs: VIDEO_TS.IFO (VMG) and VTS_nn_0.IFO (VTS).
enum IFOHarness: FuzzHarness {
  static let name = "ifo"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    let array = [UInt8](bytes)
    _ = try? DVDVideoManagerInfo(bytes: array)
    _ = try? DVDTitleSetInfo(bytes: array)
  }
}

/// A DVD NAV pack (PCI + DSI), one 2048-byte sector.
enum NavPackHarness: FuzzHarness {
  static let name = "navpack"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    _ = try? DVDNavigationPack(sector: [UInt8](bytes), at: 0)
  }
}
