/// Playlists that play the same multiset of (clip, in-time, out-time) segments in different
/// orders: the permutation floods of obfuscated discs (hundreds of same-length playlists, one of
/// which is the film in its real order).
///
/// Nothing in the playlists themselves tells the real order apart (the lengths, chapters and
/// streams are alike, and the real order need not be ascending clip numbers), so within a family
/// only the disc's navigation, its menus or named evidence decide.
package struct PlaylistFamily: Sendable, Hashable {
  /// The member playlists' names, by playlist number.
  package var members: [String]

  /// The number of members.
  package var size: Int { members.count }

  /// The families among `candidates` (only groups of two or more distinct orders; playlists
  /// playing the same segments in the same order are duplicates, not family members).
  package static func families(_ candidates: [SmartTitleSelector.Candidate]) -> [PlaylistFamily] {
    var groups: [[LibblurayTitleSelector.SegmentKey]: [SmartTitleSelector.Candidate]] = [:]
    var order: [[LibblurayTitleSelector.SegmentKey]] = []
    for candidate in candidates {
      guard let items = candidate.playlist?.playItems, items.count > 1 else { continue }
      let key = items.map(segment).sorted {
        ($0.clip, $0.inTime, $0.outTime) < ($1.clip, $1.inTime, $1.outTime)
      }
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(candidate)
    }
    return order.compactMap { key in
      guard let members = groups[key], members.count > 1 else { return nil }
      let orders = Set(members.compactMap { $0.playlist?.playItems.map(segment) })
      guard orders.count > 1 else { return nil }
      return PlaylistFamily(
        members: members.sorted { ($0.number, $0.name) < ($1.number, $1.name) }.map(\.name))
    }
  }

  static func segment(_ item: PlayItem) -> LibblurayTitleSelector.SegmentKey {
    LibblurayTitleSelector.SegmentKey(
      clip: item.clip.clipID, inTime: item.inTime, outTime: item.outTime)
  }
}
