import SystemPackage

/// The one error type of DiscKit.
///
/// Every failure names the on-disc structure it was reading (``structure``) and, when the failure
/// concerns bytes of an image or file, the absolute byte ``offset`` of the problem in that image
/// or file. Errors compare equal by ``code``, ``structure`` and ``offset`` so tests can assert on
/// exactly what went wrong and where.
///
/// ```
/// UDF File Entry at byte 0x8f800 (587776): descriptor tag checksum mismatch (declared 0x12, computed 0x34)
/// ```
public struct DiscKitError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of failure this is.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Value: String, Sendable {
      case truncated, malformed, unsupported, limitExceeded, loop, checksumMismatch
      case notFound, io, cannotOpen, cannotCreate, invalidArgument, alreadyExists, wouldBlock
    }
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// The structure ends before its declared or required length (a truncated image or file).
    public static let truncated = Code(.truncated)
    /// A field holds a value the format does not allow.
    public static let malformed = Code(.malformed)
    /// Valid input that uses a feature DiscKit does not implement.
    public static let unsupported = Code(.unsupported)
    /// A count, length or depth exceeds DiscKit's safety limits (see ``ParsingLimits``).
    public static let limitExceeded = Code(.limitExceeded)
    /// A chain of on-disc pointers (descriptors, extents, directories) loops back on itself.
    public static let loop = Code(.loop)
    /// A checksum or CRC does not match the data it covers.
    public static let checksumMismatch = Code(.checksumMismatch)
    /// A path, title or stream that was asked for does not exist.
    public static let notFound = Code(.notFound)
    /// The operating system reported an I/O error.
    public static let io = Code(.io)
    /// An input could not be opened.
    public static let cannotOpen = Code(.cannotOpen)
    /// An output could not be created.
    public static let cannotCreate = Code(.cannotCreate)
    /// An argument is out of range or inconsistent.
    public static let invalidArgument = Code(.invalidArgument)
    /// An output exists and would be overwritten.
    public static let alreadyExists = Code(.alreadyExists)
    /// A read would have waited for the disk where only page-cached bytes were allowed
    /// (``ResidentReads``): read again where blocking is fine.
    public static let wouldBlock = Code(.wouldBlock)

    public var description: String { value.rawValue }
  }

  /// What kind of failure this is.
  public var code: Code
  /// The structure being read, e.g. `"UDF File Entry"` or `"MPLS PlayItem"`.
  public var structure: String
  /// The absolute byte offset of the problem in the image or file, when it concerns bytes.
  public var offset: Int64?
  /// A human-readable explanation with the values involved.
  public var detail: String
  /// The error that caused this one, when DiscKit wraps another failure: for an operating-system
  /// failure an `Errno` (swift-system), so callers can tell `ENOSPC` from `EIO` without parsing
  /// ``detail``. Not part of equality.
  public var underlying: (any Error & Sendable)?

  /// Creates an error.
  public init(
    _ code: Code, _ structure: String, at offset: Int64? = nil, _ detail: String,
    underlying: (any Error & Sendable)? = nil
  ) {
    self.code = code
    self.structure = structure
    self.offset = offset
    self.detail = detail
    self.underlying = underlying
  }

  /// The `errno` of the operating-system failure behind this error, if any.
  public var errno: Errno? { underlying as? Errno }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.code == rhs.code && lhs.structure == rhs.structure && lhs.offset == rhs.offset
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
    hasher.combine(structure)
    hasher.combine(offset)
  }

  public var description: String {
    var text = structure
    if let offset { text += " at byte 0x\(String(offset, radix: 16)) (\(offset))" }
    return text + ": " + detail
  }

  // MARK: Convenience constructors

  /// The structure needs `needed` bytes at `offset` but the source ends first.
  public static func truncated(_ structure: String, at offset: Int64, needed: Int64) -> Self {
    DiscKitError(
      .truncated, structure, at: offset, "needs \(needed) bytes, but the data ends first")
  }

  /// A field has a value the format does not allow.
  public static func malformed(_ structure: String, at offset: Int64?, _ detail: String) -> Self {
    DiscKitError(.malformed, structure, at: offset, detail)
  }

  /// A count or length exceeds a safety limit.
  public static func limit(_ structure: String, at offset: Int64?, _ detail: String) -> Self {
    DiscKitError(.limitExceeded, structure, at: offset, detail)
  }
}
