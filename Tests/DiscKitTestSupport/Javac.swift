import DiscKit
import Foundation

/// javac (the JDK's compiler) as the oracle that writes real class files.
package enum Javac {
  package static let available = Tool.has("javac")

  /// Compiles a class holding `literals` as string constants; returns the class files by path.
  package static func compile(
    className: String, package: String, literals: [String], extra: String,
    in dir: TemporaryDirectory
  ) throws -> [String: [UInt8]] {
    func javaLiteral(_ s: String) -> String {
      var out = "\""
      for unit in s.utf16 {
        switch unit {
        case 0x22: out += "\\\""
        case 0x5C: out += "\\\\"
        case 0x20..<0x7F: out += String(UnicodeScalar(UInt8(unit)))
        default: out += String(format: "\\u%04x", unit)
        }
      }
      return out + "\""
    }
    let source = """
      package \(package);
      public class \(className) {
        \(extra)
        public static final String[] S = { \(literals.map(javaLiteral).joined(separator: ", ")) };
      }
      """
    let sources = dir.file("src")
    let out = dir.file("classes")
    try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
    let file = sources + "/\(className).java"
    try source.write(toFile: file, atomically: true, encoding: .utf8)
    let result = try Tool.run("javac", ["-encoding", "UTF-8", "-d", out, file])
    guard result.status == 0 else { throw DiscKitError(.io, "javac", at: nil, result.stderr) }
    var classes: [String: [UInt8]] = [:]
    let base = URL(fileURLWithPath: out)
    let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
    for case let url as URL in files?.allObjects ?? [] where url.pathExtension == "class" {
      let relative = String(url.path.dropFirst(base.path.count + 1))
      classes[relative] = [UInt8](try Data(contentsOf: url))
    }
    return classes
  }
}
