/// How a disc's titles are listed and its main title chosen.
public enum TitleSelection: String, Sendable, Hashable, Codable, CaseIterable {
  /// DiscKit's own choice (resists decoy playlists and fake titles) and says why
  /// (the evidence is in ``TitleList/evidence``). The default.
  case smart
  /// libbluray's title list and main-title guess, exactly (Blu-ray parity mode).
  case libbluray
  /// lsdvd's "longest track", exactly (DVD parity mode).
  case lsdvd
}
