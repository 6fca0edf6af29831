extension DiscTitle {
  /// The title's bytes on the chosen timeline: ``BlurayTitle/byteSource(timeline:)`` or
  /// ``DVDDisc/byteSource(title:angle:chapters:timeline:)``. `.original` is ``byteSource()``.
  public func byteSource(timeline: TitleTimeline) throws(DiscKitError) -> any ByteSource {
    switch content {
    case .bluray(let title): try title.byteSource(timeline: timeline)
    case .dvd(let title, let disc):
      try disc.byteSource(title: title.number, angle: angle, timeline: timeline)
    }
  }
}
