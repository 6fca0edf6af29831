import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Every JSON document the server answers with is valid against its schema in
/// Sources/DiscKit/Documents/Schemas (python3-jsonschema, an independent validator), and decodes
/// into the library's document type, which re-encodes to the same JSON.
@Suite(
  "disckit serve documents against their schemas", .serialized,
  .enabled(if: ServerFixture.ready, ServerFixture.notReady),
  .enabled(if: JSONSchemaValidator.available, "needs python3-jsonschema"), .toolThreads)
struct ServerDocumentSchemaTests {
  /// Validates `reply`'s body against `schema`, and the library type `T` round-trips it.
  func check<T: Codable>(_ reply: Curl.Reply, _ schema: String, as type: T.Type, _ what: String)
    throws
  {
    let problems = try JSONSchemaValidator.problems(reply.body, schema: schema)
    #expect(problems.isEmpty, "\(what): \(problems)")
    let decoded = try JSONDecoder().decode(T.self, from: reply.body)
    let again = try JSONEncoder().encode(decoded)
    let original = try JSONSerialization.jsonObject(with: reply.body) as? NSDictionary
    let reencoded = try JSONSerialization.jsonObject(with: again) as? NSDictionary
    #expect(original != nil && original == reencoded, "\(what): the library type changes the JSON")
  }

  @Test func everyDocumentFollowsItsSchema() throws {
    let fixture = try ServerFixture()
    let server = try fixture.start()
    try check(
      try Curl.get(server.base + "/status"), "status", as: StatusDocument.self, "/status")
    let list = try Curl.get(server.base + "/discs")
    try check(list, "disc-list", as: DiscListDocument.self, "/discs")
    let discs = try JSONDecoder().decode(DiscListDocument.self, from: list.body).discs
    #expect(discs.count >= 7)
    var chaptersChecked = 0
    for disc in discs {
      let reply = try Curl.get(server.base + "/discs/\(disc.id)")
      if disc.error != nil {
        #expect(reply.status == 422)
        try check(reply, "error", as: ErrorDocument.self, "/discs/\(disc.path)")
        continue
      }
      #expect(reply.status == 200)
      try check(reply, "disc-info", as: DiscInfoDocument.self, "/discs/\(disc.path)")
      let titles = try Curl.get(server.base + "/discs/\(disc.id)/titles")
      try check(titles, "titles", as: TitlesDocument.self, "/discs/\(disc.path)/titles")
      guard let main = disc.mainTitle else { continue }
      let chapters = try Curl.get(server.base + "/discs/\(disc.id)/titles/\(main)/chapters")
      #expect(chapters.status == 200)
      try check(chapters, "chapters", as: ChaptersDocument.self, "\(disc.path) chapters")
      chaptersChecked += 1
    }
    #expect(chaptersChecked >= 4)
    let missing = try Curl.get(server.base + "/discs/nonexistent")
    #expect(missing.status == 404)
    try check(missing, "error", as: ErrorDocument.self, "/discs/nonexistent")
  }
}
