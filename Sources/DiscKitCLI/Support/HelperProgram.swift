#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Commands whose work needs a heavy dependency (a C library such as libavformat or libbluray, or
/// an HTTP server stack) run in a separate helper program, so that `disckit` itself links none of
/// it and starts like a C tool. `disckit NAME ...` replaces itself with the helper (`execv`),
/// passing every argument through unchanged; the helper is looked up beside the running `disckit`
/// first, then on `PATH`.
///
/// A missing helper is one line on stderr and exit 69 (`EX_UNAVAILABLE`).
public enum HelperProgram {
  /// The exit status used when a helper program is not installed (`EX_UNAVAILABLE`).
  public static let unavailableExitCode: Int32 = 69

  /// The delegated subcommands and their helper programs. A subcommand listed here never reaches
  /// the argument parser of `disckit`. (An array, not a dictionary: every `disckit` run looks it
  /// up, and a `[String: String]` costs a run-time conformance lookup at startup.)
  static let delegated: [(subcommand: String, program: String)] = [
    ("crosscheck", "disckit-crosscheck"),
    ("serve", "disckit-serve"),
  ]

  /// The helper program that runs each delegated subcommand, by subcommand name.
  public static var programs: [String: String] {
    Dictionary(uniqueKeysWithValues: delegated.map { ($0.subcommand, $0.program) })
  }

  /// The helper to run for a whole command line (`arguments[0]` is the program), if its first
  /// argument names a delegated subcommand.
  public static func program(forCommandLine arguments: [String]) -> String? {
    guard arguments.count >= 2 else { return nil }
    return delegated.first { $0.subcommand == arguments[1] }?.program
  }

  /// The directory holding the running executable (Linux: `/proc/self/exe`; elsewhere the
  /// directory of `argv[0]` when it is a path).
  public static func executableDirectory() -> String? {
    #if os(Linux)
      var buffer = [CChar](repeating: 0, count: 4097)
      let count = readlink("/proc/self/exe", &buffer, 4096)
      if count > 0 {
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return directory(of: path)
      }
    #endif
    guard let first = CommandLine.arguments.first, first.contains("/") else { return nil }
    return directory(of: first)
  }

  /// Where `program` would be run from: beside the running executable, else the first match on
  /// `PATH`; `nil` when it is in neither.
  public static func locate(
    _ program: String, besides directory: String? = executableDirectory(),
    path: String? = getenv("PATH").map { String(cString: $0) }
  ) -> String? {
    var candidates: [String] = []
    if let directory { candidates.append(directory + "/" + program) }
    for entry in (path ?? "").split(separator: ":") where !entry.isEmpty {
      candidates.append(String(entry) + "/" + program)
    }
    return candidates.first { access($0, X_OK) == 0 }
  }

  /// Replaces the current process with `program`, run with `arguments` (not including
  /// `argv[0]`). Returns only when the helper is missing or cannot be executed, after printing
  /// one line on stderr; the caller then exits with ``unavailableExitCode``.
  public static func exec(_ program: String, arguments: [String], purpose: String) {
    guard let path = locate(program) else {
      let place = executableDirectory().map { " beside disckit (\($0))" } ?? ""
      printError(
        "disckit: \(purpose) needs the helper program \(program), which is not installed\(place) "
          + "or on PATH (build it with `swift build --product \(program)`)")
      return
    }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    execv(path, argv)
    printError("disckit: cannot run \(path): \(String(cString: strerror(errno)))")
  }

  /// Delegates the whole command line when its subcommand is a helper's; returns otherwise.
  /// Exits the process with ``unavailableExitCode`` when the helper is missing.
  public static func dispatchIfDelegated(_ commandLine: [String] = CommandLine.arguments) {
    guard let program = program(forCommandLine: commandLine) else { return }
    exec(program, arguments: Array(commandLine.dropFirst(2)), purpose: "`disckit \(commandLine[1])`")
    exit(unavailableExitCode)
  }

  private static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  private static func printError(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
  }
}
