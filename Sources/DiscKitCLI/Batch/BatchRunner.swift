import DiscKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--batch`: runs one command over many discs, in parallel, printing one JSON line per disc in
/// input order (NDJSON), with a progress bar on a terminal.
///
/// At most `width` discs are read at once (a bounded task group), and at most a few times that
/// many finished lines wait for a slower disc before them, so memory stays bounded however long
/// the list. A disc that cannot be read is one `{"path":...,"error":{...}}` line; the batch goes
/// on.
package enum BatchRunner {
  /// The default number of discs read at once: the number of online processors.
  package static var defaultWidth: Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  }

  /// The paths a `--batch` argument names: `-` reads one path per line of standard input (blank
  /// lines skipped); anything else is a root searched by ``DiscFinder`` (confined to the root,
  /// the rule `disckit serve` lists with, unless `followLinks`).
  package static func paths(for argument: String, followLinks: Bool = false)
    throws(DiscKitError) -> [String]
  {
    guard argument == "-" else {
      return try DiscFinder.discs(
        under: argument, options: DiscFinder.Options(confined: !followLinks))
    }
    let input = try Output.readStandardInput()
    return input.split(separator: UInt8(ascii: "\n")).compactMap { line in
      var bytes = line[...]
      if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
      guard !bytes.isEmpty else { return nil }
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// The JSON line for one disc: `success` of what `work` returns, or `failure` of the error
  /// (any error that is not a ``DiscKitError`` becomes a `malformed` one naming the path).
  package static func line<Document, Line: Encodable>(
    path: String, work: (String) throws -> Document, success: (Document) -> Line,
    failure: (DiscKitError) -> Line
  ) -> (text: String, failed: Bool) {
    let error: DiscKitError
    do {
      let document = try work(path)
      return (try Output.json(success(document)), false)
    } catch let caught as DiscKitError {
      error = caught
    } catch {
      return failed(path: path, DiscKitError(.malformed, path, at: nil, "\(error)"), failure)
    }
    return failed(path: path, error, failure)
  }

  private static func failed<Line: Encodable>(
    path: String, _ error: DiscKitError, _ failure: (DiscKitError) -> Line
  ) -> (text: String, failed: Bool) {
    let text =
      (try? Output.json(failure(error)))
      ?? "{\"error\":\"cannot encode the error line\",\"path\":\"\"}"
    return (text, true)
  }

  /// Runs `line` on every disc that `root` names (see ``paths(for:followLinks:)``) and prints one line per
  /// disc on standard output, in input order. Blocks until the batch is done.
  ///
  /// - Returns: the number of discs that failed (their lines carry `"error"`).
  /// - Throws: when `root` itself cannot be read.
  package static func run(
    root: String, followLinks: Bool = false, width: Int, label: String,
    line: @escaping @Sendable (String) -> (text: String, failed: Bool)
  ) throws(DiscKitError) -> Int {
    let paths = try paths(for: root, followLinks: followLinks)
    return BlockingTask.run(placeholder: 0) {
      await run(paths: paths, width: width, label: label, line: line) { text in
        Output.line(text)
      }
    }
  }

  /// Runs `line` on every path with at most `width` at once and hands the results to `emit`
  /// in the order of `paths`.
  ///
  /// - Returns: the number of results marked failed.
  package static func run(
    paths: [String], width: Int, label: String,
    line: @escaping @Sendable (String) -> (text: String, failed: Bool),
    emit: (String) -> Void
  ) async -> Int {
    let width = max(1, width)
    let window = 4 * width
    let bar = ProgressBar(total: Int64(paths.count), label: label, unit: .items("discs"))
    var failures = 0
    await withTaskGroup(of: (Int, String, Bool).self) { group in
      var next = 0
      var emitted = 0
      var running = 0
      var done: [Int: (String, Bool)] = [:]
      func submit() {
        while running < width, next < paths.count, next - emitted < window {
          let index = next
          let path = paths[index]
          group.addTask {
            let result = line(path)
            return (index, result.text, result.failed)
          }
          next += 1
          running += 1
        }
      }
      submit()
      while let (index, text, failed) = await group.next() {
        running -= 1
        done[index] = (text, failed)
        while let (text, failed) = done.removeValue(forKey: emitted) {
          emit(text)
          if failed { failures += 1 }
          emitted += 1
          bar.update(Int64(emitted))
        }
        submit()
      }
    }
    bar.finish()
    return failures
  }
}
