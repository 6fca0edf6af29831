import CDVDRead
import DiscKit

extension Reference {
  /// A disc opened with libdvdread (`DVDOpen` on an image or a folder).
  public final class DVDReader: @unchecked Sendable {
    // @unchecked: the dvd_reader_t handle is used from one thread at a time by tests and tools.
    private let dvd: OpaquePointer

    /// One cell of a title's first PGC, as libdvdread parsed it.
    public struct Cell: Sendable, Hashable {
      public var firstSector: UInt32
      public var lastSector: UInt32
      public var blockMode: Int
      public var blockType: Int
    }

    /// A title as libdvdread's `ifoOpen` sees it.
    public struct Title: Sendable, Hashable {
      public var titleSet: Int
      public var titleInSet: Int
      public var angles: Int
      public var chapters: Int
      /// The first PGC's number, program map and cells.
      public var programChain: Int
      public var programMap: [Int]
      public var cells: [Cell]
      /// The first PGC's raw BCD playback time bytes.
      public var playbackTime: [UInt8]
    }

    /// Opens `path` with `DVDOpen`.
    public init(path: String) throws(DiscKitError) {
      guard let dvd = DVDOpen(path) else {
        throw DiscKitError(.cannotOpen, "libdvdread", at: nil, "DVDOpen failed for \(path)")
      }
      self.dvd = dvd
    }

    deinit { DVDClose(dvd) }

    /// Every title of TT_SRPT, `nil` where libdvdread cannot open the title set or first PGC.
    public func titles() throws(DiscKitError) -> [Title?] {
      guard let vmg = ifoOpen(dvd, 0) else {
        throw DiscKitError(.cannotOpen, "libdvdread", at: nil, "ifoOpen(0) failed")
      }
      defer { ifoClose(vmg) }
      guard let ttSrpt = vmg.pointee.tt_srpt else { return [] }
      var result: [Title?] = []
      var sets: [Int: UnsafeMutablePointer<ifo_handle_t>] = [:]
      defer { for (_, ifo) in sets { ifoClose(ifo) } }
      for i in 0..<Int(ttSrpt.pointee.nr_of_srpts) {
        let info = ttSrpt.pointee.title[i]
        let vtsNumber = Int(info.title_set_nr)
        if sets[vtsNumber] == nil, let opened = ifoOpen(dvd, Int32(vtsNumber)) {
          sets[vtsNumber] = opened
        }
        guard let ifo = sets[vtsNumber], let ptt = ifo.pointee.vts_ptt_srpt,
          let pgcit = ifo.pointee.vts_pgcit,
          Int(info.vts_ttn) >= 1, Int(info.vts_ttn) <= Int(ptt.pointee.nr_of_srpts)
        else {
          result.append(nil)
          continue
        }
        let ttu = ptt.pointee.title[Int(info.vts_ttn) - 1]
        guard ttu.nr_of_ptts > 0 else {
          result.append(nil)
          continue
        }
        let pgcn = Int(ttu.ptt[0].pgcn)
        guard pgcn >= 1, pgcn <= Int(pgcit.pointee.nr_of_pgci_srp),
          let pgc = pgcit.pointee.pgci_srp[pgcn - 1].pgc
        else {
          result.append(nil)
          continue
        }
        let (map, cells) = Self.programMapAndCells(pgc)
        let t = pgc.pointee.playback_time
        result.append(
          Title(
            titleSet: vtsNumber, titleInSet: Int(info.vts_ttn), angles: Int(info.nr_of_angles),
            chapters: Int(info.nr_of_ptts), programChain: pgcn, programMap: map, cells: cells,
            playbackTime: [t.hour, t.minute, t.second, t.frame_u]))
      }
      return result
    }

    /// One PGC of a title set's VTS_PGCIT as libdvdread parsed it.
    public struct ProgramChain: Sendable, Hashable {
      /// `next_pgc_nr` (0 = none).
      public var next: Int
      public var programMap: [Int]
      public var cells: [Cell]
    }

    /// PGC `number` (1-based) of title set `titleSet`, `nil` when libdvdread has no such PGC.
    public func programChain(titleSet: Int, number: Int) -> ProgramChain? {
      guard let ifo = ifoOpen(dvd, Int32(titleSet)) else { return nil }
      defer { ifoClose(ifo) }
      guard let pgcit = ifo.pointee.vts_pgcit, number >= 1,
        number <= Int(pgcit.pointee.nr_of_pgci_srp),
        let pgc = pgcit.pointee.pgci_srp[number - 1].pgc
      else { return nil }
      let (map, cells) = Self.programMapAndCells(pgc)
      return ProgramChain(next: Int(pgc.pointee.next_pgc_nr), programMap: map, cells: cells)
    }

    /// A PGC's program map and cell playback entries as libdvdread parsed them.
    static func programMapAndCells(_ pgc: UnsafeMutablePointer<pgc_t>) -> ([Int], [Cell]) {
      var map: [Int] = []
      if let pm = pgc.pointee.program_map {
        for k in 0..<Int(pgc.pointee.nr_of_programs) { map.append(Int(pm[k])) }
      }
      var cells: [Cell] = []
      if let cp = pgc.pointee.cell_playback {
        for k in 0..<Int(pgc.pointee.nr_of_cells) {
          let c = cp[k]
          cells.append(
            Cell(
              firstSector: c.first_sector, lastSector: c.last_sector,
              blockMode: Int(c.block_mode), blockType: Int(c.block_type)))
        }
      }
      return (map, cells)
    }

    /// Reads sectors `first...last` of each range from title set `titleSet`'s title VOBs with
    /// `DVDOpenFile(DVD_READ_TITLE_VOBS)` + `DVDReadBlocks`, concatenated.
    public func readTitleVOBs(titleSet: Int, ranges: [(first: UInt32, last: UInt32)])
      throws(DiscKitError) -> [UInt8]
    {
      guard let file = DVDOpenFile(dvd, Int32(titleSet), DVD_READ_TITLE_VOBS) else {
        throw DiscKitError(
          .cannotOpen, "libdvdread", at: nil, "DVDOpenFile(\(titleSet), TITLE_VOBS) failed")
      }
      defer { DVDCloseFile(file) }
      var out: [UInt8] = []
      for range in ranges where range.last >= range.first {
        var sector = Int(range.first)
        let end = Int(range.last) + 1
        while sector < end {
          let n = min(512, end - sector)
          var buffer = [UInt8](repeating: 0, count: n * 2048)
          let got = buffer.withUnsafeMutableBufferPointer {
            DVDReadBlocks(file, Int32(sector), n, $0.baseAddress)
          }
          guard got == n else {
            throw DiscKitError(
              .io, "libdvdread", at: Int64(sector) * 2048,
              "DVDReadBlocks returned \(got) of \(n) blocks")
          }
          out += buffer
          sector += n
        }
      }
      return out
    }

    /// Reads the given sector ranges and returns the byte count (benchmarks).
    public func drainTitleVOBs(titleSet: Int, ranges: [(first: UInt32, last: UInt32)]) -> Int64 {
      guard let file = DVDOpenFile(dvd, Int32(titleSet), DVD_READ_TITLE_VOBS) else { return -1 }
      defer { DVDCloseFile(file) }
      var buffer = [UInt8](repeating: 0, count: 512 * 2048)
      var total: Int64 = 0
      for range in ranges where range.last >= range.first {
        var sector = Int(range.first)
        let end = Int(range.last) + 1
        while sector < end {
          let n = min(512, end - sector)
          let got = buffer.withUnsafeMutableBufferPointer {
            DVDReadBlocks(file, Int32(sector), n, $0.baseAddress)
          }
          if got <= 0 { return total }
          total += Int64(got) * 2048
          sector += n
        }
      }
      return total
    }
  }
}
