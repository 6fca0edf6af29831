import CDVDNav
import DiscKit

extension Reference {
  /// libdvdnav (the reference DVD player library) and libdvdread's navigation pack parser.
  public enum DVDNav {
    /// The navigation pack fields DiscKit reads, as libdvdread's `navRead_PCI` / `navRead_DSI`
    /// parse them (PCI data at byte 0x2D and DSI data at byte 0x407 of the sector).
    public struct NavPack: Sendable, Hashable {
      public var pciLogicalBlock: UInt32
      public var vobuStartPTM: UInt32
      public var vobuEndPTM: UInt32
      public var nonSeamlessAngleDestinations: [UInt32]
      public var systemClockReference: UInt32
      public var logicalBlock: UInt32
      public var vobuEndAddress: UInt32
      public var vobID: UInt16
      public var cellID: UInt8
      public var cellElapsedTime: [UInt8]
      public var seamlessCategory: UInt16
      public var ilvuEndAddress: UInt32
      public var nextILVUStartAddress: UInt32
      public var nextILVUSize: UInt16
      public var seamlessAngleAddresses: [UInt32]
      public var seamlessAngleSizes: [UInt16]
      public var nextVideo: UInt32
      public var nextVOBU: UInt32
      public var previousVOBU: UInt32
      public var previousVideo: UInt32
    }

    /// Parses a 2048-byte navigation pack with `navRead_PCI` and `navRead_DSI`.
    public static func navPack(sector: [UInt8]) -> NavPack? {
      guard sector.count >= 2048 else { return nil }
      var bytes = sector
      var pci = pci_t()
      var dsi = dsi_t()
      bytes.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        navRead_PCI(&pci, base + 0x2D)
        navRead_DSI(&dsi, base + 0x407)
      }
      func values<T>(_ tuple: Any, as: T.Type) -> [T] {
        Mirror(reflecting: tuple).children.compactMap { $0.value as? T }
      }
      let angles = values(dsi.sml_agli.data, as: sml_agl_data_t.self)
      let t = dsi.dsi_gi.c_eltm
      return NavPack(
        pciLogicalBlock: pci.pci_gi.nv_pck_lbn, vobuStartPTM: pci.pci_gi.vobu_s_ptm,
        vobuEndPTM: pci.pci_gi.vobu_e_ptm,
        nonSeamlessAngleDestinations: values(pci.nsml_agli.nsml_agl_dsta, as: UInt32.self),
        systemClockReference: dsi.dsi_gi.nv_pck_scr, logicalBlock: dsi.dsi_gi.nv_pck_lbn,
        vobuEndAddress: dsi.dsi_gi.vobu_ea, vobID: dsi.dsi_gi.vobu_vob_idn,
        cellID: dsi.dsi_gi.vobu_c_idn,
        cellElapsedTime: [t.hour, t.minute, t.second, t.frame_u],
        seamlessCategory: dsi.sml_pbi.category, ilvuEndAddress: dsi.sml_pbi.ilvu_ea,
        nextILVUStartAddress: dsi.sml_pbi.ilvu_sa, nextILVUSize: dsi.sml_pbi.size,
        seamlessAngleAddresses: angles.map(\.address), seamlessAngleSizes: angles.map(\.size),
        nextVideo: dsi.vobu_sri.next_video, nextVOBU: dsi.vobu_sri.next_vobu,
        previousVOBU: dsi.vobu_sri.prev_vobu, previousVideo: dsi.vobu_sri.prev_video)
    }

    /// What libdvdnav played for one title and angle.
    public struct Playback: Sendable {
      /// Every 2048-byte block it handed out (navigation packs included), in order.
      public var bytes: [UInt8]
      /// The (title, cell) numbers of the cell changes seen.
      public var cells: [Int]
      /// Why playback stopped: `stop`, `left title`, `left domain` or `block limit`.
      public var ending: String
    }

    /// Plays title `title` at angle `angle` with libdvdnav: `dvdnav_title_play`,
    /// `dvdnav_angle_change`, then `dvdnav_get_next_block` until the VM stops or leaves the title
    /// (another title or domain), skipping stills and waits. Collects `DVDNAV_NAV_PACKET` and
    /// `DVDNAV_BLOCK_OK` blocks.
    public static func play(path: String, title: Int32, angle: Int32, maxBlocks: Int = 1 << 20)
      throws(DiscKitError) -> Playback
    {
      var handle: OpaquePointer?
      guard dvdnav_open(&handle, path) == DVDNAV_STATUS_OK, let nav = handle else {
        throw DiscKitError(.cannotOpen, "libdvdnav", at: nil, "dvdnav_open failed for \(path)")
      }
      defer { dvdnav_close(nav) }
      func failure(_ what: String) -> DiscKitError {
        let message = dvdnav_err_to_string(nav).map { String(cString: $0) } ?? "?"
        return DiscKitError(.io, "libdvdnav", at: nil, "\(what): \(message)")
      }
      guard dvdnav_title_play(nav, title) == DVDNAV_STATUS_OK else {
        throw failure("dvdnav_title_play(\(title))")
      }
      if angle != 1 {
        guard dvdnav_angle_change(nav, angle) == DVDNAV_STATUS_OK else {
          throw failure("dvdnav_angle_change(\(angle))")
        }
      }
      var out: [UInt8] = []
      var cells: [Int] = []
      var buffer = [UInt8](repeating: 0, count: 2048)
      var blocks = 0
      var ending = "block limit"
      loop: while blocks < maxBlocks {
        var event: Int32 = 0
        var length: Int32 = 0
        let status = buffer.withUnsafeMutableBufferPointer {
          dvdnav_get_next_block(nav, $0.baseAddress, &event, &length)
        }
        guard status == DVDNAV_STATUS_OK else { throw failure("dvdnav_get_next_block") }
        switch event {
        case DVDNAV_BLOCK_OK, DVDNAV_NAV_PACKET:
          out += buffer
          blocks += 1
        case DVDNAV_STILL_FRAME:
          dvdnav_still_skip(nav)
        case DVDNAV_WAIT:
          dvdnav_wait_skip(nav)
        case DVDNAV_STOP:
          ending = "stop"
          break loop
        case DVDNAV_CELL_CHANGE:
          guard dvdnav_is_domain_vts(nav) == 1 else {
            ending = "left domain"
            break loop
          }
          var current: Int32 = 0
          var part: Int32 = 0
          dvdnav_current_title_info(nav, &current, &part)
          guard current == title else {
            ending = "left title"
            break loop
          }
          let cell = buffer.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
          cells.append(Int(cell))
        default:
          break
        }
      }
      return Playback(bytes: out, cells: cells, ending: ending)
    }
  }
}
