@_spi(Formats) import DiscKit

extension InteractiveComposition {
  /// Serialises as one ICS segment payload (video, composition and sequence descriptors, then
  /// the composition; no effects, no button graphics).
  package func serialize() -> [UInt8] {
    var body = BDMVWriter()
    body.u8(streamModel << 7 | (userInterfaceModel & 1) << 6)
    if streamModel == 0 { body.zeros(10) }
    body.zeros(3)  // user time-out
    body.u8(UInt8(clamping: pages.count))
    for page in pages {
      body.u8(page.id)
      body.u8(page.version)
      body.zeros(8)  // UO mask
      body.zeros(2)  // in effects: no windows, no effects
      body.zeros(2)  // out effects
      body.u8(0)  // animation frame rate
      body.u16(page.defaultSelectedButton)
      body.u16(page.defaultActivatedButton)
      body.u8(0)  // palette
      body.u8(UInt8(clamping: page.groups.count))
      for group in page.groups {
        body.u16(group.defaultValidButton)
        body.u8(UInt8(clamping: group.buttons.count))
        for button in group.buttons {
          body.u16(button.id)
          body.u16(button.numericSelectValue)
          body.u8(button.autoAction ? 0x80 : 0)
          body.u16(button.x)
          body.u16(button.y)
          for n in 0..<4 { body.u16(n < button.neighbours.count ? button.neighbours[n] : 0xFFFF) }
          body.bytes += [0xFF, 0xFF, 0xFF, 0xFF, 0]  // normal state: no objects
          body.bytes += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0]  // selected state
          body.bytes += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF]  // activated state
          body.u16(UInt16(clamping: button.commands.count))
          for c in button.commands {
            body.u32(c.instruction)
            body.u32(c.destination)
            body.u32(c.source)
          }
        }
      }
    }
    var w = BDMVWriter()
    w.u16(width)
    w.u16(height)
    w.u8(0x10)
    w.u16(compositionNumber)
    w.u8(compositionState << 6)
    w.u8(0xC0)  // first and last in sequence
    let length = UInt32(body.bytes.count)
    w.u8(UInt8(truncatingIfNeeded: length >> 16))
    w.u16(UInt16(truncatingIfNeeded: length))
    w.bytes += body.bytes
    return w.bytes
  }
}

/// Writes an interactive-graphics stream as MPEG-2 transport packets: each segment in one PES
/// packet (stream id 0xBD), cut into 188-byte packets on `pid`, each preceded by a 4-byte
/// arrival time stamp (`.m2ts`).
package enum IGStreamWriter {
  /// `(segment type, payload)` segments as `.m2ts` packets; with `timestamp90k`, each PES packet
  /// carries it as its PTS and DTS (players drop graphics packets without a PTS inside the clip's
  /// presentation time), else no timestamps.
  package static func transportStream(
    segments: [(type: UInt8, payload: [UInt8])], pid: UInt16, timestamp90k: UInt64? = nil
  ) -> [UInt8] {
    var out: [UInt8] = []
    var counter: UInt8 = 0
    for segment in segments {
      var es: [UInt8] = [
        segment.type, UInt8(segment.payload.count >> 8), UInt8(segment.payload.count & 0xFF),
      ]
      es += segment.payload
      var header: [UInt8] = [0x80, 0, 0]
      if let t = timestamp90k {
        func stamp(_ prefix: UInt8) -> [UInt8] {
          [
            prefix << 4 | UInt8((t >> 29) & 0x0E) | 1, UInt8((t >> 22) & 0xFF),
            UInt8((t >> 14) & 0xFE) | 1, UInt8((t >> 7) & 0xFF), UInt8((t << 1) & 0xFE) | 1,
          ]
        }
        header = [0x80, 0xC0, 10] + stamp(3) + stamp(1)
      }
      let pesLength = es.count + header.count
      var pes: [UInt8] = [0, 0, 1, 0xBD, UInt8((pesLength >> 8) & 0xFF), UInt8(pesLength & 0xFF)]
      pes += header
      pes += es
      var offset = 0
      var first = true
      while offset < pes.count {
        let take = min(184, pes.count - offset)
        var packet: [UInt8] = [
          0, 0, 0, 0, 0x47, UInt8(pid >> 8) & 0x1F | (first ? 0x40 : 0), UInt8(pid & 0xFF),
        ]
        if take == 184 {
          packet.append(0x10 | counter)
        } else {
          // adaptation field stuffing to fill the packet
          packet.append(0x30 | counter)
          let stuffing = 184 - take - 1
          packet.append(UInt8(stuffing))
          if stuffing > 0 {
            packet.append(0)
            packet += [UInt8](repeating: 0xFF, count: stuffing - 1)
          }
        }
        packet += pes[offset..<(offset + take)]
        out += packet
        counter = (counter + 1) & 0x0F
        offset += take
        first = false
      }
    }
    return out
  }
}
