/// Where an HDMV run starts.
package enum HDMVEntry: Sendable, Hashable, CustomStringConvertible {
  /// The index table's First Play object.
  case firstPlay
  /// The index table's Top Menu object (title 0).
  case topMenu
  /// Index title `n` (1-based).
  case title(Int)
  /// A button of an interactive-graphics menu, run from the state its menu was entered with.
  case button(page: Int, button: Int, menuPlaylist: Int)

  package var description: String {
    switch self {
    case .firstPlay: "first play"
    case .topMenu: "top menu"
    case .title(let n): "title \(n)"
    case .button(let page, let button, let playlist):
      "button \(button) of page \(page) of the menu in playlist \(playlist)"
    }
  }
}

/// A command position: a movie object (or, `object == nil`, the button program being run) and
/// the command's index in it.
package struct HDMVLocation: Sendable, Hashable, CustomStringConvertible {
  /// The movie object number; `nil` for a button's commands.
  package var object: Int?
  /// The command index.
  package var command: Int

  /// A position.
  package init(object: Int?, command: Int) {
    self.object = object
    self.command = command
  }

  package var description: String {
    object.map { "object \($0) command \(command)" } ?? "button command \(command)"
  }
}
