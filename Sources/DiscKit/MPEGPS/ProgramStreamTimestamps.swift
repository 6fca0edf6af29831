/// Moves the timestamps of MPEG-2 program-stream packs in place (``ContinuousTimelineByteSource``):
/// the pack header's SCR, every PES packet's PTS and DTS, and in DVD navigation packs the PCI's
/// `VOBU_S_PTM`, `VOBU_E_PTM`, `VOBU_SE_E_PTM` (when set) and the DSI's `NV_PCK_SCR` (32-bit,
/// 90 kHz, moved modulo 2^32). Packs that do not start with an MPEG-2 pack header are left alone;
/// the walk through a pack's PES packets stops at the first byte that is not a start code.
enum ProgramStreamTimestamps {
  static func shift(_ p: UnsafeMutablePointer<UInt8>, packs: Int, delta: UInt64) {
    for i in 0..<packs {
      let pack = i * 2048
      let end = pack + 2048
      guard p[pack] == 0, p[pack + 1] == 0, p[pack + 2] == 1, p[pack + 3] == 0xBA,
        p[pack + 4] & 0xC0 == 0x40
      else { continue }
      TimestampField.shiftSCR(p + pack + 4, delta: delta)
      var q = pack + 14 + Int(p[pack + 13] & 7)
      while q + 6 <= end, p[q] == 0, p[q + 1] == 0, p[q + 2] == 1 {
        let id = p[q + 3]
        let length = Int(p[q + 4]) << 8 | Int(p[q + 5])
        let payload = q + 6
        let next = payload + length
        guard next <= end else { break }
        if id == 0xBF, length >= 1 {
          shiftNavigation(p, substream: payload, end: next, delta: delta)
        } else if TimestampField.hasOptionalHeader(id), length >= 3, p[payload] & 0xC0 == 0x80 {
          let flags = p[payload + 1] >> 6
          let headerLength = Int(p[payload + 2])
          if flags & 2 != 0, headerLength >= 5, payload + 8 <= next {
            TimestampField.shiftPES(p, delta: delta) { payload + 3 + $0 }
          }
          if flags == 3, headerLength >= 10, payload + 13 <= next {
            TimestampField.shiftPES(p, delta: delta) { payload + 8 + $0 }
          }
        }
        q = next
      }
    }
  }

  /// PCI (substream 0) and DSI (substream 1) times of a DVD navigation pack.
  private static func shiftNavigation(
    _ p: UnsafeMutablePointer<UInt8>, substream s: Int, end: Int, delta: UInt64
  ) {
    let d = UInt32(truncatingIfNeeded: delta)
    func add(_ at: Int, unlessZero: Bool = false) {
      guard at + 4 <= end else { return }
      let v = UInt32(p[at]) << 24 | UInt32(p[at + 1]) << 16 | UInt32(p[at + 2]) << 8 | UInt32(p[at + 3])
      if unlessZero && v == 0 { return }
      let n = v &+ d
      p[at] = UInt8(truncatingIfNeeded: n >> 24)
      p[at + 1] = UInt8(truncatingIfNeeded: n >> 16)
      p[at + 2] = UInt8(truncatingIfNeeded: n >> 8)
      p[at + 3] = UInt8(truncatingIfNeeded: n)
    }
    switch p[s] {
    case 0:  // PCI: pci_gi = nv_pck_lbn(4) vobu_cat(2) zero(2) vobu_uop_ctl(4) s_ptm e_ptm se_e_ptm
      add(s + 1 + 12)
      add(s + 1 + 16)
      add(s + 1 + 20, unlessZero: true)
    case 1:  // DSI: dsi_gi starts with nv_pck_scr
      add(s + 1)
    default: break
    }
  }
}
