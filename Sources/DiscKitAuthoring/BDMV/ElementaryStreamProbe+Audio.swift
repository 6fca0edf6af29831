import DiscKit

extension ElementaryStreamProbe {
  /// Channel count and sample rate of an E-AC-3, DTS (core) or TrueHD (major sync) frame at the
  /// start of `payload`, or nil when the header is not there.
  static func extendedSound(codec: StreamCodec, payload: ArraySlice<UInt8>) -> Sound? {
    let p = Array(payload.prefix(16))
    switch codec {
    case .eac3:
      // syncword 0x0B77, strmtyp/substreamid/frmsiz (2 bytes), fscod (2) fscod2 (2) acmod (3)
      // lfeon (1).
      guard p.count >= 5, p[0] == 0x0B, p[1] == 0x77 else { return nil }
      let fscod = Int(p[4] >> 6)
      let rate =
        fscod == 3 ? [24000, 22050, 16000, 0][Int(p[4] >> 4) & 3] : [48000, 44100, 32000][fscod]
      let channels = [2, 1, 2, 3, 3, 4, 4, 5][Int(p[4] >> 1) & 7] + Int(p[4] & 1)
      return Sound(channels: channels, sampleRate: rate)
    case .dts, .dtsHDHighResolution, .dtsHDMasterAudio:
      // Core sync 7FFE8001, then FTYPE (1) SHORT (5) CPF (1) NBLKS (7) FSIZE (14): AMODE is bits
      // 60-65, SFREQ 66-69, LFF 85-86.
      guard p.count >= 11, p[0] == 0x7F, p[1] == 0xFE, p[2] == 0x80, p[3] == 0x01 else {
        return nil
      }
      func bits(_ start: Int, _ count: Int) -> Int {
        var value = 0
        for i in start..<(start + count) { value = value << 1 | Int(p[i / 8] >> (7 - i % 8)) & 1 }
        return value
      }
      let amode = bits(60, 6)
      let modes = [1, 2, 2, 2, 2, 3, 3, 4, 4, 5, 6, 6, 6, 7, 8, 8]
      let rates = [
        0, 8000, 16000, 32000, 0, 0, 11025, 22050, 44100, 0, 0, 12000, 24000, 48000, 0, 0,
      ]
      let lfe = bits(85, 2) != 0 ? 1 : 0
      return Sound(
        channels: (amode < modes.count ? modes[amode] : 2) + lfe, sampleRate: rates[bits(66, 4)])
    case .truehd:
      // Access unit header (4 bytes), major sync 0xF8726FBA, format_info: sampling frequency
      // (4), flags and 2ch/6ch fields (15), 8ch_presentation_channel_assignment (13).
      guard p.count >= 12, p[4] == 0xF8, p[5] == 0x72, p[6] == 0x6F, p[7] == 0xBA else {
        return nil
      }
      let info = Int(p[8]) << 24 | Int(p[9]) << 16 | Int(p[10]) << 8 | Int(p[11])
      let frequency = info >> 28
      let rate =
        frequency == 0xF ? 0 : (frequency & 8 == 0 ? 48000 : 44100) << (frequency & 7)
      // Channels per assignment bit: L/R, C, LFE, Ls/Rs, Tfl/Tfr, Lsc/Rsc, Lrs/Rrs, Cs, Ts,
      // Lsd/Rsd, Lw/Rw, Tfc, LFE2.
      let perBit = [2, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 1, 1]
      let assignment = info & 0x1FFF
      var channels = 0
      for (bit, count) in perBit.enumerated() where assignment & (1 << bit) != 0 {
        channels += count
      }
      return Sound(channels: channels, sampleRate: rate)
    default:
      return nil
    }
  }
}
