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
      case .titles(let request): try request.run(exitAfterOutput: true)
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

  /// `titles`' long options, as `TitlesCommand` declares them to ArgumentParser (the tests compare
  /// this table with ArgumentParser's own description of the command).
  package static let titlesOptions: [FastOption<TitlesRequest>] = [
    .flag("--all") { $0.all = true },
    .value("--select") { request, value in
      TitleSelection(rawValue: value).map { request.select = $0 } != nil
    },
    .value("--min-length") { request, value in
      Double(value).map { request.minLength = $0 } != nil
    },
    .flag("--json") { $0.json = true },
    .value("--batch") { request, value in
      request.batch = value
      return true
    },
    .value("--jobs") { request, value in Int(value).map { request.jobs = $0 } != nil },
    .flag("--follow-links") { $0.followLinks = true },
  ]

  /// `info`'s long options, as `InfoCommand` declares them.
  package static let infoOptions: [FastOption<InfoRequest>] = [
    .flag("--json") { $0.json = true }
  ]

  /// `scan`'s long options, as `ScanCommand` declares them.
  package static let scanOptions: [FastOption<ScanRequest>] = [
    .flag("--json") { $0.json = true },
    .value("--batch") { request, value in
      request.batch = value
      return true
    },
    .value("--jobs") { request, value in Int(value).map { request.jobs = $0 } != nil },
    .flag("--follow-links") { $0.followLinks = true },
    .value("--offset") { request, value in
      request.offset = value
      return true
    },
    .value("--bytes") { request, value in
      request.bytes = value
      return true
    },
    .value("--payload-bound") { request, value in
      Int(value).map { request.payloadBound = $0 } != nil
    },
    .value("--title") { request, value in Int(value).map { request.title = $0 } != nil },
    .value("--playlist") { request, value in
      request.playlist = value
      return true
    },
    .value("--at") { request, value in Double(value).map { request.at = $0 } != nil },
    .value("--timeline") { request, value in
      TitleTimeline(rawValue: value).map { request.timeline = $0 } != nil
    },
  ]

  private static func titles(_ words: inout Words) -> TitlesRequest? {
    guard
      let request = read(
        &words, into: TitlesRequest(), options: titlesOptions,
        positional: { request, value in
          guard request.image == nil else { return false }
          request.image = value
          return true
        })
    else { return nil }
    return request.validationFailure == nil ? request : nil
  }

  private static func info(_ words: inout Words) -> InfoRequest? {
    var image: String?
    guard
      var request = read(
        &words, into: InfoRequest(image: ""), options: infoOptions,
        positional: { _, value in
          guard image == nil else { return false }
          image = value
          return true
        }),
      let image
    else { return nil }
    request.image = image
    return request
  }

  private static func scan(_ words: inout Words) -> ScanRequest? {
    guard
      let request = read(
        &words, into: ScanRequest(), options: scanOptions,
        positional: { request, value in
          guard request.source == nil else { return false }
          request.source = value
          return true
        })
    else { return nil }
    return request.validationFailure == nil ? request : nil
  }

  /// Reads `words` into `request` through `options`: each option at most once, a flag without an
  /// attached value, a value option with a value its closure accepts; nil for anything else.
  private static func read<Request>(
    _ words: inout Words, into request: Request, options: [FastOption<Request>],
    positional: (inout Request, String) -> Bool
  ) -> Request? {
    var request = request
    while let word = words.next() {
      switch word {
      case .positional(let value):
        guard positional(&request, value) else { return nil }
      case .option(let name, let inline):
        guard let index = options.firstIndex(where: { $0.name == name }),
          words.once(UInt32(index))
        else { return nil }
        let option = options[index]
        if option.takesValue {
          guard let value = words.value(inline), option.apply(&request, value) else { return nil }
        } else {
          guard inline == nil, option.apply(&request, "") else { return nil }
        }
      }
    }
    return request
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

/// One long option of a fast-path command: its name, whether it takes a value, and how it sets
/// the request (false for a value ArgumentParser would reject: the command line then goes to
/// ArgumentParser, which reports it).
package struct FastOption<Request>: Sendable {
  /// `--name`.
  package let name: String
  /// Whether the option takes a value (an ArgumentParser `@Option`) or not (a `@Flag`).
  package let takesValue: Bool
  /// Sets the option's value (the empty string for a flag).
  let apply: @Sendable (inout Request, String) -> Bool

  /// A flag.
  static func flag(_ name: String, _ set: @escaping @Sendable (inout Request) -> Void) -> Self {
    FastOption(
      name: name, takesValue: false,
      apply: { request, _ in
        set(&request)
        return true
      })
  }

  /// An option with a value.
  static func value(
    _ name: String, _ apply: @escaping @Sendable (inout Request, String) -> Bool
  ) -> Self {
    FastOption(name: name, takesValue: true, apply: apply)
  }
}
