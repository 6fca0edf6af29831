/// A Blu-ray or DVD disc, opened from an image or a folder: one entry point for both kinds.
///
/// ```swift
/// let disc = try Disc.open(path: "movie.iso")
/// let list = try disc.titleList()            // numbered as `disckit titles` numbers them
/// let main = try disc.mainTitle()            // or disc.title(key: "00800") / disc.title(number: 2)
/// let source = try main.byteSource()         // one seekable source of the title's bytes
/// let start = try main.playbackStart(at: MediaTime(seconds: 90))
/// ```
///
/// Titles have a ``DiscTitle/key`` that names them on both kinds (the playlist number `00800` on a
/// Blu-ray, the title number `3` on a DVD) and, when the selection lists them, a 1-based
/// ``DiscTitle/number``. Angles are 1-based on both kinds.
public struct Disc: Sendable {
  /// The navigation of the disc, by kind.
  @_spi(Formats)
  public enum Navigation: Sendable {
    /// A Blu-ray (BDMV, also UHD and AVCHD).
    case bluray(BlurayDisc)
    /// A DVD-Video (VIDEO_TS).
    case dvd(DVDDisc)
  }

  /// The image or folder the disc was opened from.
  public let image: DiscImage
  /// The parsed navigation.
  @_spi(Formats)
  public let navigation: Navigation
  /// The kind of disc (decided once, when the disc is opened).
  public let kind: DiscKind
  /// The episode list, once computed (``episodeList()``; shared by the copies of this value).
  let episodeCache = EpisodeCache()

  /// Reads the navigation of an opened image, parsing every navigation file (index, MovieObject,
  /// playlists and clip information; IFOs) under the image's ``DiscImage/limits``.
  ///
  /// - Throws: ``DiscKitError/Code/unsupported`` when the image holds neither BDMV/ nor
  ///   VIDEO_TS/, or the navigation's parse error.
  public init(image: DiscImage) throws(DiscKitError) {
    self.image = image
    kind = image.kind
    switch kind {
    case .bluray, .uhdBluray, .avchd: navigation = .bluray(try BlurayDisc(disc: image))
    case .dvd: navigation = .dvd(try DVDDisc(fileSystem: image.fileSystem, limits: image.limits))
    case .data:
      throw DiscKitError(
        .unsupported, image.path, at: nil,
        "neither BDMV/index.bdmv nor VIDEO_TS/VIDEO_TS.IFO found")
    }
  }

  /// Opens an `.iso` image (UDF or ISO9660) or a folder holding BDMV/ or VIDEO_TS/.
  ///
  /// `limits` bound the file system and every navigation file parsed to open the disc: a file
  /// over ``ParsingLimits/maxMetadataFileBytes`` is ``DiscKitError/Code/limitExceeded``.
  public static func open(path: String, limits: ParsingLimits = .default) throws(DiscKitError)
    -> Disc
  {
    try Disc(image: try DiscImage.open(path: path, limits: limits))
  }

  /// The volume label of the file system.
  public var label: String { image.fileSystem.volumeLabel }

  /// The title a key names: a Blu-ray playlist number (`00800`, `800` or `00800.mpls`), a DVD
  /// title number, or an episode (``Episode/titleKey``: `00002:e3`), opened at `angle` (1-based).
  ///
  /// - Throws: ``DiscKitError/Code/notFound`` for an unknown key, ``DiscKitError/Code/invalidArgument``
  ///   for an angle the title does not have.
  public func title(key: String, angle: Int = 1) throws(DiscKitError) -> DiscTitle {
    // An episode: `00002:e3` (``Episode/titleKey``).
    if let episode = try title(episodeKey: key, angle: angle) { return episode }
    switch navigation {
    case .bluray(let bluray):
      let digits = key.hasSuffix(".mpls") ? String(key.dropLast(5)) : key
      guard !digits.isEmpty, digits.utf8.count <= 5, digits.allSatisfy(\.isASCIIDigit),
        let number = Int(digits),
        // A playlist that is listed but could not be read (over the limits, damaged) reports why.
        let file = bluray.playlistFile(number: number)
          ?? bluray.playlists.first(where: { $0.number == number })
      else {
        throw DiscKitError(.notFound, "playlist \(key)", at: nil, "no such playlist on the disc")
      }
      return try DiscTitle(
        bluray: bluray, title: try bluray.title(playlist: file.name, angle: max(angle - 1, 0)),
        number: nil, requestedAngle: angle)
    case .dvd(let dvd):
      guard key.utf8.count <= 3, key.allSatisfy(\.isASCIIDigit), let number = Int(key),
        number >= 1, number <= dvd.titles.count
      else {
        throw DiscKitError(.notFound, "title \(key)", at: nil, "no such title on the disc")
      }
      return try DiscTitle(dvd: dvd, title: try dvd.title(number), number: nil, angle: angle)
    }
  }

  /// Title `number` as ``titleList(selection:includeExcluded:minimumLength:)`` numbers it.
  public func title(number: Int, selection: TitleSelection = .smart, angle: Int = 1)
    throws(DiscKitError) -> DiscTitle
  {
    let list = try titleList(selection: selection)
    guard let entry = list.entries.first(where: { $0.number == number }) else {
      throw DiscKitError(
        .notFound, "title \(number)", at: nil, "no such title in the title list")
    }
    return try title(key: entry.key, angle: angle).numbered(number)
  }

  /// The main title the selection chooses, opened at `angle` (1-based).
  ///
  /// - Throws: ``DiscKitError/Code/notFound`` when the disc has no title.
  public func mainTitle(selection: TitleSelection = .smart, angle: Int = 1) throws(DiscKitError)
    -> DiscTitle
  {
    let list = try titleList(selection: selection)
    guard let key = list.mainKey else {
      throw DiscKitError(.notFound, "main title", at: nil, list.reason)
    }
    let number = list.entries.first { $0.key == key }?.number
    return try title(key: key, angle: angle).numbered(number)
  }
}

extension Character {
  var isASCIIDigit: Bool { isASCII && isNumber }
}
