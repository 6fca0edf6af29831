/// Versions of one feature: playlists that play mostly the same footage for about the same time
/// (a theatrical and an extended or alternate cut sharing most of their clips), or the same
/// segments with other streams (a commentary version). Studios put each version behind its own
/// index title or menu entry; the disc's default navigation (First Play, then title 1) plays the
/// one it means as *the* feature.
package enum FeatureVersions {
  /// How a version differs from the main title.
  package enum Kind: String, Sendable, Hashable, CaseIterable {
    /// Other footage, longer by a minute or more.
    case extended
    /// Other footage, within a minute of the main title's length.
    case alternate
    /// Other footage, shorter by a minute or more.
    case shorter
    /// The same segments with more audio streams (commentary).
    case commentary
    /// The same segments with other streams.
    case streams
  }

  /// One version of the main title.
  package struct Version: Sendable, Hashable {
    /// The playlist file name, e.g. `00801.mpls`.
    package var name: String
    package var kind: Kind
    /// Its duration minus the main title's (45 kHz).
    package var durationDifference45k: Int64
    /// Its audio streams minus the main title's (first play item's STN).
    package var audioDifference: Int
    /// Its subtitle (PG) streams minus the main title's.
    package var subtitleDifference: Int
    /// What differs, in words.
    package var detail: String
  }

  /// The footage (45 kHz) both playlists play: for each play item of `b`, the part of its
  /// (clip, in-out) range that `a` also plays from that clip.
  static func shared45k(_ a: MoviePlaylist, _ b: MoviePlaylist) -> Int64 {
    var ranges: [String: [(Int64, Int64)]] = [:]
    for item in a.playItems where item.outTime > item.inTime {
      ranges[item.clip.clipID, default: []].append((Int64(item.inTime), Int64(item.outTime)))
    }
    // Each clip's ranges merged, so footage `a` plays twice counts once.
    for (clip, list) in ranges {
      var merged: [(Int64, Int64)] = []
      for r in list.sorted(by: { $0.0 < $1.0 }) {
        if let last = merged.last, r.0 <= last.1 {
          merged[merged.count - 1].1 = max(last.1, r.1)
        } else {
          merged.append(r)
        }
      }
      ranges[clip] = merged
    }
    var shared: Int64 = 0
    for item in b.playItems where item.outTime > item.inTime {
      for r in ranges[item.clip.clipID] ?? [] {
        shared += max(0, min(r.1, Int64(item.outTime)) - max(r.0, Int64(item.inTime)))
      }
    }
    return shared
  }

  /// Whether `b` is another version of `a`: the footage both play is at least 60 % of the
  /// longer one, and their lengths differ by at most 25 % of it. (A play-all of episodes and
  /// one episode, a feature and a trailer are not versions.)
  package static func areVersions(_ a: MoviePlaylist, _ b: MoviePlaylist) -> Bool {
    let da = Int64(a.duration45k)
    let db = Int64(b.duration45k)
    let longer = max(da, db)
    guard longer > 0, abs(da - db) * 4 <= longer else { return false }
    return shared45k(a, b) * 5 >= longer * 3
  }

  /// `version` described against `main`.
  package static func describe(
    _ version: MoviePlaylist, name: String, against main: MoviePlaylist, sameSegments: Bool
  ) -> Version {
    let difference = Int64(version.duration45k) - Int64(main.duration45k)
    let audio =
      (version.playItems.first?.streams.audio.count ?? 0)
      - (main.playItems.first?.streams.audio.count ?? 0)
    let subtitles =
      (version.playItems.first?.streams.presentationGraphics.count ?? 0)
      - (main.playItems.first?.streams.presentationGraphics.count ?? 0)
    let kind: Kind
    var parts: [String] = []
    if sameSegments {
      kind = audio > 0 ? .commentary : .streams
      parts.append("the same cut")
    } else {
      let minute: Int64 = 60 * 45000
      kind = difference >= minute ? .extended : difference <= -minute ? .shorter : .alternate
      let seconds = MediaTime(ticks: abs(difference) * 2).description
      parts.append(
        "\(kind == .extended ? "extended" : kind == .shorter ? "shorter" : "alternate") cut, "
          + (difference == 0 ? "as long" : "\(seconds) \(difference > 0 ? "longer" : "shorter")"))
    }
    func count(_ n: Int, _ what: String) -> String {
      "\(abs(n)) \(n > 0 ? "more" : "fewer") \(what) stream\(abs(n) == 1 ? "" : "s")"
    }
    if audio != 0 { parts.append(count(audio, "audio")) }
    if subtitles != 0 { parts.append(count(subtitles, "subtitle")) }
    return Version(
      name: name, kind: kind, durationDifference45k: difference, audioDifference: audio,
      subtitleDifference: subtitles, detail: TextJoin.join(parts, separator: ", "))
  }
}
