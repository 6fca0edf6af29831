import ArgumentParser
import DiscKit

/// `disckit info IMAGE`.
struct InfoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "info",
    abstract: "Show the file system, UDF revision, volume label, size and disc kind.")

  @OptionGroup var image: ImageArgument
  @OptionGroup var output: JSONFlag

  /// The request the parsed arguments describe.
  var request: InfoRequest {
    var request = InfoRequest(image: image.image)
    request.json = output.json
    return request
  }

  func run() throws {
    try request.run()
  }
}
