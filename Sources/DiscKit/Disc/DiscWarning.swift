/// A problem met while opening a disc's navigation that did not prevent opening it.
///
/// ``description`` is the text `disckit titles` prints and the JSON documents carry in `warnings`.
public enum DiscWarning: Sendable, Hashable, CustomStringConvertible, Encodable {
  /// A file of `BDMV` could not be read (the error), so its `BDMV/BACKUP` copy was used.
  case usedBackup(DiscKitError)
  /// `BDMV/PLAYLIST` is missing; the playlists were listed from `BDMV/BACKUP/PLAYLIST`.
  case playlistFolderMissing

  /// The warning in words.
  public var description: String {
    switch self {
    case .usedBackup(let error): "\(error); used the BACKUP copy"
    case .playlistFolderMissing: "BDMV/PLAYLIST is missing; listed BDMV/BACKUP/PLAYLIST"
    }
  }

  /// Encodes ``description``.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
