import Dispatch
import Foundation
import Testing

/// Runs a suite's tests on threads of their own instead of Swift's cooperative thread pool.
///
/// The tests wait on external tools (`Tool.run`: ffmpeg, ffprobe, lsdvd, GStreamer, Chromium) and
/// on child processes (`disckit`, `disckit-serve`) synchronously. On the cooperative pool, whose
/// width is the number of cores (two on CI), every such wait holds one of its threads: with two
/// of them waiting, the async tests beside them (a live server and its client, which need pool
/// turns for every chunk) starved until their reads timed out. With this trait:
/// - each test case waits for one of ``ToolThreads/slots`` admissions (awaited, not blocked on,
///   so the pool stays free), which bounds how many run at once;
/// - its body then runs with ``ToolThreadExecutor`` as its task executor preference: every job
///   of the test and of its child tasks runs on a thread of an overcommitting dispatch queue,
///   which starts another thread when all of its threads are blocked, so a test that waits on
///   its own child task never deadlocks.
/// Apply it to the outermost suite (`@Suite("…", .toolThreads)`); it is recursive.
public struct ToolThreadsTrait: SuiteTrait, TestTrait, TestScoping {
  public var isRecursive: Bool { true }

  public func scopeProvider(for test: Test, testCase: Test.Case?) -> ToolThreadsTrait? {
    testCase == nil ? nil : self
  }

  public func provideScope(
    for test: Test, testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    await ToolThreads.slots.acquire()
    do {
      try await withTaskExecutorPreference(ToolThreadExecutor.shared) { try await function() }
    } catch {
      await ToolThreads.slots.release()
      throw error
    }
    await ToolThreads.slots.release()
  }
}

extension Trait where Self == ToolThreadsTrait {
  /// The suite's tests run on their own threads (see ``ToolThreadsTrait``).
  public static var toolThreads: ToolThreadsTrait { ToolThreadsTrait() }
}

/// The admissions shared by every ``ToolThreadsTrait`` test.
public enum ToolThreads {
  /// Twice as many test cases at once as the machine has cores (`DISCKIT_TEST_SLOTS` overrides):
  /// the cooperative pool bounded the blocked ones to its width before, while the async ones
  /// waiting on a server or a client were not counted; most of a test case's time is spent
  /// waiting on a child process.
  public static let slots = AsyncSlots(
    Int(ProcessInfo.processInfo.environment["DISCKIT_TEST_SLOTS"] ?? "").flatMap {
      $0 > 0 ? $0 : nil
    } ?? 2 * max(1, ProcessInfo.processInfo.activeProcessorCount))
}

/// A counting semaphore that suspends its waiters (first come, first served) instead of blocking.
public actor AsyncSlots {
  private var free: Int
  private var waiters: [CheckedContinuation<Void, Never>] = []

  public init(_ count: Int) { free = count }

  public func acquire() async {
    if free > 0 {
      free -= 1
      return
    }
    await withCheckedContinuation { waiters.append($0) }
  }

  public func release() {
    if waiters.isEmpty {
      free += 1
    } else {
      waiters.removeFirst().resume()  // the slot passes straight to the next waiter
    }
  }
}

/// A task executor whose jobs each get a thread of their own: an idle thread of the executor if
/// there is one, else a new one (idle threads end after a few seconds). libdispatch on Linux adds
/// a worker thread about once a second when its workers block, so a dispatch queue would still
/// hold a ready job back for a second behind blocked ones.
public final class ToolThreadExecutor: TaskExecutor, @unchecked Sendable {
  public static let shared = ToolThreadExecutor()

  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var idle = 0  // threads waiting for a job
  private var wakeups = 0  // jobs promised to waiting threads

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    let reuse = idle > wakeups
    if reuse {
      wakeups += 1
      condition.signal()
    }
    condition.unlock()
    if !reuse {
      let thread = Thread { [self] in work() }
      thread.stackSize = 8 << 20  // the main thread's default: deep parsers recurse in tests
      thread.start()
    }
  }

  /// Runs the job it was started for (or was woken for), then waits for the next one.
  private func work() {
    let executor = asUnownedTaskExecutor()
    condition.lock()
    while true {
      guard !jobs.isEmpty else {  // a reused thread took this thread's job first: wait
        condition.unlock()
        return
      }
      let job = jobs.removeFirst()
      condition.unlock()
      job.runSynchronously(on: executor)
      condition.lock()
      idle += 1
      while wakeups == 0 {
        if !condition.wait(until: Date(timeIntervalSinceNow: 5)) && wakeups == 0 {
          idle -= 1
          condition.unlock()
          return
        }
      }
      wakeups -= 1
      idle -= 1
    }
  }
}
