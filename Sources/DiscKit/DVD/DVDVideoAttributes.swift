/// Video attributes of a title set or menu (`video_attr_t`, 2 bytes).
@_spi(Formats)
public struct DVDVideoAttributes: Sendable, Hashable {
  /// 0 = MPEG-1, 1 = MPEG-2.
  public var mpegVersion: Int
  /// 0 = NTSC (525/60), 1 = PAL (625/50).
  public var videoFormat: Int
  /// 0 = 4:3, 3 = 16:9 (1 and 2 are reserved).
  public var displayAspectRatio: Int
  /// Permitted display modes: 0 pan&scan + letterbox, 1 pan&scan, 2 letterbox.
  public var permittedDisplayFormat: Int
  /// Line 21 closed captions in field 1 / field 2.
  public var line21Field1: Bool
  /// Line 21 closed captions in field 2.
  public var line21Field2: Bool
  /// 0 = 720, 1 = 704, 2 = 352, 3 = 352 (half height) pixels.
  public var pictureSize: Int
  /// Source material is letterboxed.
  public var letterboxed: Bool
  /// PAL film mode (0 camera, 1 film).
  public var filmMode: Bool

  /// Reads the two attribute bytes.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let b0 = try reader.readUInt8()
    let b1 = try reader.readUInt8()
    mpegVersion = Int(b0 >> 6)
    videoFormat = Int((b0 >> 4) & 3)
    displayAspectRatio = Int((b0 >> 2) & 3)
    permittedDisplayFormat = Int(b0 & 3)
    line21Field1 = b1 & 0x80 != 0
    line21Field2 = b1 & 0x40 != 0
    pictureSize = Int((b1 >> 2) & 3)
    letterboxed = b1 & 0x02 != 0
    filmMode = b1 & 0x01 != 0
  }

  /// `"NTSC"`, `"PAL"` or `"unknown"`.
  public var formatName: String {
    switch videoFormat {
    case 0: "NTSC"
    case 1: "PAL"
    default: "unknown"
    }
  }

  /// `"4:3"`, `"16:9"` or `"unknown"`.
  public var aspectName: String {
    switch displayAspectRatio {
    case 0: "4:3"
    case 1, 3: "16:9"
    default: "unknown"
    }
  }

  /// Coded width in pixels.
  public var width: Int { [720, 704, 352, 352][pictureSize & 3] }

  /// Coded height in lines (480 NTSC, 576 PAL; half for picture size 3).
  public var height: Int {
    let full = videoFormat == 1 ? 576 : 480
    return pictureSize == 3 ? full / 2 : full
  }
}
