/// The sectors a player reads for one cell of an interleaved angle block, found by walking the
/// cell's navigation packs the way libdvdnav does for a fixed angle.
///
/// In an interleaved block the cells of all angles share one sector range, cut into interleaved
/// units (ILVUs) that alternate between the angles, so a cell's `first_sector...last_sector`
/// holds the other angles' ILVUs too. Starting at the cell's first sector, each VOBU is
/// `vobu_ea + 1` sectors from its navigation pack; the next VOBU is `vobu_sri.next_vobu` sectors
/// further, except at the last VOBU of an ILVU (`sml_pbi.category` ILVU block + last), where the
/// angle's non-seamless destination (PCI `nsml_agl_dsta`) or, when that is 0, its seamless
/// address (DSI `sml_agli`, VOBU length `ilvu_ea`) leads to the angle's next ILVU. The walk ends
/// at `SRI_END_OF_CELL` (`0x3FFFFFFF`; a seamless address of `0x7FFFFFFF` also means "end").
///
/// Unlike libdvdnav, positions are the sectors actually read (not the packs' own `nv_pck_lbn`),
/// and every step is checked: a VOBU must end inside the cell, and the next pack must lie after
/// the VOBU just read and inside the cell, so the walk always ends.
@_spi(Formats)
public struct DVDInterleavedCellWalk: Sendable, Hashable {
  /// One run of consecutive sectors (one or more adjacent VOBUs).
  public struct Run: Sendable, Hashable {
    /// First sector, relative to the title VOBs.
    public var firstSector: Int64
    /// Number of sectors.
    public var sectorCount: Int64
  }

  /// The runs, in reading order; adjacent VOBUs are merged.
  public var runs: [Run]
  /// The number of VOBUs read.
  public var vobuCount: Int

  /// The default limit on VOBUs per cell (a 9-hour cell of 0.4 s VOBUs has 81,000).
  public static let defaultMaxVOBUs = 1 << 17

  /// Walks `cell` (the `angle`-th cell of its block) in `vobs`.
  ///
  /// - Parameters:
  ///   - angle: the 1-based angle whose PCI/DSI entries are followed.
  ///   - structure: names the VOB set in errors (e.g. `VTS_01 title VOBs`); error offsets are
  ///     byte offsets in that VOB set (sector × 2048).
  /// - Throws: ``DiscKitError/Code/malformed`` when a navigation pack is missing where one is
  ///   expected, a VOBU runs past the cell's last sector, or a next pointer does not move forward
  ///   or leaves the cell; ``DiscKitError/Code/limitExceeded`` past `maxVOBUs` VOBUs; read errors
  ///   of `vobs`.
  public init(
    cell: DVDTitleCell, angle: Int, vobs: any ByteSource, structure: String,
    maxVOBUs: Int = DVDInterleavedCellWalk.defaultMaxVOBUs
  ) throws(DiscKitError) {
    let p = cell.playback
    let first = Int64(p.firstSector)
    let last = Int64(p.lastSector)
    let name = structure + " NV_PCK"
    let which = "cell \(cell.cell) of PGC \(cell.programChain) (angle \(angle))"
    guard first <= last else {
      throw DiscKitError(
        .malformed, structure, at: first * 2048,
        "\(which) ends at sector \(last) before it starts at \(first)")
    }
    let slot = min(max(angle, 1), 9) - 1
    var runs: [Run] = []
    var count = 0
    var sector = first
    var buffer = [UInt8](repeating: 0, count: 2048)
    while true {
      count += 1
      guard count <= maxVOBUs else {
        throw DiscKitError(
          .limitExceeded, name, at: sector * 2048,
          "\(which) has more than \(maxVOBUs) VOBUs")
      }
      let at = sector * 2048
      let outcome = buffer.withUnsafeMutableBytes { raw in
        Result { () throws(DiscKitError) -> Int in try vobs.readFully(at: at, into: raw) }
      }
      let got = try outcome.get()
      guard got == 2048 else {
        throw DiscKitError(
          .truncated, name, at: at, "\(which): the navigation pack at sector \(sector) is cut off")
      }
      let nav: DVDNavigationPack
      do {
        nav = try DVDNavigationPack(sector: buffer, at: at)
      } catch {
        throw DiscKitError(
          error.code, name, at: at,
          "\(which): missing navigation pack at sector \(sector) where a VOBU should start: \(error.detail)"
        )
      }
      var length = Int64(nav.vobuEndAddress)
      var step = Int64(nav.nextVOBU & 0x3FFF_FFFF)
      if nav.isLastOfILVU {
        let nsml = nav.nonSeamlessAngleDestinations[slot]
        let sml = nav.seamlessAngles[slot].address
        if nsml != 0 {
          if nsml & 0x3FFF_FFFF != 0 {
            step = Int64(nsml & 0x3FFF_FFFF) * (nsml & 0x8000_0000 != 0 ? -1 : 1)
          }
        } else if sml != 0 {
          length = Int64(nav.ilvuEndAddress)
          let backwards = sml & 0x8000_0000 != 0 && sml != 0x7FFF_FFFF
          step = Int64(sml & 0x3FFF_FFFF) * (backwards ? -1 : 1)
        }
      }
      guard sector + length <= last else {
        throw DiscKitError(
          .malformed, name, at: at,
          "\(which): the VOBU at sector \(sector) (\(length + 1) sectors) runs past the cell's last sector \(last)"
        )
      }
      if let previous = runs.last, previous.firstSector + previous.sectorCount == sector {
        runs[runs.count - 1].sectorCount += length + 1
      } else {
        runs.append(Run(firstSector: sector, sectorCount: length + 1))
      }
      if step == Int64(DVDNavigationPack.endOfCell) { break }
      let next = sector + step
      guard next > sector + length else {
        throw DiscKitError(
          .loop, name, at: at,
          "\(which): the next VOBU pointer of the pack at sector \(sector) leads to sector \(next), which does not lie after this VOBU (ends at \(sector + length))"
        )
      }
      guard next <= last else {
        throw DiscKitError(
          .malformed, name, at: at,
          "\(which): the next VOBU pointer of the pack at sector \(sector) leads to sector \(next), outside the cell (sectors \(first)-\(last))"
        )
      }
      sector = next
    }
    self.runs = runs
    vobuCount = count
  }
}
