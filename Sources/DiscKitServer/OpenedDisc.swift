import DiscKit

/// A disc opened once and shared by every request: its file system and navigation.
public struct OpenedDisc: Sendable {
  /// The navigation of the disc.
  public enum Navigation: Sendable {
    /// A Blu-ray (BDMV): playlists are titles.
    case bluray(BlurayDisc)
    /// A DVD-Video: numbered titles.
    case dvd(DVDDisc)
  }

  /// Where it was found.
  public let entry: DiscEntry
  /// The opened image or folder.
  public let image: DiscImage
  /// Its navigation.
  public let navigation: Navigation
  /// The file's identity when it was opened (ETags, Last-Modified).
  public let identity: FileIdentity

  /// Opens the disc of `entry` (blocking: file system and navigation parsing).
  ///
  /// - Throws: the reader's ``DiscKitError`` for a damaged disc; ``DiscKitError/Code/unsupported``
  ///   for an image that is neither a Blu-ray nor a DVD.
  public init(entry: DiscEntry, identity: FileIdentity) throws(DiscKitError) {
    self.entry = entry
    self.identity = identity
    let image = try DiscImage.open(path: entry.absolutePath)
    self.image = image
    switch image.kind {
    case .bluray, .uhdBluray, .avchd: navigation = .bluray(try BlurayDisc(disc: image))
    case .dvd: navigation = .dvd(try DVDDisc(fileSystem: image.fileSystem))
    case .data:
      throw DiscKitError(
        .unsupported, entry.path, at: nil, "neither BDMV/index.bdmv nor VIDEO_TS/VIDEO_TS.IFO found")
    }
  }

  /// The main title's key (`00800` or `4`), with its duration in 90 kHz ticks.
  public func mainTitle() -> (key: String, duration90k: UInt64)? {
    switch navigation {
    case .bluray(let disc):
      guard let main = disc.smartSelection().main, let file = disc.playlistFile(named: main),
        let title = try? disc.title(playlist: main)
      else { return nil }
      return (TitleKey.playlistKey(file.number), title.duration90k)
    case .dvd(let disc):
      guard let number = DVDSmartTitleSelector.select(disc).title,
        let title = try? disc.title(number)
      else { return nil }
      return (String(number), UInt64(max(0, title.duration90k)))
    }
  }
}
