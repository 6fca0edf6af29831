/// An interactive composition segment (ICS, segment type 0x18) of an interactive-graphics (IG)
/// stream: the menu's pages, button overlap groups and buttons with their navigation commands
/// (BD-ROM part 3, 9.3.3).
///
/// An ICS larger than one segment is split into fragments; ``init(fragments:)`` joins them
/// (each fragment repeats the video, composition and sequence descriptors; the first carries
/// the total length).
package struct InteractiveComposition: Sendable, Hashable {
  /// The segment type of an ICS.
  package static let segmentType: UInt8 = 0x18

  /// The video size.
  package var width: UInt16
  package var height: UInt16
  /// `composition_number`.
  package var compositionNumber: UInt16
  /// `composition_state` (0 normal, 1 acquisition point, 2 epoch start).
  package var compositionState: UInt8
  /// `stream_model`: 0 multiplexed with the video, 1 preloaded (out of mux).
  package var streamModel: UInt8
  /// `user_interface_model`: 0 always on, 1 pop-up menu.
  package var userInterfaceModel: UInt8
  /// The pages.
  package var pages: [IGPage]
  /// Bytes of the declared composition length left after the last page (0 in a well-formed
  /// composition).
  package var trailingBytes = 0

  /// Every (page, button) pair.
  package var buttons: [(page: IGPage, button: IGButton)] {
    pages.flatMap { page in page.buttons.map { (page, $0) } }
  }

  /// The number of buttons, ``buttons``' count without building the pairs.
  package var buttonCount: Int {
    var count = 0
    for page in pages { for group in page.groups { count += group.buttons.count } }
    return count
  }

  /// Parses one complete ICS segment payload (after the 3-byte segment header).
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    width = try reader.readUInt16BE()
    height = try reader.readUInt16BE()
    try reader.skip(1)  // frame rate
    compositionNumber = try reader.readUInt16BE()
    compositionState = try reader.readUInt8() >> 6
    let sequence = try reader.readUInt8()
    guard sequence & 0x80 != 0 else {
      throw reader.malformed("ICS fragment is not the first of its sequence", atRelative: 7)
    }
    let length = Int(try reader.readUInt24BE())
    guard length <= reader.remaining else {
      throw DiscKitError.truncated(
        reader.structure, at: reader.absoluteOffset, needed: Int64(length))
    }
    var body = try reader.slice(length)
    let models = try body.readUInt8()
    streamModel = models >> 7
    userInterfaceModel = (models >> 6) & 1
    if streamModel == 0 { try body.skip(10) }  // composition and selection time-out PTS
    try body.skip(3)  // user time-out duration
    let count = Int(try body.readUInt8())
    pages = []
    for _ in 0..<count { pages.append(try IGPage(parsing: &body)) }
    trailingBytes = body.remaining
  }

  /// Parses an ICS segment payload.
  package init(bytes: [UInt8], name: String = "ICS") throws(DiscKitError) {
    var reader = BinaryReader(bytes, structure: name)
    try self.init(parsing: &reader)
  }

  /// Joins the fragments of one ICS (segment payloads, in stream order) and parses it.
  package init(fragments: [[UInt8]], name: String = "ICS") throws(DiscKitError) {
    guard var joined = fragments.first else {
      throw DiscKitError(.malformed, name, at: 0, "no ICS fragment")
    }
    for fragment in fragments.dropFirst() {
      guard fragment.count >= 9 else {
        throw DiscKitError.truncated(name, at: Int64(joined.count), needed: 9)
      }
      joined += fragment[9...]
    }
    try self.init(bytes: joined, name: name)
  }

  /// A composition (for authoring and tests).
  package init(pages: [IGPage], streamModel: UInt8 = 1) {
    width = 1920
    height = 1080
    compositionNumber = 0
    compositionState = 2
    self.streamModel = streamModel
    userInterfaceModel = 0
    self.pages = pages
  }
}
