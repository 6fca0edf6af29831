import NIOPosix

/// A task executor over a `NIOThreadPool`: the tasks that prefer it (the reads of
/// ``DiscKitStreaming/ByteChunks``) run their blocking disc reads on the pool's threads, never on
/// an event loop or the cooperative pool.
final class ThreadPoolTaskExecutor: TaskExecutor {
  let pool: NIOThreadPool

  init(_ pool: NIOThreadPool) { self.pool = pool }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    // A stopped pool still runs the job (its state is ignored): a task never waits forever.
    pool.submit { _ in job.runSynchronously(on: executor) }
  }
}
