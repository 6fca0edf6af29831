import DiscKit
import DiscKitOutput
import DiscKitTestSupport
import Foundation
import Testing

#if os(Linux)
  import Glibc

  /// The handler an embedding program installed (it does nothing: the test only compares it).
  private func embedderSignalHandler(_ signal: Int32) {}

  /// The library installs no signal handler by itself: signals are the program's policy (the
  /// `disckit` executables opt in; their killed-process tests are `CrashSafeOutputTests`).
  @Suite("Signal policy")
  struct SignalPolicyTests {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    static func handlerAddress(_ signal: Int32) -> Int {
      var current = sigaction()
      _ = sigaction(signal, nil, &current)
      return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
    }

    @Test("an embedder's SIGINT/SIGTERM/SIGHUP handlers stay its own while the atomic writer works")
    func embedderKeepsItsHandlers() throws {
      let handler: @convention(c) (Int32) -> Void = embedderSignalHandler
      var previous: [sigaction] = Array(repeating: sigaction(), count: Self.signals.count)
      for (index, signal) in Self.signals.enumerated() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        #expect(sigaction(signal, &action, &previous[index]) == 0)
      }
      defer {
        for (index, signal) in Self.signals.enumerated() {
          _ = sigaction(signal, &previous[index], nil)
        }
      }
      let dir = try TemporaryDirectory()
      // The named strategy is the one that registers its file for signal cleanup.
      let writer = try AtomicFileWriter(
        destination: dir.file("out.bin"), overwrite: false, strategy: .namedTemporaryFile)
      let temporary = try #require(writer.temporaryPath)
      #expect(TemporaryFileCleanup.pending.contains(temporary))
      try writer.write([UInt8](repeating: 3, count: 4096))
      for signal in Self.signals {
        #expect(Self.handlerAddress(signal) == unsafeBitCast(handler, to: Int.self))
      }
      try writer.commit()
      for signal in Self.signals {
        #expect(Self.handlerAddress(signal) == unsafeBitCast(handler, to: Int.self))
      }
      #expect(!TemporaryFileCleanup.signalHandlersInstalled)
    }
  }
#endif
