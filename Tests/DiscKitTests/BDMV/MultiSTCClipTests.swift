@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// A clip with three STC sequences (issue 20, `bd-stc` of TestImages/scripts/make-epochs.sh):
/// its clip information against the source streams (where each one's first packet lies in the
/// concatenation, its video presentation by ffprobe). The comparisons with libbluray are in
/// DiscKitOracleTests' suite of the same name.
@Suite("Clips with several STC sequences")
struct MultiSTCClipTests {
  static let ready = EpochDiscs.stcReady
  static let missing = EpochDiscs.stcMissing
  static let parts = EpochDiscs.stcParts
  static func disc() throws -> BlurayDisc { try EpochDiscs.stcDisc() }

  @Test(.enabled(if: ready, "\(missing)"))
  func clipInformationListsThreeSequences() throws {
    let disc = try Self.disc()
    let title = try disc.title(playlist: "00000.mpls")
    let info = try #require(disc.clipInformation(title.clips[0].clipID))
    let atc = try #require(info.sequence.atcSequences.first)
    #expect(info.sequence.atcSequences.count == 1)
    #expect(atc.stcSequences.map(\.spnSTCStart) == (try EpochDiscs.stcPartStarts()))
    for (k, part) in Self.parts.enumerated() {
      let shown = try ClipJoinProbe.presentation(part)
      let stc = atc.stcSequences[k]
      #expect(Int64(stc.presentationStartTime) == shown.lowerBound / 2, "STC \(k) start")
      #expect(Int64(stc.presentationEndTime) == shown.upperBound / 2, "STC \(k) end")
    }
    // Title 1 plays the three sequences in order, each whole.
    #expect(title.clips.map(\.stcID) == [0, 1, 2])
    #expect(title.clips.map(\.inTime) == atc.stcSequences.map(\.presentationStartTime))
    #expect(title.clips.map(\.outTime) == atc.stcSequences.map(\.presentationEndTime))
    #expect(title.warnings.isEmpty, "\(title.warnings)")
  }
}
