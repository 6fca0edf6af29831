import CDVDNav
import DiscKit

extension Reference.DVDNav {
  /// Drives libdvdnav as ``follow(path:buttons:maxBlocks:)`` does, pressing all of `buttons`,
  /// and reports the title and part (chapter) libdvdnav plays at the first title cell reached
  /// after the last press (`dvdnav_current_title_info`), `nil` when it reaches a menu with
  /// buttons, stops or reaches the block limit first.
  public static func titlePart(path: String, buttons: [Int], maxBlocks: Int = 100_000)
    throws(DiscKitError) -> (title: Int, part: Int)?
  {
    var reached: (title: Int, part: Int)?
    let end = try drive(path: path, buttons: buttons, maxBlocks: maxBlocks) { nav, _ in
      var title: Int32 = 0
      var part: Int32 = 0
      dvdnav_current_title_info(nav, &title, &part)
      reached = (Int(title), Int(part))
      return false
    }
    if case .failed(let message) = end {
      throw readError(message)
    }
    return reached
  }

  /// Drives libdvdnav as ``follow(path:buttons:maxBlocks:)`` does, pressing all of `buttons`,
  /// and lists the PGCs whose cells play after the last press, each once per visit and in order,
  /// with the disc title and part (chapter) libdvdnav reports at their first cell
  /// (`dvdnav_current_title_program`, `dvdnav_current_title_info`), until the next menu with
  /// buttons, the stop or the block limit.
  public static func programChainsPlayed(path: String, buttons: [Int], maxBlocks: Int = 200_000)
    throws(DiscKitError) -> [(title: Int, programChain: Int, part: Int)]
  {
    var handle: OpaquePointer?
    guard dvdnav_open(&handle, path) == DVDNAV_STATUS_OK, let nav = handle else {
      throw DiscKitError(.cannotOpen, "libdvdnav", at: nil, "dvdnav_open failed for \(path)")
    }
    defer { dvdnav_close(nav) }
    var buffer = [UInt8](repeating: 0, count: 2048)
    var pending = buttons[...]
    var pressedAll = buttons.isEmpty
    var played: [(title: Int, programChain: Int, part: Int)] = []
    for _ in 0..<maxBlocks {
      var event: Int32 = 0
      var length: Int32 = 0
      let status = buffer.withUnsafeMutableBufferPointer {
        dvdnav_get_next_block(nav, $0.baseAddress, &event, &length)
      }
      guard status == DVDNAV_STATUS_OK else { break }
      switch event {
      case DVDNAV_NAV_PACKET:
        guard dvdnav_is_domain_vts(nav) != 1, let pci = dvdnav_get_current_nav_pci(nav),
          pci.pointee.hli.hl_gi.btn_ns > 0, pci.pointee.hli.hl_gi.hli_ss & 3 != 0
        else { break }
        guard let next = pending.popFirst() else { return played }
        dvdnav_button_select_and_activate(nav, pci, Int32(next))
        pressedAll = pending.isEmpty
      case DVDNAV_STILL_FRAME:
        if !pending.isEmpty, let pci = titleStillMenu(nav, buffer), let next = pending.popFirst() {
          dvdnav_button_select_and_activate(nav, pci, Int32(next))
          pressedAll = pending.isEmpty
        } else {
          dvdnav_still_skip(nav)
        }
      case DVDNAV_WAIT:
        dvdnav_wait_skip(nav)
      case DVDNAV_STOP:
        return played
      case DVDNAV_CELL_CHANGE:
        guard pressedAll, dvdnav_is_domain_vts(nav) == 1 else { break }
        var title: Int32 = 0
        var pgcn: Int32 = 0
        var pgn: Int32 = 0
        dvdnav_current_title_program(nav, &title, &pgcn, &pgn)
        var part: Int32 = 0
        dvdnav_current_title_info(nav, &title, &part)
        if let last = played.last, last.title == Int(title), last.programChain == Int(pgcn) {
          break
        }
        played.append((Int(title), Int(pgcn), Int(part)))
      default:
        break
      }
    }
    return played
  }
}
