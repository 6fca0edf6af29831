/// What to answer to a GET or HEAD of a ``TitleResource``: the status, the header fields and the
/// bytes of the body, from the request's `Range`, `If-Range` and `If-None-Match` (RFC 9110 §13,
/// §14), with no web framework involved.
///
/// - `If-None-Match` listing the resource's ETag (weak comparison, or `*`): 304, no body.
/// - `Range` (``ByteRangeRequest``), kept only when `If-Range` is absent or names the current
///   strong ETag or the exact `Last-Modified` date: 206 with `Content-Range`, or
///   ``StreamingError/rangeNotSatisfiable(size:)``; otherwise 200 with everything.
///
/// Every answer carries `Accept-Ranges`, `ETag` and `Last-Modified`; 200 and 206 also
/// `Content-Type` and `Content-Length`. A HEAD answer is the same without the body.
public struct TitleResponse: Sendable, Hashable {
  /// 200, 206 or 304.
  public var status: Int
  /// The header fields, by name.
  public var headers: [String: String]
  /// The bytes of the resource to send (empty for 304 and for an empty resource).
  public var range: Range<Int64>

  /// The answer for `resource` to a request with these header values (`nil` when absent).
  ///
  /// - Throws: ``StreamingError/rangeNotSatisfiable(size:)`` for a range no byte satisfies.
  public init(
    resource: TitleResource, range rangeHeader: String?, ifRange: String? = nil,
    ifNoneMatch: String? = nil
  ) throws(StreamingError) {
    try self.init(
      size: resource.length, eTag: resource.eTag, lastModified: resource.lastModified,
      contentType: resource.contentType, range: rangeHeader, ifRange: ifRange,
      ifNoneMatch: ifNoneMatch)
  }

  /// The answer for a resource of `size` bytes with these validators and type (any resource a
  /// server streams: a title, an fMP4 segment) to a request with these header values.
  ///
  /// - Throws: ``StreamingError/rangeNotSatisfiable(size:)`` for a range no byte satisfies.
  public init(
    size: Int64, eTag: String, lastModified: String, contentType: String,
    range rangeHeader: String?, ifRange: String? = nil, ifNoneMatch: String? = nil
  ) throws(StreamingError) {
    headers = ["Accept-Ranges": "bytes", "ETag": eTag, "Last-Modified": lastModified]
    if let ifNoneMatch, Self.matches(ifNoneMatch, eTag) {
      status = 304
      range = 0..<0
      return
    }
    var rangeHeader = rangeHeader
    if rangeHeader != nil, let ifRange = ifRange?.trimmingSpaces {
      // A strong ETag or the exact Last-Modified date keeps the range; anything else sends all.
      let keep = ifRange.hasPrefix("\"") ? ifRange == eTag : ifRange == lastModified
      if !keep { rangeHeader = nil }
    }
    switch ByteRangeRequest(header: rangeHeader, size: size) {
    case .whole:
      status = 200
      range = 0..<size
    case .partial(let r):
      status = 206
      range = r
      headers["Content-Range"] = "bytes \(r.lowerBound)-\(r.upperBound - 1)/\(size)"
    case .unsatisfiable:
      throw .rangeNotSatisfiable(size: size)
    }
    headers["Content-Type"] = contentType
    headers["Content-Length"] = String(range.count)
  }

  /// Whether an `If-None-Match` list matches `eTag` (weak comparison, `*` matches).
  static func matches(_ list: String, _ eTag: String) -> Bool {
    let bare = eTag.hasPrefix("W/") ? String(eTag.dropFirst(2)) : eTag
    for item in list.split(separator: ",") {
      var tag = item.trimmingSpaces
      if tag == "*" { return true }
      if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
      if tag == bare { return true }
    }
    return false
  }
}
