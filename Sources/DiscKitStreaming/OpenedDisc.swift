import DiscKit

/// A disc opened once and shared by every request.
public struct OpenedDisc: Sendable {
  /// Where it was found.
  public let entry: DiscEntry
  /// The disc (image, file system and navigation).
  public let disc: Disc
  /// The file's identity when it was opened (ETags, Last-Modified).
  public let identity: FileIdentity
  /// The main title's key and duration, computed once.
  public let main: (key: String, duration: MediaTime)?

  /// Opens the disc of `entry` (blocking: file system and navigation parsing).
  ///
  /// - Throws: the reader's ``DiscKitError`` for a damaged disc; ``DiscKitError/Code/unsupported``
  ///   for an image that is neither a Blu-ray nor a DVD.
  public init(entry: DiscEntry, identity: FileIdentity) throws(DiscKitError) {
    self.entry = entry
    self.identity = identity
    let disc = try Disc.open(path: entry.absolutePath)
    self.disc = disc
    if let title = try? disc.mainTitle() {
      main = (title.key, title.duration)
    } else {
      main = nil
    }
  }

  /// Whether the disc is a Blu-ray.
  public var isBluray: Bool {
    disc.kind != .dvd
  }
}
