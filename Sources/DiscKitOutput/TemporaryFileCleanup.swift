import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Removes DiscKit's named temporary output files when the process is interrupted, for the
/// programs that ask for it.
///
/// ``AtomicFileWriter`` registers a named temporary file (used where `O_TMPFILE` is not
/// available) here. The library never installs a signal handler by itself: signals are the
/// process's policy, and an embedding server keeps its own. A program opts in with
/// ``enableSignalHandlers()`` (the `disckit` executables do, first thing in `main`); from the
/// first registration on (at once, if files are already registered) handlers for `SIGINT`,
/// `SIGTERM` and `SIGHUP` (a signal the program ignores stays ignored) unlink every registered
/// file with async-signal-safe calls only, then restore the previous disposition and raise the
/// signal again, so the process ends as it would have.
package enum TemporaryFileCleanup {
  /// How many temporary files can be pending at once (more are still removed on normal failure
  /// paths, just not by the signal handler).
  package static let capacity = 64

  /// Paths as C strings, readable from a signal handler without locks.
  nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> =
    {
      let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
      slots.initialize(repeating: nil, count: capacity)
      return slots
    }()

  /// Whether the program opted in, and whether the handlers are installed.
  private struct State {
    var enabled = false
    var installed = false
  }

  private static let lock = Mutex(State())

  /// The dispositions replaced by ours, restored before a signal is raised again.
  nonisolated(unsafe) private static let previousTable: UnsafeMutablePointer<sigaction> = {
    let table = UnsafeMutablePointer<sigaction>.allocate(capacity: 3)
    table.initialize(repeating: sigaction(), count: 3)
    return table
  }()

  private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// Opts this process in to the signal handlers. Installs nothing yet: the handlers are
  /// installed by the first registration (at once when a file is already registered), so a
  /// program that never writes a named temporary file spends no system call on them.
  package static func enableSignalHandlers() {
    lock.withLock { state in
      state.enabled = true
      if (0..<capacity).contains(where: { slots[$0] != nil }) { installIfEnabled(&state) }
    }
  }

  /// Whether the signal handlers are installed in this process (for tests and diagnostics).
  package static var signalHandlersInstalled: Bool { lock.withLock { $0.installed } }

  /// Adds a path to remove if the process is interrupted.
  package static func register(_ path: String) {
    lock.withLock { state in
      installIfEnabled(&state)
      for i in 0..<capacity where slots[i] == nil {
        slots[i] = strdup(path)
        return
      }
    }
  }

  private static func installIfEnabled(_ state: inout State) {
    guard state.enabled, !state.installed else { return }
    state.installed = true
    // Initialise everything the handler touches before it can run (no lazy set-up, which
    // would allocate, inside a signal handler).
    _ = slots
    _ = previousTable
    _ = signals
    installHandlers()
  }

  /// Forgets a path (committed or already removed).
  package static func unregister(_ path: String) {
    lock.withLock { _ in
      for i in 0..<capacity {
        guard let slot = slots[i], String(cString: slot) == path else { continue }
        slots[i] = nil
        free(slot)
      }
    }
  }

  /// The paths registered now (for tests and diagnostics).
  package static var pending: [String] {
    lock.withLock { _ in
      (0..<capacity).compactMap { i in slots[i].map { String(cString: $0) } }
    }
  }

  private static func installHandlers() {
    for (index, signal) in signals.enumerated() {
      var old = sigaction()
      guard sigaction(signal, nil, &old) == 0 else { continue }
      #if os(Linux)
        let ignored = unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == 1
      #else
        let ignored = unsafeBitCast(old.__sigaction_u.__sa_handler, to: Int.self) == 1
      #endif
      if ignored { continue }  // SIG_IGN (e.g. under nohup): leave it so
      previousTable[index] = old
      var action = sigaction()
      #if os(Linux)
        action.__sigaction_handler.sa_handler = temporaryFileSignalHandler
      #else
        action.__sigaction_u.__sa_handler = temporaryFileSignalHandler
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      _ = sigaction(signal, &action, nil)
    }
  }

  /// Runs in the signal handler: unlink, restore, re-raise.
  fileprivate static func handle(_ signal: Int32) {
    for i in 0..<capacity {
      if let slot = slots[i] { _ = unlink(slot) }
    }
    for (index, s) in signals.enumerated() where s == signal {
      _ = sigaction(signal, previousTable + index, nil)
    }
    _ = raise(signal)
  }
}

private func temporaryFileSignalHandler(_ signal: Int32) {
  TemporaryFileCleanup.handle(signal)
}
