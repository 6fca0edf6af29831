@_spi(Formats) import DiscKit

/// The DVD VM: the input as a VIDEO_TS.IFO whose First Play and menu commands are run (each
/// reached cell played through ``DVDVirtualMachine/advance(seconds:)``, which runs the
/// navigation timer, and finished, 64 at most), and as a list of 8-byte commands run one by one
/// on an empty disc. An input that holds a VIDEO_TS.IFO, then a VTS_01_0.IFO at a 2048-byte
/// boundary (its "DVDVIDEO-VTS"), then optionally navigation packs (a VIDEO_TS.VOB) is a whole
/// disc: the main-feature search runs on it (title domain, navigation timer edges, every `rnd`
/// outcome, button groups), and so does the episode search's menu walk, with small limits. The PCI button parser (groups included) is fuzzed
/// by the navpack harness.
enum DVDVMHarness: FuzzHarnessBody {
  static let name = "dvdvm"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    let array = [UInt8](bytes)
    let limits = DVDVirtualMachine.Limits(links: 2000, commands: 20_000)
    if let vmg = try? DVDVideoManagerInfo(bytes: array) {
      let program = DVDVirtualMachineProgram(
        firstPlay: vmg.firstPlayProgramChain, titles: vmg.titles.titles,
        managerMenus: try? vmg.menus?.get(), titleSets: [:])
      var vm = DVDVirtualMachine(program: program, limits: limits)
      vm.start()
      for _ in 0..<64 {
        guard let cell = vm.currentCell else { break }
        vm.advance(seconds: Int64(cell.playbackTime.wholeSeconds))
        vm.finishCell()
      }
    }
    if let files = disc(array),
      let disc = try? DVDDisc(fileSystem: MemoryFileSystem(files: files))
    {
      _ = DVDMainFeatureSearch.run(
        disc, limits: .init(menuStates: 4, cells: 64, commands: 5_000))
      _ = DVDEpisodeMenuWalk.run(disc, limits: .init(pages: 4, cells: 64, commands: 5_000))
    }
    var vm = DVDVirtualMachine(
      program: DVDVirtualMachineProgram(
        firstPlay: nil, titles: [], managerMenus: nil, titleSets: [:]),
      limits: limits)
    var index = 0
    while index + 8 <= array.count {
      let raw = array[index..<index + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      vm.execute(DVDCommand(raw: raw))
      vm.advance(seconds: Int64(array[index] & 7))
      index += 8
    }
  }

  /// VIDEO_TS.IFO, VTS_01_0.IFO and VIDEO_TS.VOB cut from `bytes` (see the type's comment).
  static func disc(_ bytes: [UInt8]) -> [String: [UInt8]]? {
    let vts = Array("DVDVIDEO-VTS".utf8)
    guard bytes.count > 2048, bytes.starts(with: Array("DVDVIDEO-VMG".utf8)) else { return nil }
    var split = 2048
    while split + vts.count <= bytes.count, !bytes[split..<split + vts.count].elementsEqual(vts) {
      split += 2048
    }
    guard split + vts.count <= bytes.count else { return nil }
    var end = split + 2048
    while end + 4 <= bytes.count, !bytes[end..<end + 4].elementsEqual([0, 0, 1, 0xBA]) {
      end += 2048
    }
    end = min(end, bytes.count)
    var files = [
      "/VIDEO_TS/VIDEO_TS.IFO": Array(bytes[..<split]),
      "/VIDEO_TS/VTS_01_0.IFO": Array(bytes[split..<end]),
    ]
    if end < bytes.count { files["/VIDEO_TS/VIDEO_TS.VOB"] = Array(bytes[end...]) }
    return files
  }
}
