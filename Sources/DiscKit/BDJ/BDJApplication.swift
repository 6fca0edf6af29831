/// An application (Xlet) of a BD-J object's application management table.
@_spi(Formats)
public struct BDJApplication: Sendable, Hashable {
  /// A profile the application needs.
  public struct Profile: Sendable, Hashable {
    /// 1: BD-ROM profile 1, 2: profile 2 ...
    public var profile: UInt16
    /// The major version.
    public var major: UInt8
    /// The minor version.
    public var minor: UInt8
    /// The micro version.
    public var micro: UInt8

    /// Creates a profile.
    package init(profile: UInt16, major: UInt8, minor: UInt8, micro: UInt8) {
      self.profile = profile
      self.major = major
      self.minor = minor
      self.micro = micro
    }
  }

  /// An informative name in one language.
  public struct Name: Sendable, Hashable {
    /// ISO 639-2 language code.
    public var language: String
    /// The name (UTF-8).
    public var name: String

    /// Creates a name.
    package init(language: String, name: String) {
      self.language = language
      self.name = name
    }
  }

  /// 1: autostart (starts with the title), 2: present (started by another application).
  public var controlCode: UInt8
  /// 1: a BD-J application (4 bits).
  public var type: UInt8
  /// The organization id.
  public var organizationID: UInt32
  /// The application id.
  public var applicationID: UInt16
  /// The profiles.
  public var profiles: [Profile]
  /// The priority.
  public var priority: UInt8
  /// Title/disc binding (2 bits).
  public var binding: UInt8
  /// Visibility (2 bits).
  public var visibility: UInt8
  /// The names.
  public var names: [Name]
  /// The icon locator (relative to the base directory).
  public var iconLocator: String
  /// The icon flags.
  public var iconFlags: UInt16
  /// The base directory: `00000` is the root of `00000.jar`, `00000/base` its folder `base/`.
  public var baseDirectory: String
  /// The class path extension (`;`-separated).
  public var classpathExtension: String
  /// The initial class (`com.studio.MenuXlet`).
  public var initialClassName: String
  /// The parameters passed to the Xlet.
  public var parameters: [String]

  /// Whether the application starts by itself with its title.
  public var isAutostart: Bool { controlCode == 1 }

  /// The five-digit JAR name of ``baseDirectory`` (`00000` for `00000/base`).
  public var jarName: String { String(baseDirectory.prefix { $0 != "/" }) }

  /// Parses one application (its header and its application descriptor).
  package init(parsing r: inout BinaryReader) throws(DiscKitError) {
    controlCode = try r.readUInt8()
    type = try r.readUInt8() >> 4
    organizationID = try r.readUInt32BE()
    applicationID = try r.readUInt16BE()
    try r.skip(2)
    let descriptorLength = Int(try r.readUInt32BE())
    let descriptorStart = r.relativePosition
    try r.skip(4)
    let profileCount = Int(try r.readUInt8() >> 4)
    try r.skip(1)
    profiles = []
    for _ in 0..<profileCount {
      let number = try r.readUInt16BE()
      let major = try r.readUInt8()
      let minor = try r.readUInt8()
      let micro = try r.readUInt8()
      try r.skip(1)
      profiles.append(Profile(profile: number, major: major, minor: minor, micro: micro))
    }
    priority = try r.readUInt8()
    let flags = try r.readUInt8()
    binding = flags >> 6
    visibility = (flags >> 4) & 3
    let namesLength = Int(try r.readUInt16BE())
    var n = try r.slice(namesLength)
    names = []
    // As libbluray: names whose lengths do not add up to the declared total are ignored.
    while n.remaining >= 4 {
      let language = BDJObject.text(try n.readBytes(3))
      let length = Int(try n.readUInt8())
      guard length <= n.remaining else {
        names = []
        break
      }
      names.append(Name(language: language, name: BDJObject.text(try n.readBytes(length))))
    }
    if n.remaining != 0 { names = [] }
    try r.skip(namesLength & 1)
    func aligned(_ r: inout BinaryReader) throws(DiscKitError) -> String {
      let length = Int(try r.readUInt8())
      let text = BDJObject.text(try r.readBytes(length))
      if length & 1 == 0 { try r.skip(1) }
      return text
    }
    iconLocator = try aligned(&r)
    iconFlags = try r.readUInt16BE()
    baseDirectory = try aligned(&r)
    classpathExtension = try aligned(&r)
    initialClassName = try aligned(&r)
    let parameterBytes = Int(try r.readUInt8())
    var p = try r.slice(parameterBytes)
    parameters = []
    while p.remaining >= 1 {
      let length = Int(try p.readUInt8())
      guard length <= p.remaining else {
        parameters = []
        break
      }
      parameters.append(BDJObject.text(try p.readBytes(length)))
    }
    if parameterBytes & 1 == 0 { try r.skip(1) }
    // A descriptor longer than what was read carries fields of a later version: skip them.
    let end = descriptorStart + descriptorLength
    if end > r.relativePosition, end <= r.count { try r.seek(toRelative: end) }
  }
}

extension BDJApplication {
  /// Creates an application (for authoring, tests and the reference bridge).
  package init(
    controlCode: UInt8, type: UInt8 = 1, organizationID: UInt32, applicationID: UInt16,
    profiles: [Profile] = [], priority: UInt8 = 1, binding: UInt8 = 0, visibility: UInt8 = 0,
    names: [Name] = [], iconLocator: String = "", iconFlags: UInt16 = 0, baseDirectory: String,
    classpathExtension: String = "", initialClassName: String, parameters: [String] = []
  ) {
    self.controlCode = controlCode
    self.type = type
    self.organizationID = organizationID
    self.applicationID = applicationID
    self.profiles = profiles
    self.priority = priority
    self.binding = binding
    self.visibility = visibility
    self.names = names
    self.iconLocator = iconLocator
    self.iconFlags = iconFlags
    self.baseDirectory = baseDirectory
    self.classpathExtension = classpathExtension
    self.initialClassName = initialClassName
    self.parameters = parameters
  }
}
