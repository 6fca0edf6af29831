/// Reading Blu-ray interactive-graphics (IG) menus.
@_spi(Formats)
public enum InteractiveGraphics {
  /// The buttons of an interactive composition segment (ICS, the payload after the segment's
  /// 3-byte header) with the navigation commands each runs when activated.
  ///
  /// - Throws: ``DiscKitError`` when the segment is truncated or malformed.
  public static func menuButtons(composition bytes: [UInt8], name: String = "ICS")
    throws(DiscKitError) -> [(page: Int, button: Int, commands: [NavigationCommand])]
  {
    let composition = try InteractiveComposition(bytes: bytes, name: name)
    return composition.buttons.map { (Int($0.page.id), Int($0.button.id), $0.button.commands) }
  }
}
