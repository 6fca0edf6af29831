/// Where a navigation command sends the player (libdvdnav's `link_t`): the link, jump and call
/// forms of the DVD-Video command set. `button` values set the highlighted button (0 = keep).
enum DVDLink: Sendable, Hashable {
  /// Play the selected cell (the end of a chain of links).
  case playThis
  /// LinkNoLink: only set the highlighted button.
  case noLink(button: Int)
  /// LinkTopC, LinkNextC, LinkPrevC.
  case topCell(button: Int)
  /// LinkNextC.
  case nextCell(button: Int)
  /// LinkPrevC.
  case previousCell(button: Int)
  /// LinkTopPG.
  case topProgram(button: Int)
  /// LinkNextPG.
  case nextProgram(button: Int)
  /// LinkPrevPG.
  case previousProgram(button: Int)
  /// LinkTopPGC.
  case topProgramChain(button: Int)
  /// LinkNextPGC.
  case nextProgramChain(button: Int)
  /// LinkPrevPGC.
  case previousProgramChain(button: Int)
  /// LinkGoUpPGC.
  case goUpProgramChain(button: Int)
  /// LinkTailPGC: run the post commands.
  case tailProgramChain(button: Int)
  /// LinkRSM: resume the title a call left.
  case resume(button: Int)
  /// LinkPGCN.
  case programChain(Int)
  /// LinkPTTN: a chapter of the current title.
  case partOfTitle(Int, button: Int)
  /// LinkPGN.
  case program(Int, button: Int)
  /// LinkCN.
  case cell(Int, button: Int)
  /// Exit: stop playback.
  case exit
  /// JumpTT: a title of the disc.
  case jumpTitle(Int)
  /// JumpVTS_TT: a title of the current title set.
  case jumpTitleSetTitle(Int)
  /// JumpVTS_PTT: a chapter of a title of the current title set.
  case jumpTitleSetPart(title: Int, part: Int)
  /// JumpSS FP: First Play.
  case jumpFirstPlay
  /// JumpSS VMGM menu.
  case jumpManagerMenu(Int)
  /// JumpSS VTSM: a title set's menu.
  case jumpTitleSetMenu(titleSet: Int, title: Int, menu: Int)
  /// JumpSS VMGM PGC.
  case jumpManagerProgramChain(Int)
  /// CallSS FP, with the resume cell.
  case callFirstPlay(resumeCell: Int)
  /// CallSS VMGM menu.
  case callManagerMenu(Int, resumeCell: Int)
  /// CallSS VTSM.
  case callTitleSetMenu(Int, resumeCell: Int)
  /// CallSS VMGM PGC.
  case callManagerProgramChain(Int, resumeCell: Int)
}
