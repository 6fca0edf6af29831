/// One subtitle picture as the OCR sees it: where it sits on the video frame, and for every pixel
/// its luma (0-255, full range) and its opacity (0-255). Colour is left out: subtitle text is told
/// from its outline by brightness, whatever its hue.
public struct SubtitleBitmap: Sendable, Hashable {
  /// The picture's left edge on the video frame.
  public var x: Int
  /// The picture's top edge on the video frame.
  public var y: Int
  /// The picture's width in pixels.
  public var width: Int
  /// The picture's height in pixels.
  public var height: Int
  /// Row-major luma, `width * height` values.
  public var luma: [UInt8]
  /// Row-major opacity, `width * height` values (0 transparent).
  public var alpha: [UInt8]
  /// Whether the picture is a forced caption (PGS `forced_on_flag`; DVD forced start command).
  public var forced: Bool

  /// A picture.
  public init(
    x: Int, y: Int, width: Int, height: Int, luma: [UInt8], alpha: [UInt8], forced: Bool
  ) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
    self.luma = luma
    self.alpha = alpha
    self.forced = forced
  }

  /// Whether no pixel is visible.
  public var isBlank: Bool { !alpha.contains { $0 >= 32 } }
}

/// One decoded subtitle event of a stream: what is shown from `pts90k` on (nothing for a clear),
/// and, for a DVD subpicture, when it hides again.
public struct SubtitleEvent: Sendable, Hashable {
  /// The presentation time (90 kHz, the stream's own clock) at which the pictures show.
  public var pts90k: Int64
  /// The pictures shown (empty: the screen is cleared).
  public var bitmaps: [SubtitleBitmap]
  /// DVD: when the pictures hide (90 kHz, same clock); PGS: `nil` (the next event ends it).
  public var endPTS90k: Int64?
  /// The video frame size the pictures are placed on.
  public var frameWidth: Int
  public var frameHeight: Int
  /// The byte offset, in the title's bytes, of the packet that carried the event.
  public var offset: Int64

  /// An event.
  public init(
    pts90k: Int64, bitmaps: [SubtitleBitmap], endPTS90k: Int64? = nil, frameWidth: Int,
    frameHeight: Int, offset: Int64
  ) {
    self.pts90k = pts90k
    self.bitmaps = bitmaps
    self.endPTS90k = endPTS90k
    self.frameWidth = frameWidth
    self.frameHeight = frameHeight
    self.offset = offset
  }
}
