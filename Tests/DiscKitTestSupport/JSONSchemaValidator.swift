import Foundation

/// Validates documents against DiscKit's JSON Schema files (Sources/DiscKit/Documents/Schemas)
/// through Tests/oracles/validate_json.py, i.e. python3-jsonschema: an independent validator.
public enum JSONSchemaValidator {
  /// The script that validates.
  public static let script = Fixtures.packageRoot.appendingPathComponent(
    "Tests/oracles/validate_json.py"
  ).path

  /// Whether python3 with the jsonschema module is available.
  public static let available: Bool = {
    guard let result = try? Tool.run("/usr/bin/python3", ["-c", "import jsonschema"]) else {
      return false
    }
    return result.status == 0
  }()

  /// The schema a `disckit` command line's `--json` output follows, if it has one.
  public static func schema(forCommandLine arguments: [String]) -> String? {
    guard arguments.contains("--json") || arguments.contains("--batch"),
      let command = arguments.first
    else { return nil }
    switch command {
    case "titles": return arguments.contains("--batch") ? "titles-batch-line" : "titles"
    case "info": return "info"
    case "ls": return "listing"
    case "scan": return arguments.contains("--batch") ? "scan-batch-line" : "scan"
    default: return nil
    }
  }

  /// The problems `document` has against schema `name` (empty when valid). `lines`: NDJSON.
  public static func problems(_ document: Data, schema name: String, lines: Bool = false) throws
    -> [String]
  {
    let result = try Tool.run(
      "/usr/bin/python3", [script, name] + (lines ? ["--lines"] : []), stdin: document)
    if result.status == 0 { return [] }
    return result.stderr.split(separator: "\n").map(String.init)
  }
}
