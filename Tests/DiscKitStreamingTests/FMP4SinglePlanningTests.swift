import DiscKit
import DiscKitTestSupport
import Foundation
import Synchronization
import Testing

@testable import DiscKitStreaming

/// Concurrent cold requests for one segment (or one title) share one planning
/// (``SingleFlightCache``): counted by the cache's makings, with each making held until every
/// other caller has either joined it (waits) or started a making of its own, so that the callers
/// do overlap whatever the scheduling (no timing involved).
@Suite("fMP4 planning: once per segment for concurrent requests", .toolThreads)
struct FMP4SinglePlanningTests {
  static func have(_ folder: String) -> Bool {
    FileManager.default.fileExists(atPath: Fixtures.generated(folder) + "/BDMV")
  }

  /// Runs `body` on `n` threads at once and returns their results.
  static func onThreads<T: Sendable>(_ n: Int, _ body: @escaping @Sendable (Int) -> T) -> [T?] {
    let results = Mutex([T?](repeating: nil, count: n))
    let group = DispatchGroup()
    for k in 0..<n {
      group.enter()
      let thread = Thread {
        let value = body(k)
        results.withLock { $0[k] = value }
        group.leave()
      }
      thread.start()
    }
    group.wait()
    return results.withLock { $0 }
  }

  /// Holds each making of `cache` until the makings under way and the callers waiting add up
  /// to `n`.
  static func hold<K: Hashable & Sendable, V: Sendable>(_ cache: SingleFlightCache<K, V>, _ n: Int)
  {
    let making = Mutex([K: Int]())
    cache.beforeMaking { key in
      making.withLock { $0[key, default: 0] += 1 }
      while making.withLock({ $0[key] ?? 0 }) + cache.waiting(for: key) < n { usleep(200) }
    }
  }

  @Test func concurrentCallersShareOneMaking() throws {
    let cache = SingleFlightCache<Int, [Int]>(capacity: 2)
    let n = 8
    Self.hold(cache, n)
    let values = Self.onThreads(n) { k in
      try? cache.value(7) { () throws(StreamingError) -> [Int] in [k, 7] }
    }
    #expect(cache.made == 1)
    // Every caller got the one value made.
    let made = try #require(values.first ?? nil)
    #expect(values.allSatisfy { ($0 ?? nil) == made })
    // Cached now: no making.
    #expect(try cache.value(7) { () throws(StreamingError) -> [Int] in [] } == made)
    #expect(cache.made == 1)
    // A failure reaches every waiter and is not kept.
    Self.hold(cache, n)
    let failures = Self.onThreads(n) { _ -> Bool in
      do {
        _ = try cache.value(8) { () throws(StreamingError) -> [Int] in
          throw .badRequest("no")
        }
        return false
      } catch {
        return true
      }
    }
    #expect(failures.allSatisfy { $0 == true })
    #expect(cache.made == 2)
    cache.beforeMaking(nil)
    #expect(try cache.value(8) { () throws(StreamingError) -> [Int] in [8] } == [8])
    #expect(cache.made == 3)
    // Bounded: three keys in a cache of two.
    _ = try cache.value(9) { () throws(StreamingError) -> [Int] in [9] }
    #expect(cache.cached(7) == nil && cache.cached(8) != nil && cache.cached(9) != nil)
  }

  /// A title's segments: eight requests at once for the same video segment (and for the same
  /// audio segment) are planned once, and every request gets the bytes a separate planning of
  /// that segment gives.
  @Test(.enabled(if: Self.have("codecs/audio-long"), "needs make-codecs.sh output"))
  func concurrentSegmentRequestsArePlannedOnce() throws {
    let path = Fixtures.generated("codecs/audio-long")
    let title = try FMP4Title(title: try Disc.open(path: path).title(key: "00000"))
    let fresh = try FMP4Title(title: try Disc.open(path: path).title(key: "00000"))
    let n = 8
    Self.hold(title.plans, n)
    var renditions = [FMP4Title.Rendition.video]
    if let audio = title.audio.first { renditions.append(.audio(pid: audio.pid)) }
    for (k, rendition) in renditions.enumerated() {
      let index = title.segments.count / 2
      let bytes = Self.onThreads(n) { _ in
        try? title.mediaSegment(rendition, index: index)
      }
      #expect(title.plans.made == k + 1, "\(rendition)")
      let expected = try fresh.mediaSegment(rendition, index: index)
      #expect(bytes.allSatisfy { $0 == expected }, "\(rendition)")
    }
    #expect(renditions.count == 2)
  }

  /// The server's title plans: eight requests at once for a title not yet planned make one plan.
  @Test(.enabled(if: Self.have("codecs/ac3"), "needs make-codecs.sh output"))
  func concurrentTitleRequestsArePlannedOnce() throws {
    let path = Fixtures.generated("codecs/ac3")
    let titles = FMP4TitleCache(capacity: 4)
    let n = 8
    Self.hold(titles.plans, n)
    let title = try Disc.open(path: path).title(key: "00000")
    let plans = Self.onThreads(n) { _ in
      try? titles.title("ac3") { () throws(StreamingError) -> FMP4Title in
        try FMP4Title(title: title)
      }
    }
    #expect(titles.plans.made == 1)
    let made = plans.compactMap { $0 ?? nil }
    #expect(made.count == n)
    #expect(made.allSatisfy { $0.segments == made.first?.segments })
  }
}
