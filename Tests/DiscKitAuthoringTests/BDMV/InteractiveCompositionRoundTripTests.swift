@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitTestSupport
import Foundation
import Testing

/// The IG composition parser on compositions the test writes (with DiscKitAuthoring's serializer),
/// and on damaged copies of them and of the real menus.
@Suite("Interactive graphics: written compositions", .toolThreads)
struct InteractiveCompositionRoundTripTests {
  static let samples: [String] = {
    guard let root = Fixtures.realData?.appendingPathComponent("bluray") else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    return names.sorted().map { root.appendingPathComponent("\($0)/BDMV/ics_menu.bin").path }
      .filter { FileManager.default.fileExists(atPath: $0) }
  }()

  @Test("a written composition reads back, through transport packets and fragments")
  func roundTrip() throws {
    let composition = InteractiveComposition(pages: [
      IGPage(
        id: 0,
        groups: [
          IGButtonOverlapGroup(buttons: [
            IGButton(id: 1, commands: [.jumpTitle(.immediate(1))]),
            IGButton(
              id: 2, commands: [.set(.move, .gpr(1), .immediate(5)), .playPlaylist(.gpr(1))]),
          ])
        ]),
      IGPage(id: 1, groups: [IGButtonOverlapGroup(buttons: [IGButton(id: 3, commands: [])])]),
    ])
    let payload = composition.serialize()
    #expect(try InteractiveComposition(bytes: payload) == composition)
    let ts = IGStreamWriter.transportStream(segments: [(0x18, payload)], pid: 0x1400)
    let es = IGStreamReader.elementaryStream(ts, pid: 0x1400)
    #expect(try IGStreamReader.firstComposition(inElementaryStream: es, name: "ts") == composition)
    // Split into three fragments: first (with the length), middle, last.
    let header = Array(payload[0..<9])
    let body = Array(payload[9...])
    let cut1 = 3 + body.count / 3
    let cut2 = 2 * body.count / 3
    var first = header
    first[8] = 0x80
    var middle = header
    middle[8] = 0x00
    var last = header
    last[8] = 0x40
    let fragments: [[UInt8]] = [
      first + body[0..<cut1], middle + body[cut1..<cut2], last + body[cut2...],
    ]
    #expect(try InteractiveComposition(fragments: fragments) == composition)
    let stream: [UInt8] = fragments.flatMap { fragment -> [UInt8] in
      [0x18, UInt8(fragment.count >> 8), UInt8(fragment.count & 0xFF)] + fragment
    }
    #expect(
      try IGStreamReader.firstComposition(inElementaryStream: stream, name: "es") == composition)
  }

  @Test("truncated and byte-flipped compositions give typed errors, never a trap")
  func damaged() throws {
    var seeds: [[UInt8]] = [
      InteractiveComposition(pages: [
        IGPage(id: 0, groups: [IGButtonOverlapGroup(buttons: [IGButton(id: 1, commands: [.nop])])])
      ]).serialize()
    ]
    for path in Self.samples.prefix(3) {
      if let data = try? Data(contentsOf: URL(fileURLWithPath: path)) {
        seeds.append([UInt8](data))
      }
    }
    for seed in seeds {
      for cut in stride(from: 0, to: seed.count, by: max(1, seed.count / 64)) {
        #expect(throws: DiscKitError.self) {
          try InteractiveComposition(bytes: Array(seed[0..<cut]))
        }
      }
    }
    var rng = SeededRandom(seed: 0x1C5)
    for round in 0..<600 {
      var bytes = seeds[round % seeds.count]
      for _ in 0..<Int.random(in: 1...8, using: &rng) {
        let k = Int.random(in: 0..<bytes.count, using: &rng)
        bytes[k] ^= UInt8.random(in: 1...255, using: &rng)
      }
      if let ics = try? InteractiveComposition(bytes: bytes) {
        #expect(ics.pages.count <= 255)
      }
      _ = try? IGStreamReader.firstComposition(
        inElementaryStream: [0x18, 0, 20] + bytes, name: "flip")
      _ = IGStreamReader.elementaryStream(bytes, pid: 0x1400, packetSize: 188)
    }
  }
}
