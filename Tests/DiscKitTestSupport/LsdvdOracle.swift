@_spi(Formats) import DiscKit
import Foundation
import Testing

/// lsdvd's XML output (`lsdvd -x -Ox`), parsed into what the parity tests compare.
package struct LsdvdOracle {
  package struct Track: Equatable, CustomStringConvertible {
    package var ix = 0
    package var length = ""
    package var vts = 0
    package var ttn = 0
    package var angles = 0
    package var chapters: [String] = []  // "length@startcell"
    package var cells: [String] = []
    package var audio: [String] = []  // "lang/format/channels/streamid"
    package var subpictures: [String] = []  // "lang/streamid"
    /// Per audio stream: lsdvd's `frequency` and `quantization` ("16bit", "drc"...), kept out of
    /// ``description`` and equality (the lsdvd-parity report does not carry them).
    package var audioAttributes: [(frequency: String, quantization: String)] = []
    package static func == (a: Track, b: Track) -> Bool { a.description == b.description }
    package var description: String {
      "track \(ix) len \(length) vts \(vts) ttn \(ttn) angles \(angles) chapters \(chapters) cells \(cells) audio \(audio) subp \(subpictures)"
    }
  }

  package var tracks: [Track] = []
  package var longestTrack = 0

  /// Runs lsdvd on `path` and parses its XML.
  package static func run(_ path: String) throws -> LsdvdOracle {
    let result = try Tool.run("lsdvd", ["-x", "-Ox", path])
    guard result.status == 0 else {
      throw DiscKitError(.io, "lsdvd", at: nil, "exited \(result.status): \(result.stderr)")
    }
    return parse(result.text)
  }

  /// Parses lsdvd's XML (one element per line, as `oxml.c` writes it).
  package static func parse(_ xml: String) -> LsdvdOracle {
    var oracle = LsdvdOracle()
    var stack: [String] = []
    var track = Track()
    var fields: [String: String] = [:]
    for raw in xml.split(separator: "\n") {
      let line = raw.trimmingCharacters(in: .whitespaces)
      guard line.hasPrefix("<"), !line.hasPrefix("<?") else { continue }
      if line.hasPrefix("</") {
        let name = String(line.dropFirst(2).dropLast())
        _ = stack.popLast()
        switch name {
        case "track": oracle.tracks.append(track)
        case "chapter":
          track.chapters.append("\(fields["length"] ?? "")@\(fields["startcell"] ?? "")")
        case "cell": track.cells.append(fields["length"] ?? "")
        case "audio":
          track.audio.append(
            "\(fields["langcode"] ?? "")/\(fields["format"] ?? "")/\(fields["channels"] ?? "")/\(fields["streamid"] ?? "")"
          )
          track.audioAttributes.append(
            (fields["frequency"] ?? "", fields["quantization"] ?? ""))
        case "subp":
          track.subpictures.append("\(fields["langcode"] ?? "")/\(fields["streamid"] ?? "")")
        default: break
        }
        continue
      }
      guard let close = line.firstIndex(of: ">") else { continue }
      let name = String(line[line.index(after: line.startIndex)..<close])
      if line.hasSuffix("</\(name)>") {
        let value = String(
          line[line.index(after: close)..<line.index(line.endIndex, offsetBy: -(name.count + 3))])
        if stack.last == "track" {
          switch name {
          case "ix": track.ix = Int(value) ?? -1
          case "length": track.length = value
          case "vts": track.vts = Int(value) ?? -1
          case "ttn": track.ttn = Int(value) ?? -1
          case "angles": track.angles = Int(value) ?? -1
          default: break
          }
        } else if stack.last == "lsdvd", name == "longest_track" {
          oracle.longestTrack = Int(value) ?? -1
        } else {
          fields[name] = value
        }
      } else {
        stack.append(name)
        if name == "track" { track = Track() }
        fields = [:]
      }
    }
    return oracle
  }

  /// DiscKit's lsdvd-parity report in the same shape.
  package static func from(_ report: LsdvdTitleSelector.Report) -> LsdvdOracle {
    var oracle = LsdvdOracle()
    oracle.longestTrack = report.longestTrack
    for t in report.tracks {
      var track = Track()
      track.ix = t.number
      track.length = String(format: "%.3f", Double(t.lengthMilliseconds) / 1000.0)
      track.vts = t.titleSet
      track.ttn = t.titleInSet
      track.angles = t.angles
      track.chapters = t.chapters.map {
        String(format: "%.3f", Double($0.lengthMilliseconds) * 0.001) + "@\($0.startCell)"
      }
      track.cells = t.cellLengthsMilliseconds.map { String(format: "%.3f", Double($0) / 1000.0) }
      track.audio = t.audio.map {
        "\($0.languageCode)/\($0.format)/\($0.channels)/0x\(String($0.streamID, radix: 16))"
      }
      track.subpictures = t.subpictures.map {
        "\($0.languageCode)/0x\(String($0.streamID, radix: 16))"
      }
      oracle.tracks.append(track)
    }
    return oracle
  }
}

extension LsdvdOracle {
  /// Expects DiscKit's lsdvd report on `folder` to equal `lsdvd -x -Ox` on it.
  package static func compare(_ folder: String) throws {
    let disc = try DVDDisc(fileSystem: try FolderFileSystem(root: folder))
    let ours = LsdvdOracle.from(LsdvdTitleSelector.report(disc))
    let theirs = try LsdvdOracle.run(folder)
    #expect(ours.tracks.count == theirs.tracks.count, "track count in \(folder)")
    for (a, b) in zip(ours.tracks, theirs.tracks) {
      #expect(a == b, "\(folder): DiscKit \(a) vs lsdvd \(b)")
    }
    #expect(ours.longestTrack == theirs.longestTrack, "longest track in \(folder)")
    #expect(!theirs.tracks.isEmpty, "lsdvd listed no titles for \(folder)")
  }
}
