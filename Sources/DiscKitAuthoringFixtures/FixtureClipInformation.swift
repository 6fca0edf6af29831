@_spi(Formats) import DiscKit

/// Clip information the fixture and benchmark discs share.
package enum FixtureClipInformation {
  /// Clip information the fixture and benchmark discs share: one STC sequence of `seconds`
  /// seconds from 27,000 (45 kHz), `packets` source packets, the H.264 video on PID 0x1011
  /// followed by `streams` in the program, and one video entry point a second, the packets
  /// spread evenly over them.
  package static func make(
    seconds: Int, packets: UInt32, streams: [ClipProgramInfo.Stream] = []
  ) -> ClipInformation {
    let step = max(1, packets / UInt32(max(1, seconds)))
    let entries = (0..<seconds).map { (pts45k: 27000 + UInt32($0) * 45000, spn: UInt32($0) * step) }
    return ClipInformation(
      sourcePacketCount: packets,
      sequence: ClipSequenceInfo(atcSequences: [
        .init(stcSequences: [
          .init(
            pcrPID: 0x1001, spnSTCStart: 0, presentationStartTime: 27000,
            presentationEndTime: 27000 + UInt32(seconds) * 45000)
        ])
      ]),
      program: ClipProgramInfo(programs: [
        .init(streams: [.init(pid: 0x1011, codingType: 0x1B, format: 6, rate: 1)] + streams)
      ]),
      epMap: EPMap(streams: [EPMap.Stream(pid: 0x1011, entries: entries)]))
  }
}
