@_spi(Formats) import DiscKit

/// index.bdmv.
enum IndexHarness: FuzzHarnessBody {
  static let name = "index"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    _ = try? BDMVIndex(bytes: [UInt8](bytes))
  }
}

/// MovieObject.bdmv, and the reach analysis over its navigation commands.
enum MovieObjectHarness: FuzzHarnessBody {
  static let name = "movieobject"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    _ = try? MovieObjectFile(bytes: [UInt8](bytes))
  }
}

/// The HDMV interpreter over fuzzed movie objects: the first two bytes give the length of an
/// index.bdmv, the rest is MovieObject.bdmv (when it does not parse, a fixed index with First Play, Top Menu and three titles
/// on objects 0-4 stands in for it).
enum HDMVHarness: FuzzHarnessBody {
  static let name = "hdmv"
  static let fallbackIndex = BDMVIndex(
    firstPlay: .hdmv(movieObject: 0, playbackType: 0),
    topMenu: .hdmv(movieObject: 1, playbackType: 1),
    titles: (2..<5).map { .init(object: .hdmv(movieObject: UInt16($0), playbackType: 0)) })
  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= 2 else { return }
    let indexLength = min(bytes.count - 2, Int(bytes[0]) << 8 | Int(bytes[1]))
    let index = try? BDMVIndex(bytes: [UInt8](bytes[2..<(2 + indexLength)]))
    guard let objects = try? MovieObjectFile(bytes: [UInt8](bytes[(2 + indexLength)...])) else {
      return
    }
    _ = objects.navigationRuns(index: index ?? fallbackIndex, stepBudget: 5_000)
  }
}

/// An interactive composition segment (IG menu).
enum ICSHarness: FuzzHarnessBody {
  static let name = "ics"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    _ = try? InteractiveGraphics.menuButtons(composition: [UInt8](bytes))
  }
}

/// A movie playlist (MPLS).
enum MPLSHarness: FuzzHarnessBody {
  static let name = "mpls"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    _ = try? MoviePlaylist(bytes: [UInt8](bytes))
  }
}

/// Clip information (CLPI): sequence, program and EP map.
enum CLPIHarness: FuzzHarnessBody {
  static let name = "clpi"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    _ = try? ClipInformation(bytes: [UInt8](bytes))
  }
}

/// DVD IFOs: VIDEO_TS.IFO (VMG) and VTS_nn_0.IFO (VTS).
enum IFOHarness: FuzzHarnessBody {
  static let name = "ifo"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    let array = [UInt8](bytes)
    _ = try? DVDVideoManagerInfo(bytes: array)
    _ = try? DVDTitleSetInfo(bytes: array)
  }
}

/// A DVD NAV pack (PCI + DSI), one 2048-byte sector.
enum NavPackHarness: FuzzHarnessBody {
  static let name = "navpack"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    _ = try? DVDNavigationPack(sector: [UInt8](bytes), at: 0)
  }
}
