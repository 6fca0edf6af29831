import DiscKit

extension DiscInfoDocument {
  /// The document of an opened disc.
  public init(_ disc: OpenedDisc) {
    self.init(
      id: disc.entry.id, path: disc.entry.path, image: disc.disc.image, mainTitle: disc.main?.key,
      duration: disc.main?.duration)
  }
}
