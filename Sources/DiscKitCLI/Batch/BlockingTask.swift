#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs async work from a synchronous command and waits for it.
///
/// `disckit` has a synchronous `main` so that a command that needs no concurrency (all of them
/// but `--batch`) never starts the concurrency runtime's threads; `--batch` starts them here.
enum BlockingTask {
  private final class Box<T: Sendable>: @unchecked Sendable {
    var value: T
    var done = false
    var mutex = pthread_mutex_t()
    var condition = pthread_cond_t()
    init(_ initial: T) {
      value = initial
      pthread_mutex_init(&mutex, nil)
      pthread_cond_init(&condition, nil)
    }
    deinit {
      pthread_cond_destroy(&condition)
      pthread_mutex_destroy(&mutex)
    }
    func set(_ result: T) {
      pthread_mutex_lock(&mutex)
      value = result
      done = true
      pthread_cond_signal(&condition)
      pthread_mutex_unlock(&mutex)
    }
    func wait() -> T {
      pthread_mutex_lock(&mutex)
      while !done { pthread_cond_wait(&condition, &mutex) }
      let result = value
      pthread_mutex_unlock(&mutex)
      return result
    }
  }

  /// Runs `body` as a detached task and blocks the calling thread until it returns its value
  /// (`placeholder` is only the box's content before that).
  static func run<T: Sendable>(placeholder: T, _ body: @escaping @Sendable () async -> T) -> T {
    let box = Box<T>(placeholder)
    Task.detached { box.set(await body()) }
    return box.wait()
  }
}
