import ArgumentParser
import DiscKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fast path for the commands people run over whole libraries (`titles`, `info`, `scan`,
/// `--version`): a plain reading of their command lines that skips ArgumentParser, whose
/// reflection (Mirror, dynamic casts, generic metadata) costs more than the work itself at
/// startup (issue 11).
///
/// It accepts only command lines it understands completely and that ArgumentParser would accept:
/// each known option at most once (`--name value` or `--name=value`), at most the one positional
/// argument, values parsed with the same initializers as ArgumentParser's, and the same
/// validation. Anything else (help, unknown or repeated options, values that start with a dash,
/// usage errors, other commands) returns nil and goes through ArgumentParser, which then reports it
/// as before. The differential tests run both parsers over many command lines and require the same
/// output, error text and exit status.
package enum FastCommandLine {
  /// A command line the fast path understood.
  package enum Command: Equatable, Sendable {
    case version
    case titles(TitlesRequest)
    case info(InfoRequest)
    case scan(ScanRequest)
  }

  /// Set to any value, this environment variable sends every command line through
  /// ArgumentParser (the differential tests compare both paths with it).
  package static let disablingVariable = "DISCKIT_FULL_PARSER"

  /// Runs the command line through the fast path and exits, when the fast path understands it;
  /// returns otherwise (the caller then runs ArgumentParser).
  package static func runIfUnderstood(_ commandLine: [String] = CommandLine.arguments) {
    guard getenv(disablingVariable) == nil,
      let command = parse(commandLine.dropFirst())
    else { return }
    do {
      switch command {
      case .version: Output.line(DiscKitVersion.string)
      case .titles(let request): try request.run()
      case .info(let request): try request.run()
      case .scan(let request): try request.run()
      }
    } catch let error as ExitCode {
      // What ArgumentParser's `exit(withError:)` does with an ExitCode: no message.
      exit(error.rawValue)
    } catch {
      DiscKitCommand.exit(withError: error)
    }
    exit(0)
  }

  /// The command `arguments` (without the program name) ask for, or nil when the fast path does
  /// not handle them.
  package static func parse(_ arguments: ArraySlice<String>) -> Command? {
    guard let name = arguments.first else { return nil }
    var words = Words(arguments.dropFirst())
    switch name {
    case "--version":
      return arguments.count == 1 ? .version : nil
    case "titles":
      return titles(&words).map { .titles($0) }
    case "info":
      return info(&words).map { .info($0) }
    case "scan":
      return scan(&words).map { .scan($0) }
    default:
      return nil
    }
  }

  private static func titles(_ words: inout Words) -> TitlesRequest? {
    var request = TitlesRequest()
    while let word = words.next() {
      switch word {
      case .positional(let value):
        guard request.image == nil else { return nil }
        request.image = value
      case .option("--all", nil):
        guard words.once(0), !request.all else { return nil }
        request.all = true
      case .option("--json", nil):
        guard words.once(1) else { return nil }
        request.json = true
      case .option("--select", let inline):
        guard words.once(2), let value = words.value(inline),
          let selection = TitleSelection(rawValue: value)
        else { return nil }
        request.select = selection
      case .option("--min-length", let inline):
        guard words.once(3), let value = words.value(inline), let seconds = Double(value) else {
          return nil
        }
        request.minLength = seconds
      case .option("--batch", let inline):
        guard words.once(4), let value = words.value(inline) else { return nil }
        request.batch = value
      case .option("--jobs", let inline):
        guard words.once(5), let value = words.value(inline), let jobs = Int(value) else {
          return nil
        }
        request.jobs = jobs
      default:
        return nil
      }
    }
    return request.validationFailure == nil ? request : nil
  }

  private static func info(_ words: inout Words) -> InfoRequest? {
    var image: String?
    var json = false
    while let word = words.next() {
      switch word {
      case .positional(let value):
        guard image == nil else { return nil }
        image = value
      case .option("--json", nil):
        guard words.once(0) else { return nil }
        json = true
      default:
        return nil
      }
    }
    guard let image else { return nil }
    var request = InfoRequest(image: image)
    request.json = json
    return request
  }

  private static func scan(_ words: inout Words) -> ScanRequest? {
    var request = ScanRequest()
    while let word = words.next() {
      switch word {
      case .positional(let value):
        guard request.source == nil else { return nil }
        request.source = value
      case .option("--json", nil):
        guard words.once(0) else { return nil }
        request.json = true
      case .option("--batch", let inline):
        guard words.once(1), let value = words.value(inline) else { return nil }
        request.batch = value
      case .option("--jobs", let inline):
        guard words.once(2), let value = words.value(inline), let jobs = Int(value) else {
          return nil
        }
        request.jobs = jobs
      case .option("--offset", let inline):
        guard words.once(3), let value = words.value(inline) else { return nil }
        request.offset = value
      case .option("--bytes", let inline):
        guard words.once(4), let value = words.value(inline) else { return nil }
        request.bytes = value
      case .option("--payload-bound", let inline):
        guard words.once(5), let value = words.value(inline), let bound = Int(value) else {
          return nil
        }
        request.payloadBound = bound
      case .option("--title", let inline):
        guard words.once(6), let value = words.value(inline), let title = Int(value) else {
          return nil
        }
        request.title = title
      case .option("--playlist", let inline):
        guard words.once(7), let value = words.value(inline) else { return nil }
        request.playlist = value
      case .option("--at", let inline):
        guard words.once(8), let value = words.value(inline), let at = Double(value) else {
          return nil
        }
        request.at = at
      case .option("--timeline", let inline):
        guard words.once(9), let value = words.value(inline),
          let timeline = TitleTimeline(rawValue: value)
        else { return nil }
        request.timeline = timeline
      default:
        return nil
      }
    }
    return request.validationFailure == nil ? request : nil
  }

  /// The arguments of a subcommand, read one at a time.
  private struct Words {
    /// One argument: a value, or a long option with the value attached by `=`, if any.
    enum Word {
      case positional(String)
      case option(Substring, Substring?)
    }

    private var rest: ArraySlice<String>
    private var seen: UInt32 = 0

    init(_ arguments: ArraySlice<String>) {
      rest = arguments
    }

    /// The next argument; `.option("", nil)` for anything the fast path leaves to ArgumentParser
    /// (short options, `-`, `--`, the `help` word).
    mutating func next() -> Word? {
      guard let argument = rest.popFirst() else { return nil }
      let bytes = argument.utf8
      guard bytes.first == UInt8(ascii: "-") else {
        return argument == "help" ? .option("", nil) : .positional(argument)
      }
      guard argument.hasPrefix("--"), bytes.count > 2 else { return .option("", nil) }
      if let equals = argument.firstIndex(of: "=") {
        return .option(
          argument[..<equals], argument[argument.index(after: equals)...])
      }
      return .option(argument[...], nil)
    }

    /// Marks option number `bit` as given; false when it was given before.
    mutating func once(_ bit: UInt32) -> Bool {
      let mask: UInt32 = 1 << bit
      guard seen & mask == 0 else { return false }
      seen |= mask
      return true
    }

    /// The option's value: the attached one, else the next argument unless it starts with a dash.
    /// An empty attached value (`--name=`) is ArgumentParser's "missing value" error: nil.
    mutating func value(_ inline: Substring?) -> String? {
      if let inline { return inline.isEmpty ? nil : String(inline) }
      guard let next = rest.first, next.utf8.first != UInt8(ascii: "-") else { return nil }
      rest.removeFirst()
      return next
    }
  }
}
