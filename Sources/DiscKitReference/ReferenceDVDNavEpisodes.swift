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
  /// A PGC outside its title's chapters (reached by `LinkPGCN`) has no part: libdvdnav's title
  /// and part lookups fail there, and the title and part are reported as 0. With `seed`,
  /// libdvdnav's `rnd` draws come from `srand(seed)` (see ``drive(path:buttons:maxBlocks:seed:atTitleCell:)``).
  public static func programChainsPlayed(
    path: String, buttons: [Int], seed: UInt32? = nil, maxBlocks: Int = 200_000
  ) throws(DiscKitError) -> [(title: Int, programChain: Int, part: Int)] {
    var played: [(title: Int, programChain: Int, part: Int)] = []
    _ = try drive(path: path, buttons: buttons, maxBlocks: maxBlocks, seed: seed) { nav, _ in
      var title: Int32 = 0
      var pgcn: Int32 = 0
      var pgn: Int32 = 0
      dvdnav_current_title_program(nav, &title, &pgcn, &pgn)
      var part: Int32 = 0
      dvdnav_current_title_info(nav, &title, &part)
      if let last = played.last, last.title == Int(title), last.programChain == Int(pgcn) {
        return true
      }
      played.append((Int(title), Int(pgcn), Int(part)))
      return true
    }
    return played
  }

  /// Starts title `title` at chapter `part` with libdvdnav (`dvdnav_part_play`, as a player's
  /// chapter search does) and lists the PGCs whose cells play, each once per visit and in order,
  /// with the title and part at their first cell (`dvdnav_current_title_program`,
  /// `dvdnav_current_title_info`; 0 where libdvdnav finds no part), until the VM leaves the title
  /// domain, stops or the block limit. Stills and waits are skipped.
  public static func programChainsPlayed(
    path: String, title: Int, part: Int, maxBlocks: Int = 200_000
  ) throws(DiscKitError) -> [(title: Int, programChain: Int, part: Int)] {
    var handle: OpaquePointer?
    guard dvdnav_open(&handle, path) == DVDNAV_STATUS_OK, let nav = handle else {
      throw DiscKitError(.cannotOpen, "libdvdnav", at: nil, "dvdnav_open failed for \(path)")
    }
    defer { dvdnav_close(nav) }
    guard dvdnav_part_play(nav, Int32(title), Int32(part)) == DVDNAV_STATUS_OK else {
      let message = dvdnav_err_to_string(nav).map { String(cString: $0) } ?? "?"
      throw DiscKitError(.io, "libdvdnav", at: nil, "dvdnav_part_play: \(message)")
    }
    var played: [(title: Int, programChain: Int, part: Int)] = []
    var buffer = [UInt8](repeating: 0, count: 2048)
    loop: for _ in 0..<maxBlocks {
      var event: Int32 = 0
      var length: Int32 = 0
      let status = buffer.withUnsafeMutableBufferPointer {
        dvdnav_get_next_block(nav, $0.baseAddress, &event, &length)
      }
      guard status == DVDNAV_STATUS_OK else {
        throw readError(dvdnav_err_to_string(nav).map { String(cString: $0) } ?? "?")
      }
      switch event {
      case DVDNAV_STILL_FRAME:
        dvdnav_still_skip(nav)
      case DVDNAV_WAIT:
        dvdnav_wait_skip(nav)
      case DVDNAV_STOP:
        break loop
      case DVDNAV_CELL_CHANGE:
        guard dvdnav_is_domain_vts(nav) == 1 else { break loop }
        var current: Int32 = 0
        var pgcn: Int32 = 0
        var pgn: Int32 = 0
        dvdnav_current_title_program(nav, &current, &pgcn, &pgn)
        var number: Int32 = 0
        var chapter: Int32 = 0
        dvdnav_current_title_info(nav, &number, &chapter)
        if let last = played.last, last.title == Int(current), last.programChain == Int(pgcn) {
          continue
        }
        played.append((Int(current), Int(pgcn), Int(chapter)))
      default:
        break
      }
    }
    return played
  }
}
