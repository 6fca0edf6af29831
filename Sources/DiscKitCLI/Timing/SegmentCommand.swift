// PLACEHOLDER: replaced by the work on: GStreamer segment time math (issue 3).
import ArgumentParser
import DiscKit

/// `disckit segment`.
struct SegmentCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "segment", abstract: "GStreamer segment time math (issue 3)")

  func run() throws {
    throw DiscKitError(.unsupported, "segment", at: nil, "not built yet")
  }
}
