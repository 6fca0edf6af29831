import ArgumentParser
import DiscKit

/// The IMAGE argument shared by commands that open a disc.
package struct ImageArgument: ParsableArguments {
  @Argument(help: "A disc image (.iso, UDF or ISO9660) or a folder holding BDMV/ or VIDEO_TS/.")
  package var image: String

  package init() {}

  package func open() throws(DiscKitError) -> DiscImage {
    try DiscImage.open(path: image)
  }
}

/// `--json`.
struct JSONFlag: ParsableArguments {
  @Flag(name: .long, help: "Print JSON instead of text (schemas: Sources/DiscKit/Documents/Schemas).")
  var json = false
}
