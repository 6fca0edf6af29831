@_spi(Formats) import DiscKit

/// Scaffolding for DVD VM tests that run hand-assembled commands: a VM without a disc and a
/// command from its eight bytes.
package enum DVDTestVM {
  /// A VM with no disc (no First Play, titles or menus), limited to 100 links and 1000 commands.
  package static func empty() -> DVDVirtualMachine {
    DVDVirtualMachine(
      program: DVDVirtualMachineProgram(
        firstPlay: nil, titles: [], managerMenus: nil, titleSets: [:]),
      limits: .init(links: 100, commands: 1000))
  }

  /// The command whose eight bytes are `bytes`, most significant first.
  package static func command(_ bytes: [UInt8]) -> DVDCommand {
    DVDCommand(raw: bytes.reduce(0) { $0 << 8 | UInt64($1) })
  }
}
