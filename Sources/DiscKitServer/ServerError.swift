import DiscKit
import DiscKitStreaming
import HTTPTypes
import Hummingbird

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An error answered with a status and `{"error": "..."}`: the streaming core's
/// ``DiscKitStreaming/StreamingError`` as a Hummingbird response, and the adapter's own refusals
/// (401, 405, 414, a malformed request target).
public struct ServerError: Error, Sendable, HTTPResponseError {
  /// The status to answer with.
  public var status: HTTPResponse.Status
  /// The message.
  public var message: String
  /// Extra headers (`Allow`, `Retry-After`, `WWW-Authenticate`, `Content-Range`).
  public var headers: HTTPFields

  /// Creates an error.
  public init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
    self.status = status
    self.message = message
    self.headers = headers
  }

  /// The error of a streaming error: its status, headers and one-line description.
  public init(_ error: StreamingError) {
    var fields = HTTPFields()
    for (name, value) in error.headers.sorted(by: { $0.key < $1.key }) {
      if let name = HTTPField.Name(name) { fields[name] = value }
    }
    self.init(HTTPResponse.Status(code: error.status), error.description, headers: fields)
  }

  /// The error of a DiscKit error (``DiscKitStreaming/StreamingError/disc(_:)``): 404 for what
  /// does not exist, 400 for a bad argument, 422 for a malformed or unsupported disc, 500 for I/O.
  public init(_ error: DiscKitError) {
    self.init(StreamingError.disc(error))
  }

  /// The JSON response (Hummingbird's `HTTPResponseError`).
  public func response(from request: Request, context: some RequestContext) throws -> Response {
    response()
  }

  /// The JSON response.
  public func response() -> Response {
    var fields = headers
    fields[.contentType] = "application/json; charset=utf-8"
    var buffer = ByteBuffer()
    let body = (try? JSONEncoder.disckit.encode(["error": message])) ?? Data("{}".utf8)
    buffer.writeBytes(body)
    buffer.writeString("\n")
    return Response(status: status, headers: fields, body: .init(byteBuffer: buffer))
  }
}

extension JSONEncoder {
  /// The encoder of every JSON document (as `disckit --json`: sorted keys, unescaped slashes).
  static var disckit: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}

/// A JSON response from already encoded text or an Encodable value.
enum JSONResponse {
  static func make(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
    var buffer = ByteBuffer()
    buffer.writeString(text)
    if !text.hasSuffix("\n") { buffer.writeString("\n") }
    return Response(
      status: status, headers: [.contentType: "application/json; charset=utf-8"],
      body: .init(byteBuffer: buffer))
  }

  static func make(_ value: some Encodable) throws -> Response {
    let data = try JSONEncoder.disckit.encode(value)
    return make(String(decoding: data, as: UTF8.self))
  }
}
