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
    var played: [(title: Int, programChain: Int, part: Int)] = []
    _ = try drive(path: path, buttons: buttons, maxBlocks: maxBlocks) { nav, _ in
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
}
