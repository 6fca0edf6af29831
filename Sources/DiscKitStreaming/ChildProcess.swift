#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A helper program run to its end with `posix_spawn`: its standard output and error read
/// whole, its standard input a pipe held open until it has exited (a helper watching its stdin
/// ends with the server). What Foundation's `Process` and `Pipe` did for the subtitle helper,
/// without linking Foundation (whose static initialisers and CoreFoundation cost the server
/// resident pages at every start).
struct ChildProcess {
  /// What the program wrote, and its exit status (128 + the signal when a signal ended it).
  struct Outcome {
    var output: [UInt8]
    var errors: [UInt8]
    var status: Int32
  }

  /// Runs `executable` with `arguments`; throws the `errno` of what failed before it ran.
  static func run(_ executable: String, _ arguments: [String]) throws(ChildProcessError) -> Outcome
  {
    var input: [Int32] = [-1, -1]
    var output: [Int32] = [-1, -1]
    var errors: [Int32] = [-1, -1]
    defer { for fd in input + output + errors where fd >= 0 { close(fd) } }
    guard pipe(&input) == 0, pipe(&output) == 0, pipe(&errors) == 0 else {
      throw ChildProcessError(errno: errno)
    }
    // Close-on-exec: another helper started later inherits none of these ends.
    for fd in input + output + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t? = nil
    #else
      var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 onto 0, 1, 2 clears close-on-exec on the child's copies.
    posix_spawn_file_actions_adddup2(&actions, input[0], 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
    // The child starts with no signal blocked and every signal's default action, whatever the
    // server's threads block or ignore (as Foundation's Process did).
    #if canImport(Darwin)
      var attributes: posix_spawnattr_t? = nil
    #else
      var attributes = posix_spawnattr_t()
    #endif
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }
    var pid: pid_t = 0
    // ETXTBSY: the program file is open for writing somewhere. A program written just before
    // (an upgrade, a test's stand-in) can be held open for a moment by a child another thread
    // started meanwhile, until that child's exec closes its inherited descriptor: try again
    // for up to half a second before giving up.
    var spawned = posix_spawn(&pid, executable, &actions, &attributes, &argv, environ)
    var tries = 1
    while spawned == ETXTBSY && tries < 50 {
      var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
      _ = nanosleep(&pause, nil)
      spawned = posix_spawn(&pid, executable, &actions, &attributes, &argv, environ)
      tries += 1
    }
    guard spawned == 0 else { throw ChildProcessError(errno: spawned) }
    // The parent's copies of the child's ends, so that end of file is seen when it exits.
    for fd in [input[0], output[1], errors[1]] { close(fd) }
    input[0] = -1
    output[1] = -1
    errors[1] = -1
    var outcome = Outcome(output: [], errors: [], status: 0)
    drain(output[0], &outcome.output, errors[0], &outcome.errors)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (macros).
    let signal = status & 0x7F
    outcome.status = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    return outcome
  }

  /// Reads both descriptors to their ends (poll: neither pipe fills while the other is read).
  private static func drain(
    _ first: Int32, _ firstBytes: inout [UInt8], _ second: Int32, _ secondBytes: inout [UInt8]
  ) {
    var open = [first, second]
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while !open.isEmpty {
      var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      let ready = poll(&fds, nfds_t(fds.count), -1)
      if ready < 0 {
        if errno == EINTR { continue }
        return
      }
      for entry in fds where entry.revents != 0 {
        let count = chunk.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
        if count > 0 {
          if entry.fd == first {
            firstBytes += chunk[0..<count]
          } else {
            secondBytes += chunk[0..<count]
          }
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
          open.removeAll { $0 == entry.fd }
        }
      }
    }
  }
}

/// Why a helper program could not be started: the C library's `errno`.
struct ChildProcessError: Error, CustomStringConvertible {
  var errno: Int32
  var description: String { String(cString: strerror(errno)) }
}
