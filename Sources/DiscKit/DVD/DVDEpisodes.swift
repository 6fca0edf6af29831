extension DVDDisc {
  /// The episodes of a DVD (see ``EpisodeList``).
  package func episodeList(main: Int?) -> EpisodeList {
    .none("episode detection on DVDs is not done yet")
  }

  /// An episode as a title of its own.
  package func episodeTitle(_ episode: Episode, angle: Int) throws(DiscKitError) -> DiscTitle {
    throw DiscKitError(
      .unsupported, "episode \(episode.titleKey)", at: nil, "DVD episodes are not done yet")
  }
}
