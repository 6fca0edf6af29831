import DiscKitTestSupport
import Foundation
import Testing

/// The built `disckit-serve` running on a loopback port for one test; stopped on deinit.
final class ServerProcess: @unchecked Sendable {
  /// The helper program beside the test bundle (`.build/debug/disckit-serve`).
  static let binary = Fixtures.builtExecutable("disckit-serve")
  static let disckit = URL(fileURLWithPath: binary).deletingLastPathComponent()
    .appendingPathComponent("disckit").path
  static let haveBinary = FileManager.default.isExecutableFile(atPath: binary)

  let process = Process()
  /// `http://127.0.0.1:PORT`.
  let base: String
  private let errorFile: String

  /// Starts the server over `root` with `--port 0` and waits for its first line; `environment`
  /// is added to the test's own.
  init(
    root: String, _ arguments: [String] = [], via disckit: Bool = false,
    environment: [String: String] = [:]
  ) throws {
    errorFile = NSTemporaryDirectory() + "/disckit-serve-\(UUID().uuidString).log"
    _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
    if disckit {
      process.executableURL = URL(fileURLWithPath: Self.disckit)
      process.arguments = ["serve", root, "--port", "0"] + arguments
    } else {
      process.executableURL = URL(fileURLWithPath: Self.binary)
      process.arguments = [root, "--port", "0"] + arguments
    }
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle(forWritingAtPath: errorFile)
    try process.run()
    var line = Data()
    while !line.contains(0x0A) {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    let text = String(decoding: line, as: UTF8.self)
    guard let range = text.range(of: "http://"),
      let end = text[range.lowerBound...].range(of: "/discs")
    else {
      process.terminate()
      let log = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
      throw DiscKitTestError("disckit-serve did not start: \(text) \(log)")
    }
    base = String(text[range.lowerBound..<end.lowerBound])
  }

  /// What the server wrote on stderr (access logs).
  var errorLog: String {
    (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
  }

  /// The server's resident set size in KiB (from /proc).
  var residentKiB: Int? {
    guard
      let status = try? String(
        contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return nil }
    return Int(line.split(separator: " ").dropFirst().first ?? "")
  }

  var isRunning: Bool { process.isRunning }

  deinit {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(atPath: errorFile)
  }
}

struct DiscKitTestError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// curl as the HTTP client.
enum Curl {
  struct Reply {
    var status: Int
    var headers: [String: String]
    var body: Data
  }

  static let available = Tool.has("curl")

  /// Runs curl on `url` with extra arguments; headers from `-D`, the body from stdout.
  static func get(_ url: String, _ arguments: [String] = []) throws -> Reply {
    let headerFile = NSTemporaryDirectory() + "/disckit-curl-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: headerFile) }
    let result = try Tool.run(
      "curl", ["-sS", "--path-as-is", "-D", headerFile, "-o", "-"] + arguments + [url])
    let raw = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
    var status = 0
    var headers: [String: String] = [:]
    for line in raw.split(separator: "\r\n") {
      if line.hasPrefix("HTTP/") {
        status = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        headers = [:]
      } else if let colon = line.firstIndex(of: ":") {
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
          .trimmingCharacters(in: .whitespaces)
      }
    }
    return Reply(status: status, headers: headers, body: result.stdout)
  }

  static func json(_ url: String, _ arguments: [String] = []) throws -> (Int, [String: Any]) {
    let reply = try get(url, arguments)
    let object = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
    return (reply.status, object ?? [:])
  }
}
