import DiscKit
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// At most ``limit`` requests that transcode audio (an AAC or FLAC segment or media playlist of
/// the fMP4 HLS) at once; the others wait, suspended (no thread held), in order of arrival, and
/// go on as soon as one ends (issue 28: each transcode holds a decoder's and an encoder's state,
/// 3 MiB for a 7.1 FLAC encode, so 64 clients at once peaked at 229 MiB; encoding is CPU-bound,
/// so a few per core keep the throughput).
///
/// A request holds its ``Ticket`` from before its segment is planned until its body has been
/// sent (``AdmittedByteSource`` keeps it with the segment's bytes): a FLAC segment is encoded as
/// it is sent. The wait is in the request's task, never on the thread pool that reads the
/// segments, so the requests holding tickets always get the threads they need to finish.
public final class TranscodeAdmission: Sendable {
  /// The most transcoding requests at once.
  public let limit: Int
  private let state = Mutex<State>(State())

  struct State {
    var active = 0
    var peak = 0
    var admitted = 0
    var waiting: [CheckedContinuation<Void, Never>] = []
  }

  /// Creates an admission of `limit` requests at once (at least 1).
  public init(limit: Int) { self.limit = max(1, limit) }

  /// The default limit: two requests per processor (encoding is CPU-bound; two keep a core busy
  /// while the other's bytes are sent).
  public static var defaultLimit: Int {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    #else
      let cores = 1
    #endif
    return 2 * max(1, cores)
  }

  /// A held admission; released on deinit.
  public final class Ticket: Sendable {
    private let admission: TranscodeAdmission
    fileprivate init(_ admission: TranscodeAdmission) { self.admission = admission }
    deinit { admission.release() }
  }

  /// Waits (suspended) until fewer than ``limit`` requests transcode, then admits this one.
  public func enter() async -> Ticket {
    let admitted = state.withLock { s -> Bool in
      guard s.active < limit, s.waiting.isEmpty else { return false }
      s.active += 1
      s.admitted += 1
      s.peak = max(s.peak, s.active)
      return true
    }
    if !admitted {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        // A slot freed between the check above and now is taken here; else the release that
        // frees one resumes this waiter (with its slot already counted).
        let now = state.withLock { s -> Bool in
          if s.active < limit, s.waiting.isEmpty {
            s.active += 1
            s.admitted += 1
            s.peak = max(s.peak, s.active)
            return true
          }
          s.waiting.append(continuation)
          return false
        }
        if now { continuation.resume() }
      }
    }
    return Ticket(self)
  }

  private func release() {
    let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
      if s.waiting.isEmpty {
        s.active -= 1
        return nil
      }
      // The slot passes to the first waiter.
      s.admitted += 1
      return s.waiting.removeFirst()
    }
    next?.resume()
  }

  /// Requests transcoding now.
  public var active: Int { state.withLock { $0.active } }
  /// Requests waiting for admission now.
  public var waiting: Int { state.withLock { $0.waiting.count } }
  /// The most requests that transcoded at once since launch.
  public var peak: Int { state.withLock { $0.peak } }
  /// Requests admitted since launch.
  public var admitted: Int { state.withLock { $0.admitted } }
}

/// A segment's bytes with the ``TranscodeAdmission/Ticket`` of the request that sends them: the
/// ticket is released when the body no longer holds the source (sent, or the connection gone),
/// after the segment's reader (and the transcoder's session in it) is.
public final class AdmittedByteSource: ByteSource, Sendable {
  private let base: Mutex<(any ByteSource)?>
  private let ticket: TranscodeAdmission.Ticket
  public let size: Int64

  public init(_ base: any ByteSource, ticket: TranscodeAdmission.Ticket) {
    self.base = Mutex(base)
    self.size = base.size
    self.ticket = ticket
  }

  // The source (its reader, the session's encoder) goes first, then the ticket with the other
  // stored properties: the request admitted next never overlaps this one's encoder.
  deinit { base.withLock { $0 = nil } }

  public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer)
    throws(DiscKitError) -> Int
  {
    guard let source = base.withLock({ $0 }) else { return 0 }
    return try source.read(at: offset, into: buffer)
  }
}
