/// Where a DVD player is: First Play, the video manager menus, a title set's menus or a title.
@_spi(Formats)
public enum DVDDomain: String, Sendable, Hashable, Codable {
  /// The First Play PGC of VIDEO_TS.IFO.
  case firstPlay
  /// The video manager menus (VMGM).
  case videoManagerMenu
  /// A title set's menus (VTSM).
  case titleSetMenu
  /// A title (VTS title domain).
  case title
}
