@_spi(Formats) import DiscKit
import DiscKitCLI
import DiscKitReference

/// Crosscheck of DVD titles against libdvdread: title list, first-PGC program maps, cells and
/// playback times, and (optionally) every title's bytes against `DVDReadBlocks` over the same cells.
enum DVDCrosscheck {
  static func compare(disc image: DiscImage, compareBytes: Bool = true) throws -> [String] {
    let disc = try DVDDisc(fileSystem: image.fileSystem)
    let reference = try Reference.DVDReader(path: image.path)
    let theirs = try reference.titles()
    var differences: [String] = []
    if theirs.count != disc.titles.count {
      differences.append("dvd: \(disc.titles.count) titles, libdvdread \(theirs.count)")
    }
    for (index, result) in disc.titles.enumerated() where index < theirs.count {
      let n = index + 1
      switch (result, theirs[index]) {
      case (.failure(let error), .some):
        differences.append("dvd title \(n): DiscKit cannot read it (\(error)), libdvdread can")
      case (.success, .none):
        differences.append("dvd title \(n): DiscKit reads it, libdvdread cannot")
      case (.failure, .none):
        break
      case (.success(let t), .some(let ref)):
        let pgc = t.firstProgramChain
        if t.titleSet != ref.titleSet || t.titleInSet != ref.titleInSet
          || t.angleCount != ref.angles
          || t.declaredChapterCount != ref.chapters
        {
          differences.append("dvd title \(n): vts/ttn/angles/chapters differ")
        }
        if pgc.programMap?.map(Int.init) ?? [] != ref.programMap {
          differences.append("dvd title \(n): program maps differ")
        }
        let ours = (pgc.cellPlayback ?? []).map {
          [Int($0.firstSector), Int($0.lastSector), $0.blockMode, $0.blockType]
        }
        if ours
          != ref.cells.map({
            [Int($0.firstSector), Int($0.lastSector), $0.blockMode, $0.blockType]
          })
        {
          differences.append("dvd title \(n): cells differ")
        }
        let time = pgc.playbackTime
        if [time.hour, time.minute, time.second, time.frameByte] != ref.playbackTime {
          differences.append("dvd title \(n): playback times differ")
        }
        guard compareBytes else { continue }
        if t.cells(angle: 1).contains(where: \.isInterleavedAngleCell) {
          // An interleaved angle block: compare with what libdvdnav plays for angle 1 (libdvdread's
          // raw cell ranges hold every angle's interleaved units).
          do {
            let source = try disc.byteSource(title: n)
            let played = try Reference.DVDNav.play(path: image.path, title: Int32(n), angle: 1)
            if source.size != Int64(played.bytes.count) {
              differences.append(
                "dvd title \(n): \(source.size) bytes, libdvdnav plays \(played.bytes.count)")
            } else if try source.bytes(at: 0, count: played.bytes.count) != played.bytes {
              differences.append("dvd title \(n): bytes differ from libdvdnav's playback")
            }
          } catch {
            differences.append("dvd title \(n): bytes not compared: \(error)")
          }
          continue
        }
        do {
          let source = try disc.byteSource(title: n)
          var offset: Int64 = 0
          var differs = false
          // Cell by cell, so memory stays bounded by the largest cell.
          for cell in t.cells(angle: 1) where !differs {
            let expected = try reference.readTitleVOBs(
              titleSet: t.titleSet, ranges: [(cell.playback.firstSector, cell.playback.lastSector)])
            if try source.bytes(at: offset, count: expected.count) != expected {
              differences.append(
                "dvd title \(n): bytes differ in cell \(cell.cell) of PGC \(cell.programChain)")
              differs = true
            }
            offset += Int64(expected.count)
          }
          if !differs && offset != source.size {
            differences.append("dvd title \(n): \(source.size) bytes, libdvdread \(offset)")
          }
        } catch {
          differences.append("dvd title \(n): bytes not compared: \(error)")
        }
      }
    }
    return differences
  }
}
