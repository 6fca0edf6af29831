@_spi(Formats) import DiscKit

/// A big-endian byte writer for serialising BDMV structures.
struct BDMVWriter {
  var bytes: [UInt8] = []
  mutating func u8(_ v: UInt8) { bytes.append(v) }
  mutating func u16(_ v: UInt16) { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
  mutating func u32(_ v: UInt32) {
    bytes += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
  }
  mutating func zeros(_ n: Int) { bytes += [UInt8](repeating: 0, count: max(0, n)) }
  mutating func language(_ s: String) {
    if s.isEmpty { zeros(3) } else { ascii(s, 3) }
  }
  mutating func ascii(_ s: String, _ n: Int) {
    var raw = Array(s.utf8.prefix(n))
    raw += [UInt8](repeating: 0x30, count: n - raw.count)
    bytes += raw
  }
  mutating func patch32(at p: Int, _ v: UInt32) {
    bytes[p] = UInt8(v >> 24)
    bytes[p + 1] = UInt8((v >> 16) & 0xFF)
    bytes[p + 2] = UInt8((v >> 8) & 0xFF)
    bytes[p + 3] = UInt8(v & 0xFF)
  }
  mutating func patch16(at p: Int, _ v: UInt16) {
    bytes[p] = UInt8(v >> 8)
    bytes[p + 1] = UInt8(v & 0xFF)
  }
  var count: Int { bytes.count }
}

extension PlaylistStream {
  func serialize(into w: inout BDMVWriter) {
    let entryStart = w.count
    w.u8(0)
    w.u8(entryType)
    switch entryType {
    case 2:
      w.u8(subPathID)
      w.u8(subClipID)
      w.u16(pid)
    case 3, 4:
      w.u8(subPathID)
      w.u16(pid)
    default:
      w.u16(pid)
    }
    w.zeros(entryStart + 10 - w.count)
    w.bytes[entryStart] = UInt8(w.count - entryStart - 1)
    let attrStart = w.count
    w.u8(0)
    w.u8(codingType)
    switch kind {
    case .video:
      w.u8(format << 4 | rate & 0x0F)
      if codingType == 0x24 {
        w.u8(dynamicRangeType << 4 | colorSpace & 0x0F)
        w.u8((crFlag ? 0x80 : 0) | (hdrPlusFlag ? 0x40 : 0))
      }
    case .audio:
      w.u8(format << 4 | rate & 0x0F)
      w.language(language)
    case .presentationGraphics, .interactiveGraphics:
      w.language(language)
    case .textSubtitle:
      w.u8(characterCode)
      w.language(language)
    case .unknown:
      break
    }
    w.zeros(attrStart + 6 - w.count)
    w.bytes[attrStart] = UInt8(w.count - attrStart - 1)
  }
}

extension MoviePlaylist {
  /// Serialises the playlist as an `.mpls` file (AppInfo, PlayList with play items, angles, STN
  /// tables and sub-paths, PlayListMark; no extension data). The result parses back to an equal
  /// playlist (except ``PlayItem/fileOffset`` and the extension fields) and is read by libbluray.
  public func serialize() -> [UInt8] {
    var w = BDMVWriter()
    w.ascii("MPLS", 4)
    w.ascii(version.rawValue, 4)
    w.zeros(12)  // list, mark, ext positions (patched)
    w.zeros(20)
    // AppInfoPlayList.
    w.u32(14)
    w.u8(0)
    w.u8(playbackType)
    w.u16(playbackType == 2 || playbackType == 3 ? playbackCount : 0)
    w.zeros(8)
    w.u8(
      (randomAccessFlag ? 0x80 : 0) | (audioMixFlag ? 0x40 : 0) | (losslessBypassFlag ? 0x20 : 0)
        | (mvcBaseViewRightFlag ? 0x10 : 0))
    w.u8(0)
    // PlayList.
    let listPos = w.count
    w.patch32(at: 8, UInt32(listPos))
    w.u32(0)
    w.u16(0)
    w.u16(UInt16(clamping: playItems.count))
    w.u16(UInt16(clamping: subPaths.count))
    for item in playItems {
      let start = w.count
      w.u16(0)
      w.ascii(item.clip.clipID, 5)
      w.ascii(item.clip.codecID, 4)
      w.u16((item.clips.count > 1 ? 0x10 : 0) | UInt16(item.connectionCondition & 0x0F))
      w.u8(item.clip.stcID)
      w.u32(item.inTime)
      w.u32(item.outTime)
      w.zeros(8)
      w.u8(item.randomAccessFlag ? 0x80 : 0)
      w.u8(item.stillMode)
      w.u16(item.stillMode == 1 ? item.stillTime : 0)
      if item.clips.count > 1 {
        w.u8(UInt8(clamping: item.clips.count))
        w.u8((item.isDifferentAudio ? 2 : 0) | (item.isSeamlessAngle ? 1 : 0))
        for clip in item.clips.dropFirst() {
          w.ascii(clip.clipID, 5)
          w.ascii(clip.codecID, 4)
          w.u8(clip.stcID)
        }
      }
      // STN.
      let stnStart = w.count
      w.u16(0)
      w.u16(0)
      let s = item.streams
      for n in [
        s.video.count, s.audio.count, s.primaryPGCount, s.interactiveGraphics.count,
        s.secondaryAudio.count,
        s.secondaryVideo.count, s.pipPGCount, s.dolbyVision.count,
      ] {
        w.u8(UInt8(clamping: n))
      }
      w.zeros(4)
      for stream in s.video + s.audio + s.presentationGraphics + s.interactiveGraphics {
        stream.serialize(into: &w)
      }
      for stream in s.secondaryAudio {
        stream.serialize(into: &w)
        w.u16(0)
      }
      for stream in s.secondaryVideo {
        stream.serialize(into: &w)
        w.u16(0)
        w.u16(0)
      }
      for stream in s.dolbyVision { stream.serialize(into: &w) }
      w.patch16(at: stnStart, UInt16(clamping: w.count - stnStart - 2))
      w.patch16(at: start, UInt16(clamping: w.count - start - 2))
    }
    for sub in subPaths {
      let start = w.count
      w.u32(0)
      w.u8(0)
      w.u8(sub.type)
      w.u16(sub.isRepeat ? 1 : 0)
      w.u8(0)
      w.u8(UInt8(clamping: sub.items.count))
      for item in sub.items {
        let itemStart = w.count
        w.u16(0)
        w.ascii(item.clips.first?.clipID ?? "00000", 5)
        w.ascii(item.clips.first?.codecID ?? "M2TS", 4)
        w.u32(UInt32(item.connectionCondition & 0x0F) << 1 | (item.clips.count > 1 ? 1 : 0))
        w.u8(item.clips.first?.stcID ?? 0)
        w.u32(item.inTime)
        w.u32(item.outTime)
        w.u16(item.syncPlayItemID)
        w.u32(item.syncPTS)
        if item.clips.count > 1 {
          w.u8(UInt8(clamping: item.clips.count))
          w.u8(0)
          for clip in item.clips.dropFirst() {
            w.ascii(clip.clipID, 5)
            w.ascii(clip.codecID, 4)
            w.u8(clip.stcID)
          }
        }
        w.patch16(at: itemStart, UInt16(clamping: w.count - itemStart - 2))
      }
      w.patch32(at: start, UInt32(w.count - start - 4))
    }
    w.patch32(at: listPos, UInt32(w.count - listPos - 4))
    // PlayListMark.
    let markPos = w.count
    w.patch32(at: 12, UInt32(markPos))
    w.u32(UInt32(2 + 14 * marks.count))
    w.u16(UInt16(clamping: marks.count))
    for mark in marks {
      w.u8(0)
      w.u8(mark.type)
      w.u16(mark.playItemRef)
      w.u32(mark.time)
      w.u16(mark.entryESPID)
      w.u32(mark.duration)
    }
    return w.bytes
  }
}

extension ClipInformation {
  /// Serialises the clip information as a `.clpi` file (ClipInfo, SequenceInfo, ProgramInfo,
  /// CPI with the EP map, an empty ClipMark). libbluray reads the result.
  public func serialize() -> [UInt8] {
    var w = BDMVWriter()
    w.ascii("HDMV", 4)
    w.ascii(version.rawValue, 4)
    w.zeros(20)  // five start addresses
    w.zeros(12)
    // ClipInfo at 40.
    let clipInfoStart = w.count
    w.u32(0)
    w.u16(0)
    w.u8(clipStreamType)
    w.u8(applicationType)
    w.u32(isATCDelta ? 1 : 0)
    w.u32(tsRecordingRate)
    w.u32(sourcePacketCount)
    w.zeros(128)
    w.u16(30)
    w.u8(0x80)
    w.ascii(formatID.isEmpty ? "HDMV" : formatID, 4)
    w.zeros(25)
    w.patch32(at: clipInfoStart, UInt32(w.count - clipInfoStart - 4))
    // SequenceInfo.
    let seq = w.count
    w.patch32(at: 8, UInt32(seq))
    w.u32(0)
    w.u8(0)
    w.u8(UInt8(clamping: sequence.atcSequences.count))
    for atc in sequence.atcSequences {
      w.u32(atc.spnATCStart)
      w.u8(UInt8(clamping: atc.stcSequences.count))
      w.u8(atc.offsetSTCID)
      for stc in atc.stcSequences {
        w.u16(stc.pcrPID)
        w.u32(stc.spnSTCStart)
        w.u32(stc.presentationStartTime)
        w.u32(stc.presentationEndTime)
      }
    }
    w.patch32(at: seq, UInt32(w.count - seq - 4))
    // ProgramInfo.
    let prog = w.count
    w.patch32(at: 12, UInt32(prog))
    w.u32(0)
    w.u8(0)
    w.u8(UInt8(clamping: program.programs.count))
    for p in program.programs {
      w.u32(p.spnProgramSequenceStart)
      w.u16(p.programMapPID)
      w.u8(UInt8(clamping: p.streams.count))
      w.u8(p.groupCount)
      for s in p.streams {
        w.u16(s.pid)
        let start = w.count
        w.u8(21)
        w.u8(s.codingType)
        switch PlaylistStream.Kind(codingType: s.codingType) {
        case .video:
          w.u8(s.format << 4 | s.rate & 0x0F)
          w.u8(s.aspect << 4)
        case .audio:
          w.u8(s.format << 4 | s.rate & 0x0F)
          w.language(s.language)
        case .presentationGraphics, .interactiveGraphics:
          w.language(s.language)
        case .textSubtitle:
          w.u8(0)
          w.language(s.language)
        case .unknown:
          break
        }
        w.zeros(start + 22 - w.count)
      }
    }
    w.patch32(at: prog, UInt32(w.count - prog - 4))
    // CPI.
    let cpi = w.count
    w.patch32(at: 16, UInt32(cpi))
    w.u32(0)
    if let epMap {
      w.u16(UInt16(epMap.type & 0x0F))
      let mapPos = w.count
      w.u8(0)
      w.u8(UInt8(clamping: epMap.streams.count))
      var headerAt: [Int] = []
      for s in epMap.streams {
        w.u16(s.pid)
        let fineCount = UInt32(s.fine.count)
        w.u32(
          UInt32(s.streamType & 0x0F) << 18 | UInt32(UInt16(clamping: s.coarse.count)) << 2
            | (fineCount >> 16) & 3)
        w.u16(UInt16(fineCount & 0xFFFF))
        headerAt.append(w.count)
        w.u32(0)
      }
      for (k, s) in epMap.streams.enumerated() {
        let start = w.count
        w.patch32(at: headerAt[k], UInt32(start - mapPos))
        w.u32(UInt32(4 + 8 * s.coarse.count))
        for c in s.coarse {
          w.u32(c.refFineID << 14 | UInt32(c.pts & 0x3FFF))
          w.u32(c.spn)
        }
        for f in s.fine {
          w.u32(
            (f.isAngleChangePoint ? 0x8000_0000 : 0) | UInt32(f.iEndPositionOffset & 7) << 28
              | UInt32(f.pts & 0x7FF) << 17 | (f.spn & 0x1FFFF))
        }
      }
      w.patch32(at: cpi, UInt32(w.count - cpi - 4))
    }
    // ClipMark (empty).
    w.patch32(at: 20, UInt32(w.count))
    w.u32(0)
    return w.bytes
  }
}

extension BDMVIndex {
  /// Serialises as `index.bdmv` (AppInfoBDMV zeroed, no extension data).
  public func serialize() -> [UInt8] {
    var w = BDMVWriter()
    w.ascii("INDX", 4)
    w.ascii(version.rawValue, 4)
    w.u32(78)
    w.u32(0)
    w.zeros(24)
    w.u32(34)
    w.zeros(34)
    let start = w.count
    w.u32(0)
    func object(_ o: Object, head: UInt32) {
      switch o {
      case .hdmv(let id, let playback):
        w.u32(head | 1 << 30)
        w.u16(UInt16(playback & 3) << 14)
        w.u16(id)
        w.zeros(4)
      case .bdj(let name, let playback):
        w.u32(head | 2 << 30)
        w.u16(UInt16(playback & 3) << 14)
        w.ascii(name, 5)
        w.zeros(1)
      case .none:
        w.u32(head)
        w.zeros(8)
      }
    }
    object(firstPlay, head: 0)
    object(topMenu, head: 0)
    w.u16(UInt16(clamping: titles.count))
    for t in titles { object(t.object, head: UInt32(t.accessType & 3) << 28) }
    w.patch32(at: start, UInt32(w.count - start - 4))
    return w.bytes
  }
}

extension NavigationCommand {
  /// `PlayPL <playlist>` with an immediate operand.
  public static func playPlaylist(_ number: UInt32) -> NavigationCommand {
    NavigationCommand(instruction: 0x2280_0000, destination: number, source: 0)
  }
}

extension MovieObjectFile {
  /// Serialises as `MovieObject.bdmv`.
  public func serialize() -> [UInt8] {
    var w = BDMVWriter()
    w.ascii("MOBJ", 4)
    w.ascii(version.rawValue, 4)
    w.u32(0)
    w.zeros(28)
    let start = w.count
    w.u32(0)
    w.zeros(4)
    w.u16(UInt16(clamping: objects.count))
    for o in objects {
      w.u16(
        (o.resumeIntention ? 0x8000 : 0) | (o.menuCallMask ? 0x4000 : 0)
          | (o.titleSearchMask ? 0x2000 : 0))
      w.u16(UInt16(clamping: o.commands.count))
      for c in o.commands {
        w.u32(c.instruction)
        w.u32(c.destination)
        w.u32(c.source)
      }
    }
    w.patch32(at: start, UInt32(w.count - start - 4))
    return w.bytes
  }
}
