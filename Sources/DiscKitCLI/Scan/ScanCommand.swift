// PLACEHOLDER: replaced by the work on: Scan a transport stream for first IDR and audio PTS (issue 3).
import ArgumentParser
import DiscKit

/// `disckit scan`.
struct ScanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scan", abstract: "Scan a transport stream for first IDR and audio PTS (issue 3)")

  func run() throws {
    throw DiscKitError(.unsupported, "scan", at: nil, "not built yet")
  }
}
