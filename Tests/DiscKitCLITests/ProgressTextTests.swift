import DiscKitCLI
import DiscKitTestSupport
import Testing

/// The progress line as curl and pv show it (amount of the total, rate, time left), as a pure
/// function of what is done, the total and the time spent. Expected texts are worked out by hand
/// from those inputs.
@Suite("Progress text", .toolThreads)
struct ProgressTextTests {
  @Test func bytesRateAndTimeLeft() {
    // 1 GiB of 4 GiB in 10 s: 107,374,182.4 B/s = 102.4 MiB/s; 3 GiB left at that rate is 30 s.
    #expect(
      ProgressText.line(label: "cat", done: 1 << 30, total: 4 << 30, elapsed: 10)
        == "cat [#######-----------------------] 25%  1.0 GiB / 4.0 GiB  102.4 MiB/s  ETA 0:30")
    // 700 MB of 1,000 MB in 2 s: 350,000,000 B/s = 333.8 MiB/s; 300 MB left is 0.857 s → 0:01.
    #expect(
      ProgressText.line(label: "title 1", done: 700_000_000, total: 1_000_000_000, elapsed: 2)
        == "title 1 [#####################---------] 70%  667.6 MiB / 953.7 MiB  333.8 MiB/s  ETA 0:01"
    )
  }

  @Test func startAndEnd() {
    #expect(
      ProgressText.line(label: "x", done: 0, total: 2048, elapsed: 0)
        == "x [------------------------------] 0%  0 B / 2.0 KiB  -- B/s  ETA --:--")
    #expect(
      ProgressText.line(label: "x", done: 2048, total: 2048, elapsed: 4)
        == "x [##############################] 100%  2.0 KiB / 2.0 KiB  512 B/s  ETA 0:00")
    // More than the total (a source that grew) is shown as the total.
    #expect(
      ProgressText.line(label: "x", done: 4096, total: 2048, elapsed: 4)
        == "x [##############################] 100%  2.0 KiB / 2.0 KiB  512 B/s  ETA 0:00")
  }

  @Test func items() {
    // 12 of 50 discs in 3 s: 4.0/s; 38 left is 9.5 s → 0:10 (rounded up).
    #expect(
      ProgressText.line(label: "titles", done: 12, total: 50, elapsed: 3, unit: .items("discs"))
        == "titles [#######-----------------------] 24%  12/50 discs  4.0/s  ETA 0:10")
  }

  @Test func units() {
    #expect(ProgressText.bytes(Int64(0)) == "0 B")
    #expect(ProgressText.bytes(Int64(1023)) == "1023 B")
    #expect(ProgressText.bytes(Int64(1024)) == "1.0 KiB")
    #expect(ProgressText.bytes(Int64(1536)) == "1.5 KiB")
    #expect(ProgressText.bytes(Int64(1_048_575)) == "1.0 MiB")  // 1023.999 KiB rounds to 1024.0
    #expect(ProgressText.bytes(Int64(25_000_000_000)) == "23.3 GiB")
    #expect(ProgressText.bytes(Int64(3) << 40) == "3.0 TiB")
    #expect(ProgressText.duration(0) == "0:00")
    #expect(ProgressText.duration(59.2) == "1:00")
    #expect(ProgressText.duration(754) == "12:34")
    #expect(ProgressText.duration(3661) == "1:01:01")
    #expect(ProgressText.duration(.infinity) == "--:--")
  }
}
