@_spi(Formats) import DiscKit
import DiscKitCLI
import DiscKitReference

/// Crosscheck of Blu-ray titles against libbluray: title lists (TITLES_ALL and TITLES_RELEVANT),
/// main title, and per title the duration, clips (id, in/out, packets), chapters (start, offset),
/// angles and size; with `compareBytes`, the main title's first 64 MiB against `bd_read` (after
/// normalising the packets libbluray wipes to PID 0x1FFF).
enum BlurayCrosscheck {
  static func compare(disc image: DiscImage, compareBytes: Bool = true) throws -> [String] {
    var differences: [String] = []
    let bd = try Reference.Bluray(path: image.path)
    let unordered = try BlurayDisc(disc: image)
    // libbluray's enumeration order (readdir order on a folder) from its own TITLES_ALL list.
    var order: [String] = []
    var used = Set<String>()
    for i in 0..<bd.titleCount(flags: 0) {
      guard let info = bd.titleInfo(i),
        let file = unordered.playlists.first(where: {
          $0.number == Int(info.playlist) && !used.contains($0.name)
        })
      else { continue }
      used.insert(file.name)
      order.append(file.name)
    }
    let disc = try BlurayDisc(disc: image, playlistOrder: order)
    for (flags, label) in [(UInt8(0), "TITLES_ALL"), (UInt8(3), "TITLES_RELEVANT")] {
      let ours = LibblurayTitleSelector.select(
        disc.playlists.map { ($0.name, $0.playlist) }, flags: .init(rawValue: flags))
      let count = bd.titleCount(flags: flags)
      guard ours.titles.count == count else {
        differences.append(
          "\(label): DiscKit lists \(ours.titles.count) titles, libbluray \(count)")
        continue
      }
      if count > 0 && ours.mainTitle != bd.mainTitle {
        differences.append(
          "\(label): main title \(ours.mainTitle + 1) (DiscKit) vs \(bd.mainTitle + 1) (libbluray)")
      }
      for (i, name) in ours.titles.enumerated() {
        guard let info = bd.titleInfo(i) else {
          differences.append("\(label) title \(i + 1): libbluray has no title info")
          continue
        }
        let prefix = "\(label) title \(i + 1) (\(name))"
        let title: BlurayTitle
        do { title = try disc.title(playlist: name) } catch {
          differences.append("\(prefix): DiscKit cannot build it: \(error)")
          continue
        }
        if Int(info.playlist) != BlurayDisc.PlaylistFile.number(of: name) {
          differences.append("\(prefix): libbluray plays \(info.playlist)")
        }
        if title.duration90k != info.duration90k {
          differences.append("\(prefix): duration \(title.duration90k) vs \(info.duration90k)")
        }
        if title.angleCount != info.angleCount {
          differences.append("\(prefix): angles \(title.angleCount) vs \(info.angleCount)")
        }
        if title.clips.count != info.clips.count {
          differences.append("\(prefix): \(title.clips.count) clips vs \(info.clips.count)")
        }
        for (c, r) in zip(title.clips, info.clips)
        where c.clipID != r.clipID || c.inTime90k != r.inTime90k
          || c.outTime90k != r.outTime90k
          || c.packetCount != r.packetCount
        {
          differences.append(
            "\(prefix) clip \(c.index + 1): \(c.clipID) \(c.inTime90k)-\(c.outTime90k) \(c.packetCount) packets vs "
              + "\(r.clipID) \(r.inTime90k)-\(r.outTime90k) \(r.packetCount) packets")
        }
        if title.chapters.count != info.chapters.count {
          differences.append(
            "\(prefix): \(title.chapters.count) chapters vs \(info.chapters.count)")
        }
        for (c, r) in zip(title.chapters, info.chapters)
        where c.titleTime90k != r.start90k || UInt64(c.offset) != r.offset {
          differences.append(
            "\(prefix) chapter \(c.index + 1): start \(c.titleTime90k) offset \(c.offset) vs start \(r.start90k) offset \(r.offset)"
          )
        }
        if flags == 3, bd.selectTitle(i), UInt64(title.size) != bd.titleSize {
          differences.append("\(prefix): size \(title.size) vs \(bd.titleSize)")
        }
      }
      if compareBytes && flags == 3 && count > 0 {
        differences += compareMainTitleBytes(
          disc: disc, name: ours.titles[ours.mainTitle], bd: bd, index: ours.mainTitle)
      }
    }
    return differences
  }

  static func compareMainTitleBytes(
    disc: BlurayDisc, name: String, bd: Reference.Bluray, index: Int
  ) -> [String] {
    guard let title = try? disc.title(playlist: name), let source = try? title.byteSource() else {
      return []  // no stream files (metadata-only copy): nothing to compare
    }
    guard bd.selectTitle(index) else { return ["\(name): libbluray cannot select the main title"] }
    let limit = Int(min(source.size, 64 << 20))
    var theirs: [UInt8] = []
    theirs.reserveCapacity(limit)
    _ = bd.readToEnd(limit: limit) { theirs += $0 }
    let n = min(limit, theirs.count)
    guard let ours = try? source.bytes(at: 0, count: n) else {
      return ["\(name): DiscKit cannot read \(n) bytes"]
    }
    if theirs.count < limit {
      return ["\(name): libbluray's bd_read stopped after \(theirs.count) of \(limit) bytes"]
    }
    for p in stride(from: 0, to: n - n % 192, by: 192)
    where ours[p..<p + 192] != theirs[p..<p + 192] {
      let wiped = theirs[p + 5] & 0x1F == 0x1F && theirs[p + 6] == 0xFF
      let rest = (0..<192).allSatisfy { $0 == 5 || $0 == 6 || ours[p + $0] == theirs[p + $0] }
      if !(wiped && rest) {
        return ["\(name): bytes differ from bd_read in the packet at title offset \(p)"]
      }
    }
    return []
  }
}

extension BlurayDisc.PlaylistFile {
  /// The number libbluray derives from a playlist file name (`atoi`).
  static func number(of name: String) -> Int { Int(name.prefix(while: \.isNumber)) ?? 0 }
}
