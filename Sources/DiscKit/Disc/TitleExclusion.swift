/// Why a title selection set a title aside (a Blu-ray playlist or a DVD title).
///
/// ``description`` is the text `disckit titles` prints and the JSON documents carry in their
/// `excluded` field; ``category`` groups the reasons for summaries ("3 duplicate, 1 scrambled").
public enum TitleExclusion: Sendable, Hashable, CustomStringConvertible {
  /// The playlist or title could not be read; a DVD title carries the error.
  case unreadable(DiscKitError?)
  /// A Blu-ray playlist without play items.
  case empty
  /// A Blu-ray play item's in-time is after its out-time (and its PTS do not cross the wrap).
  case invalidTimes
  /// A Blu-ray playlist playing the same segments as the named playlist (`00801.mpls`).
  case duplicate(of: String)
  /// A Blu-ray playlist that plays one segment more than once (menus, padded decoys).
  case repeatedSegments
  /// A Blu-ray playlist that plays clips the disc does not have (no clip information).
  case missingClips([String])
  /// A Blu-ray playlist that plays more bytes than the disc's stream files hold (a loop
  /// composite replaying footage).
  case largerThanDisc(bytes: Int64, capacity: Int64)
  /// Shorter than the minimum length.
  case tooShort
  /// A DVD title without cells or with a zero duration.
  case playsNothing
  /// A DVD title with a cell past the end of its title set's VOBs.
  case cellOutsideVOBs(cell: Int, programChain: Int, availableSectors: Int64)
  /// A DVD title longer than 12 hours.
  case impossibleDuration(MediaTime)
  /// A DVD title whose PGC playback time and the sum of its cells disagree.
  case durationMismatch(programChain: MediaTime, cells: MediaTime)
  /// A DVD title that plays its cells out of sector order (fake-title protection).
  case cellsOutOfOrder(backwardJumps: Int)
  /// A DVD title that plays exactly the cells of an earlier title.
  case sameCells(asTitle: Int)
  /// lsdvd does not list the DVD title (its title set or first PGC is unreadable).
  case skippedByLsdvd

  /// The reason in words, as `disckit titles` and the JSON documents print it.
  public var description: String {
    switch self {
    case .unreadable(nil): "unreadable"
    case .unreadable(let error?): "unreadable: \(error)"
    case .empty: "empty"
    case .invalidTimes: "invalid in/out times"
    case .duplicate(let name): "duplicate of \(name)"
    case .repeatedSegments: "repeated segments"
    case .missingClips(let clips): "plays clips not on the disc (\(clips.joined(separator: ", ")))"
    case .largerThanDisc(let bytes, let capacity):
      "plays \(bytes) bytes, more than the disc's \(capacity) bytes of streams"
    case .tooShort: "too short"
    case .playsNothing: "plays nothing (no cells or zero duration)"
    case .cellOutsideVOBs(let cell, let programChain, let sectors):
      "cell \(cell) of PGC \(programChain) lies outside the title VOBs (\(sectors) sectors)"
    case .impossibleDuration(let duration): "impossible duration \(duration.description)"
    case .durationMismatch(let programChain, let cells):
      "PGC playback time \(programChain.description) disagrees with its cells (\(cells.description))"
    case .cellsOutOfOrder(let jumps):
      "cells played out of order (\(jumps) backward jumps), typical of fake-title protection"
    case .sameCells(let title): "plays the same cells as title \(title)"
    case .skippedByLsdvd: "lsdvd skips it (title set or first PGC unreadable)"
    }
  }

  /// A short group name for summaries: `unreadable`, `empty`, `duplicate`, `looping`,
  /// `too short`, `missing clips`, `larger than the disc`, `outside the VOBs`, `scrambled`, `implausible duration`, `not listed by lsdvd`.
  public var category: String {
    switch self {
    case .unreadable: "unreadable"
    case .empty, .playsNothing: "empty"
    case .invalidTimes, .impossibleDuration, .durationMismatch: "implausible duration"
    case .duplicate, .sameCells: "duplicate"
    case .repeatedSegments: "looping"
    case .missingClips: "missing clips"
    case .largerThanDisc: "larger than the disc"
    case .tooShort: "too short"
    case .cellOutsideVOBs: "outside the VOBs"
    case .cellsOutOfOrder: "scrambled"
    case .skippedByLsdvd: "not listed by lsdvd"
    }
  }
}
