/// `BDMV/MovieObject.bdmv`: the HDMV movie objects (programs of navigation commands).
@_spi(Formats)
public struct MovieObjectFile: Sendable, Hashable, Codable {
  /// One movie object.
  public struct MovieObject: Sendable, Hashable, Codable {
    /// `resume_intention_flag`.
    public var resumeIntention: Bool
    /// `menu_call_mask`: menu calls are forbidden while the object runs.
    public var menuCallMask: Bool
    /// `title_search_mask`: title search is forbidden while the object runs.
    public var titleSearchMask: Bool
    /// The navigation commands, in program order.
    public var commands: [NavigationCommand]
  }

  /// The header version.
  public var version: BDMVVersion
  /// The objects, indexed by the movie object numbers index.bdmv refers to.
  public var objects: [MovieObject]

  /// Parses a whole `MovieObject.bdmv`.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    version = try BDMVVersion.readHeader(&reader, type: "MOBJ")
    guard reader.count >= 50 else {
      throw DiscKitError.truncated(
        reader.structure, at: reader.absoluteOffset(ofRelative: 8), needed: 42)
    }
    try reader.seek(toRelative: 40)
    _ = try reader.readUInt32BE()
    try reader.skip(4)
    let count = Int(try reader.readUInt16BE())
    guard count * 4 <= reader.remaining else {
      throw reader.malformed("\(count) movie objects do not fit in the file")
    }
    objects = []
    for index in 0..<count {
      let flags = try reader.readUInt16BE()
      let commandCount = Int(try reader.readUInt16BE())
      guard commandCount * 12 <= reader.remaining else {
        throw reader.error(
          .truncated,
          "movie object \(index) declares \(commandCount) commands, only \(reader.remaining / 12) fit"
        )
      }
      var commands: [NavigationCommand] = []
      commands.reserveCapacity(commandCount)
      for _ in 0..<commandCount {
        commands.append(
          NavigationCommand(
            instruction: try reader.readUInt32BE(), destination: try reader.readUInt32BE(),
            source: try reader.readUInt32BE()))
      }
      objects.append(
        MovieObject(
          resumeIntention: flags & 0x8000 != 0, menuCallMask: flags & 0x4000 != 0,
          titleSearchMask: flags & 0x2000 != 0, commands: commands))
    }
  }

  /// Parses `MovieObject.bdmv` from its bytes.
  public init(bytes: [UInt8], name: String = "MovieObject.bdmv") throws(DiscKitError) {
    var reader = BinaryReader(bytes, structure: name)
    try self.init(parsing: &reader)
  }

  /// What a movie object (following immediate jumps/calls to other objects) plays.
  public struct Reach: Sendable, Hashable {
    /// Playlist numbers played with an immediate operand, or through a register last set by an
    /// immediate `Move` earlier in the same object (a static approximation).
    public var playlists: [Int] = []
    /// Whether some `PlayPL` takes a register DiscKit cannot resolve statically.
    public var hasUnknownPlaylist = false
  }

  /// The playlists object `index` plays, following `JumpObject`/`CallObject` with immediate
  /// operands (each object visited once). Jumps to titles are not followed.
  public func playlists(reachableFrom index: Int) -> Reach {
    var reach = Reach()
    var visited = Set<Int>()
    var queue = [index]
    while let current = queue.popLast() {
      guard current >= 0, current < objects.count, visited.insert(current).inserted else {
        continue
      }
      var registers: [UInt32: UInt32] = [:]
      for command in objects[current].commands {
        switch command.action {
        case .move(let register, .immediate(let value)):
          registers[register] = value
        case .move(let register, _):
          registers[register] = nil
        case .playPlaylist(.immediate(let value)):
          if !reach.playlists.contains(Int(value)) { reach.playlists.append(Int(value)) }
        case .playPlaylist(.generalRegister(let register)):
          if let value = registers[register] {
            if !reach.playlists.contains(Int(value)) { reach.playlists.append(Int(value)) }
          } else {
            reach.hasUnknownPlaylist = true
          }
        case .playPlaylist:
          reach.hasUnknownPlaylist = true
        case .jumpObject(.immediate(let value), _):
          queue.append(Int(value))
        default:
          break
        }
      }
    }
    return reach
  }
}

extension MovieObjectFile {
  /// Creates a movie object file (for authoring and tests).
  public init(version: BDMVVersion = .v0200, objects: [MovieObject]) {
    self.version = version
    self.objects = objects
  }
}

extension MovieObjectFile.MovieObject {
  /// Creates a movie object.
  public init(commands: [NavigationCommand], resumeIntention: Bool = false) {
    self.resumeIntention = resumeIntention
    self.menuCallMask = false
    self.titleSearchMask = false
    self.commands = commands
  }
}
