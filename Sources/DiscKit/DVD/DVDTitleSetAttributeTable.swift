/// The title set attribute table of the video manager (`vts_atrt_t`, VTS_ATRT): how many title
/// sets the disc has, with each set's category and title video attributes.
@_spi(Formats)
public struct DVDTitleSetAttributeTable: Sendable, Hashable {
  /// The attributes of one title set.
  public struct Entry: Sendable, Hashable {
    /// The VTS category (0 = unspecified, 1 = karaoke).
    public var category: UInt32
    /// The video attributes of the set's titles.
    public var video: DVDVideoAttributes
    /// Number of title audio streams.
    public var audioStreamCount: Int
  }

  /// One entry per title set (index = VTS number − 1).
  public var titleSets: [Entry]

  /// Reads the table; `reader`'s window starts at the table and extends to the end of the file.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let base = reader
    let offsets = try DVDOffsetTable.entryOffsets(&reader)
    var entries: [Entry] = []
    entries.reserveCapacity(offsets.count)
    for (i, offset) in offsets.enumerated() {
      var attributes = try base.slice(
        atRelative: offset, count: 356, structure: base.structure + " VTS \(i + 1)")
      try attributes.skip(4)
      let category = try attributes.readUInt32BE()
      try attributes.seek(toRelative: 264)
      let video = try DVDVideoAttributes(parsing: &attributes)
      try attributes.skip(1)
      let audioCount = Int(try attributes.readUInt8())
      entries.append(Entry(category: category, video: video, audioStreamCount: audioCount))
    }
    titleSets = entries
  }
}
