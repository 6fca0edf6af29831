import DiscKit

/// The DVD VM: the input as a VIDEO_TS.IFO whose First Play and menu commands are run (and each
/// reached cell finished, 64 at most), and as a list of 8-byte commands run one by one on an
/// empty disc. The PCI button parser is fuzzed by the navpack harness.
enum DVDVMHarness: FuzzHarness {
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
      for _ in 0..<64 where vm.currentCell != nil { vm.finishCell() }
    }
    var vm = DVDVirtualMachine(
      program: DVDVirtualMachineProgram(
        firstPlay: nil, titles: [], managerMenus: nil, titleSets: [:]),
      limits: limits)
    var index = 0
    while index + 8 <= array.count {
      let raw = array[index..<index + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      vm.execute(DVDCommand(raw: raw))
      index += 8
    }
  }
}
