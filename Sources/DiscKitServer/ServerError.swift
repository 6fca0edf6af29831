import DiscKit
import Foundation
import HTTPTypes
import Hummingbird

/// An error answered with a status and `{"error": "..."}`.
public struct ServerError: Error, Sendable {
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

  /// The status for a DiscKit error: 404 for what does not exist, 400 for a bad argument, 422 for
  /// a malformed or unsupported disc, 500 for I/O.
  public static func status(for error: DiscKitError) -> HTTPResponse.Status {
    switch error.code {
    case .notFound: .notFound
    case .invalidArgument: .badRequest
    case .io, .cannotCreate, .alreadyExists: .internalServerError
    default: .unprocessableContent
    }
  }

  /// The error of a DiscKit error: its one-line description.
  public init(_ error: DiscKitError) {
    self.init(Self.status(for: error), "\(error)")
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
