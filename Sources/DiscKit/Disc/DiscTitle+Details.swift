extension DiscTitle {
  /// Blu-ray: the secondary audio and video streams of the first play item's stream number table
  /// (picture-in-picture), counted; DVD: `nil`.
  package var secondaryStreamCounts: (audio: Int, video: Int)? {
    guard case .bluray(let title) = content else { return nil }
    let stn = title.playlist.playItems.first?.streams ?? StreamNumberTable()
    return (stn.secondaryAudio.count, stn.secondaryVideo.count)
  }

  /// DVD: the title's place and video as the titles document lists them; Blu-ray: `nil`.
  package var dvdDetails: TitlesDocument.DVDDetails? {
    guard case .dvd(let title, _) = content else { return nil }
    return TitlesDocument.DVDDetails(
      titleSet: title.titleSet, titleInSet: title.titleInSet, cells: title.cells(angle: 1).count,
      lsdvdLengthMs: title.lsdvdMilliseconds,
      video: .init(
        format: title.video.formatName, aspect: title.video.aspectName,
        width: title.video.width, height: title.video.height))
  }
}

extension Disc {
  /// Problems met while opening the navigation that did not prevent opening it (Blu-ray files
  /// replaced by their backup copies; a DVD's IFO/BUP fallbacks are per title set, on
  /// ``DVDDisc/titleSets``).
  public var warnings: [DiscWarning] {
    switch navigation {
    case .bluray(let bluray): bluray.warnings
    case .dvd: []
    }
  }
}
