import Foundation

/// A small ISO BMFF reader of the tests' own (not the server's writer read back through its own
/// code): boxes by path, and the fields of the boxes Apple's HLS rules are about.
struct MP4Box {
  var type: String
  /// The whole box (header included).
  var bytes: ArraySlice<UInt8>
  /// Where the body starts (after size and type).
  var bodyStart: Int { bytes.startIndex + 8 }
  var body: ArraySlice<UInt8> { bytes[bodyStart...] }

  static let containers: Set<String> = [
    "moov", "trak", "mdia", "minf", "stbl", "mvex", "moof", "traf", "dinf",
  ]

  /// The boxes of `bytes` one after the other.
  static func boxes(_ bytes: ArraySlice<UInt8>) -> [MP4Box] {
    var result: [MP4Box] = []
    var i = bytes.startIndex
    while i + 8 <= bytes.endIndex {
      let size = Int(u32(bytes, i))
      guard size >= 8, i + size <= bytes.endIndex else { break }
      let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
      result.append(MP4Box(type: type, bytes: bytes[i..<(i + size)]))
      i += size
    }
    return result
  }

  /// The first box along `path` ("moov/trak/mdia/minf/stbl/stsd"): containers are descended,
  /// `stsd` skips its entry count, a sample entry its fixed fields.
  static func find(_ path: String, in bytes: ArraySlice<UInt8>) -> MP4Box? {
    var level = boxes(bytes)
    var found: MP4Box?
    for name in path.split(separator: "/").map(String.init) {
      guard let box = level.first(where: { $0.type == name }) else { return nil }
      found = box
      level = boxes(box.children)
    }
    return found
  }

  /// The bytes holding this box's child boxes.
  var children: ArraySlice<UInt8> {
    switch type {
    case "stsd": return bytes[min(bodyStart + 8, bytes.endIndex)...]
    case "avc1", "hvc1", "hev1", "avc3": return bytes[min(bodyStart + 78, bytes.endIndex)...]
    case "ac-3", "ec-3", "mp4a", "fLaC": return bytes[min(bodyStart + 28, bytes.endIndex)...]
    default: return Self.containers.contains(type) ? body : bytes[bytes.endIndex...]
    }
  }

  static func u32(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt32 {
    UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
  }
  static func u16(_ b: ArraySlice<UInt8>, _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
  static func u64(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt64 {
    UInt64(u32(b, i)) << 32 | UInt64(u32(b, i + 4))
  }
}

/// A media segment's `moof`: `tfdt` and the `trun` samples, and its `mdat` payload; an empty
/// track fragment (no `trun`, `tfhd`'s duration-is-empty flag, ISO/IEC 14496-12 8.8.7) has no
/// samples and lasts its `tfhd`'s default sample duration.
struct MP4Fragment {
  struct Sample {
    var duration: Int
    var size: Int
    var flags: UInt32
    var compositionOffset: Int
  }
  var sequence: Int
  var decodeTime: UInt64
  var samples: [Sample]
  var mdat: ArraySlice<UInt8>
  /// An empty fragment's duration (nil for one with a `trun`).
  var emptyDuration: Int?
  /// How long the fragment lasts: its samples' durations, or an empty one's.
  var duration: Int { emptyDuration ?? samples.reduce(0) { $0 + $1.duration } }

  init?(_ bytes: [UInt8]) {
    let all = bytes[...]
    guard let mfhd = MP4Box.find("moof/mfhd", in: all),
      let tfdt = MP4Box.find("moof/traf/tfdt", in: all),
      let tfhd = MP4Box.find("moof/traf/tfhd", in: all),
      let mdat = MP4Box.boxes(all).first(where: { $0.type == "mdat" })
    else { return nil }
    sequence = Int(MP4Box.u32(mfhd.body, mfhd.bodyStart + 4))
    let version = tfdt.body[tfdt.bodyStart]
    decodeTime =
      version == 1
      ? MP4Box.u64(tfdt.body, tfdt.bodyStart + 4)
      : UInt64(MP4Box.u32(tfdt.body, tfdt.bodyStart + 4))
    self.mdat = mdat.body
    guard let trun = MP4Box.find("moof/traf/trun", in: all) else {
      // tfhd: version/flags, track_ID, then the optional fields its flags name.
      let h = tfhd.body
      let flags = MP4Box.u32(h, h.startIndex) & 0xFFFFFF
      guard flags & 0x01_0000 != 0, flags & 0x08 != 0 else { return nil }
      var i = h.startIndex + 8
      if flags & 0x01 != 0 { i += 8 }
      if flags & 0x02 != 0 { i += 4 }
      emptyDuration = Int(MP4Box.u32(h, i))
      samples = []
      return
    }
    let b = trun.body
    let flags = MP4Box.u32(b, b.startIndex) & 0xFFFFFF
    let count = Int(MP4Box.u32(b, b.startIndex + 4))
    var i = b.startIndex + 8
    if flags & 0x1 != 0 { i += 4 }
    var firstFlags: UInt32?
    if flags & 0x4 != 0 {
      firstFlags = MP4Box.u32(b, i)
      i += 4
    }
    var samples: [Sample] = []
    for k in 0..<count {
      var sample = Sample(duration: 0, size: 0, flags: 0, compositionOffset: 0)
      if flags & 0x100 != 0 {
        sample.duration = Int(MP4Box.u32(b, i))
        i += 4
      }
      if flags & 0x200 != 0 {
        sample.size = Int(MP4Box.u32(b, i))
        i += 4
      }
      if flags & 0x400 != 0 {
        sample.flags = MP4Box.u32(b, i)
        i += 4
      } else if k == 0, let firstFlags {
        sample.flags = firstFlags
      }
      if flags & 0x800 != 0 {
        sample.compositionOffset = Int(Int32(bitPattern: MP4Box.u32(b, i)))
        i += 4
      }
      samples.append(sample)
    }
    self.samples = samples
  }

  /// The NAL unit types of the first sample (4-byte lengths), HEVC or H.264 numbering.
  func firstSampleNALTypes(hevc: Bool) -> [Int] { nalUnits(of: 0, hevc: hevc).map(\.type) }

  /// The NAL units of sample `k`: each one's type (HEVC or H.264 numbering) and the byte after
  /// its header (H.264 slices: `first_mb_in_slice` and `slice_type`).
  func nalUnits(of k: Int, hevc: Bool) -> [(type: Int, next: UInt8)] {
    guard samples.indices.contains(k) else { return [] }
    var i = mdat.startIndex + samples[..<k].reduce(0) { $0 + $1.size }
    let end = min(mdat.endIndex, i + samples[k].size)
    var units: [(type: Int, next: UInt8)] = []
    while i + 6 <= end {
      let length = Int(MP4Box.u32(mdat, i))
      let header = mdat[i + 4]
      units.append((hevc ? Int(header >> 1) & 0x3F : Int(header & 0x1F), mdat[i + 5]))
      i += 4 + length
    }
    return units
  }
}

/// The RFC 6381 codecs value a sample entry describes, built here from the entry's own bytes
/// (ISO/IEC 14496-15 A.3.3.1 for `avc1` from `avcC`, E.3 for `hvc1` from `hvcC`).
enum SampleEntryCodecs {
  static func value(_ entry: MP4Box) -> String? {
    switch entry.type {
    case "avc1", "avc3":
      guard let avcC = MP4Box.boxes(entry.children).first(where: { $0.type == "avcC" }) else {
        return nil
      }
      let b = avcC.body
      return entry.type + "."
        + [b[b.startIndex + 1], b[b.startIndex + 2], b[b.startIndex + 3]].map {
          String(format: "%02x", $0)
        }.joined()
    case "hvc1", "hev1":
      guard let hvcC = MP4Box.boxes(entry.children).first(where: { $0.type == "hvcC" }) else {
        return nil
      }
      let b = hvcC.body
      let s = b.startIndex
      let space = Int(b[s + 1] >> 6)
      let tier = b[s + 1] & 0x20 != 0
      let profile = Int(b[s + 1] & 0x1F)
      let compatibility = MP4Box.u32(b, s + 2)
      var reversed: UInt32 = 0
      for bit in 0..<32 where compatibility & (1 << UInt32(bit)) != 0 {
        reversed |= 1 << UInt32(31 - bit)
      }
      var constraints = Array(b[(s + 6)..<(s + 12)])
      while constraints.last == 0 { constraints.removeLast() }
      let level = Int(b[s + 12])
      var text =
        "\(entry.type).\(["", "A", "B", "C"][space])\(profile).\(String(reversed, radix: 16, uppercase: true)).\(tier ? "H" : "L")\(level)"
      for byte in constraints { text += "." + String(byte, radix: 16, uppercase: true) }
      return text
    case "mp4a":
      // esds: ES_Descriptor → DecoderConfigDescriptor (objectTypeIndication) →
      // DecoderSpecificInfo (the audio object type, its first 5 bits): "mp4a.40.2".
      guard let esds = MP4Box.boxes(entry.children).first(where: { $0.type == "esds" }) else {
        return nil
      }
      var b = Array(esds.body.dropFirst(4))[...]
      func descriptor(_ tag: UInt8) -> Bool {
        guard b.first == tag else { return false }
        b = b.dropFirst()
        while let byte = b.first, byte & 0x80 != 0 { b = b.dropFirst() }
        b = b.dropFirst()
        return true
      }
      guard descriptor(0x03), b.count > 3 else { return nil }
      b = b.dropFirst(3)
      guard descriptor(0x04), let object = b.first else { return nil }
      b = b.dropFirst(13)
      guard descriptor(0x05), let first = b.first else { return nil }
      return "mp4a." + String(format: "%02X", object) + ".\(first >> 3)"
    default:
      return entry.type
    }
  }

  /// The NAL unit types of the `hvcC` arrays that hold at least one NAL unit.
  static func hvcCArrays(_ entry: MP4Box) -> Set<Int> {
    guard let hvcC = MP4Box.boxes(entry.children).first(where: { $0.type == "hvcC" }) else {
      return []
    }
    let b = hvcC.body
    var i = b.startIndex + 22
    guard i < b.endIndex else { return [] }
    let arrays = Int(b[i])
    i += 1
    var types: Set<Int> = []
    for _ in 0..<arrays {
      guard i + 3 <= b.endIndex else { break }
      let type = Int(b[i] & 0x3F)
      let count = MP4Box.u16(b, i + 1)
      i += 3
      for _ in 0..<count {
        guard i + 2 <= b.endIndex else { break }
        i += 2 + MP4Box.u16(b, i)
      }
      if count > 0 { types.insert(type) }
    }
    return types
  }
}
