// PLACEHOLDER: replaced by the work on: Author a UDF image or BDMV tree (issue 5).
import ArgumentParser
import DiscKit

/// `disckit author`.
struct AuthorCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "author", abstract: "Author a UDF image or BDMV tree (issue 5)")

  func run() throws {
    throw DiscKitError(.unsupported, "author", at: nil, "not built yet")
  }
}
