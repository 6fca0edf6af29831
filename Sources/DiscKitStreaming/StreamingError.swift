import DiscKit

/// Why a streaming request fails, with the HTTP status and headers to answer it with.
///
/// The streaming core names no web framework: ``status`` is a plain status code and
/// ``headers`` plain field names, for any server to turn into its own response type (the
/// `DiscKitServer` adapter makes them Hummingbird responses).
public enum StreamingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The disc or the title failed with DiscKit's error (its status: see ``status``).
  case disc(DiscKitError)
  /// A request parameter is wrong (400); the text says which and why.
  case badRequest(String)
  /// A `Range` that no byte of a resource of `size` bytes satisfies (416, with
  /// `Content-Range: bytes */size`).
  case rangeNotSatisfiable(size: Int64)
  /// ``StreamLimiter/maximum`` streams are already running (503, with `Retry-After: 1`).
  case tooManyStreams(maximum: Int)
  /// HLS or the 188-byte view asked of a title whose bytes are not an MPEG transport stream
  /// (404): a DVD title is an MPEG program stream, which HLS cannot carry without remuxing.
  case needsTransportStream(title: String)
  /// A subtitle stream's text is still being recognised (503, with `Retry-After`): `what` names
  /// the stream; ask again after `retryAfter` seconds.
  case recognising(String, retryAfter: Int)

  /// The HTTP status: 404 for what does not exist (an unknown disc or title, a title with no
  /// transport stream), 400 for a bad argument, 416, 503, 500 for I/O, and 422 for a disc DiscKit
  /// cannot read (malformed, truncated, unsupported).
  public var status: Int {
    switch self {
    case .disc(let error):
      switch error.code {
      case .notFound: 404
      case .invalidArgument: 400
      case .io, .cannotCreate, .alreadyExists: 500
      case .wouldBlock: 503
      default: 422
      }
    case .badRequest: 400
    case .rangeNotSatisfiable: 416
    case .tooManyStreams: 503
    case .needsTransportStream: 404
    case .recognising: 503
    }
  }

  /// The header fields the answer needs besides its body (`Content-Range`, `Accept-Ranges`,
  /// `Retry-After`), by field name.
  public var headers: [String: String] {
    switch self {
    case .rangeNotSatisfiable(let size):
      ["Content-Range": "bytes */\(size)", "Accept-Ranges": "bytes"]
    case .tooManyStreams: ["Retry-After": "1"]
    case .recognising(_, let seconds): ["Retry-After": "\(max(1, seconds))"]
    default: [:]
    }
  }

  /// The message for the client, one line.
  public var description: String {
    switch self {
    case .disc(let error): "\(error)"
    case .badRequest(let text): text
    case .rangeNotSatisfiable(let size): "range not satisfiable (size \(size))"
    case .tooManyStreams(let maximum): "\(maximum) streams are already running"
    case .needsTransportStream(let title):
      "title \(title): HLS and 188-byte streams need a transport stream; DVD titles are program streams"
    case .recognising(let what, let seconds):
      "\(what): the text is being recognised; try again in \(max(1, seconds)) s"
    }
  }
}
