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
}
