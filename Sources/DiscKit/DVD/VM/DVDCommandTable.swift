/// A program chain's command table (`pgc_command_tbl_t`): the pre commands run before the PGC
/// plays, the post commands run after its last cell, and the cell commands a cell names by number.
@_spi(Formats)
public struct DVDCommandTable: Sendable, Hashable {
  /// The pre commands.
  public var pre: [DVDCommand]
  /// The post commands.
  public var post: [DVDCommand]
  /// The cell commands (a cell's `cell_cmd_nr` is a 1-based index into this list).
  public var cell: [DVDCommand]

  /// A table from its three lists.
  public init(pre: [DVDCommand], post: [DVDCommand], cell: [DVDCommand]) {
    self.pre = pre
    self.post = post
    self.cell = cell
  }

  /// Reads the table; `reader`'s window starts at the table's 8-byte header.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let preCount = Int(try reader.readUInt16BE())
    let postCount = Int(try reader.readUInt16BE())
    let cellCount = Int(try reader.readUInt16BE())
    try reader.skip(2)  // last_byte
    func read(_ n: Int, _ reader: inout BinaryReader) throws(DiscKitError) -> [DVDCommand] {
      var list: [DVDCommand] = []
      list.reserveCapacity(n)
      for _ in 0..<n { list.append(try DVDCommand(parsing: &reader)) }
      return list
    }
    pre = try read(preCount, &reader)
    post = try read(postCount, &reader)
    cell = try read(cellCount, &reader)
  }
}
