import FlyingFox
import Foundation
import RaindropLocal
import RaindropModel

/// The endpoints the stand-in serves, with the names the request counts use.
enum Route {
  case user, userStats
  case collections, childCollections, collection(Int), createCollection, deleteCollection(Int)
  case listBookmarks(Int), bulkUpdate(Int), bulkDelete(Int), createBookmarks
  case bookmark(Int), createBookmark, updateBookmark(Int), deleteBookmark(Int)
  case exists

  var name: String {
    switch self {
    case .user: "GET /user"
    case .userStats: "GET /user/stats"
    case .collections: "GET /collections"
    case .childCollections: "GET /collections/childrens"
    case .collection: "GET /collection/{id}"
    case .createCollection: "POST /collection"
    case .deleteCollection: "DELETE /collection/{id}"
    case .listBookmarks: "GET /raindrops/{collectionId}"
    case .bulkUpdate: "PUT /raindrops/{collectionId}"
    case .bulkDelete: "DELETE /raindrops/{collectionId}"
    case .createBookmarks: "POST /raindrops"
    case .bookmark: "GET /raindrop/{id}"
    case .createBookmark: "POST /raindrop"
    case .updateBookmark: "PUT /raindrop/{id}"
    case .deleteBookmark: "DELETE /raindrop/{id}"
    case .exists: "POST /import/url/exists"
    }
  }
}

extension Router {
  static func route(method: String, segments: [String]) -> Route? {
    guard segments.count >= 3, segments[0] == "rest", segments[1] == "v1" else { return nil }
    let rest = Array(segments.dropFirst(2))
    let id = rest.count == 2 ? Int(rest[1]) : nil
    switch (method, rest.count, rest[0]) {
    case ("GET", 1, "user"): return .user
    case ("GET", 2, "user") where rest[1] == "stats": return .userStats
    case ("GET", 1, "collections"): return .collections
    case ("GET", 2, "collections") where rest[1] == "childrens": return .childCollections
    case ("GET", 2, "collection"): return id.map(Route.collection)
    case ("POST", 1, "collection"): return .createCollection
    case ("DELETE", 2, "collection"): return id.map(Route.deleteCollection)
    case ("GET", 2, "raindrops"): return id.map(Route.listBookmarks)
    case ("PUT", 2, "raindrops"): return id.map(Route.bulkUpdate)
    case ("DELETE", 2, "raindrops"): return id.map(Route.bulkDelete)
    case ("POST", 1, "raindrops"): return .createBookmarks
    case ("GET", 2, "raindrop"): return id.map(Route.bookmark)
    case ("POST", 1, "raindrop"): return .createBookmark
    case ("PUT", 2, "raindrop"): return id.map(Route.updateBookmark)
    case ("DELETE", 2, "raindrop"): return id.map(Route.deleteBookmark)
    case ("POST", 3, "import") where rest[1] == "url" && rest[2] == "exists": return .exists
    default: return nil
    }
  }

  func respond(_ route: Route, query: [FlyingFox.HTTPRequest.QueryItem], body: Data) async -> StubAnswer {
    let parameters = Dictionary(query.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    let json: [String: Any]
    if body.isEmpty {
      json = [:]
    } else if let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] {
      json = object
    } else {
      return .json(400, ["result": false, "error": "body", "errorMessage": "Unexpected token in JSON"])
    }
    do {
      return try await answer(route, parameters: parameters, json: json)
    } catch {
      return Self.errorAnswer(error)
    }
  }

  private static func errorAnswer(_ error: RaindropError) -> StubAnswer {
    switch error {
    case .notFound: .json(404, ["result": false, "status": 404, "errorMessage": "Not found"])
    case .invalidRequest(let message):
      .json(400, ["result": false, "error": String(message.prefix(while: { $0 != ":" })), "errorMessage": message])
    case .tooLarge(let message): .json(413, ["result": false, "status": 413, "errorMessage": message])
    default: .json(500, ["result": false, "status": 500, "errorMessage": error.description])
    }
  }

  private static let tooManyIDs = RaindropError.tooLarge(message: "ids array is larger than max 100 or empty")

  private func answer(_ route: Route, parameters: [String: String], json: [String: Any]) async throws(RaindropError)
    -> StubAnswer
  {
    switch route {
    case .user:
      let user = try await store.currentUser()
      return .json(200, ["result": true, "user": Self.userJSON(user)])
    case .userStats:
      let system = try await store.systemCollections()
      return .json(
        200,
        [
          "result": true, "items": system.map { ["_id": $0.id, "count": $0.count] },
          "meta": [
            "_id": LocalBackend.localUser.id, "pro": false, "changedBookmarksDate": RaindropDate.format(Date()),
          ],
        ])
    case .collections:
      let roots = try await store.userCollections().filter { $0.parentId == nil }
      return .json(200, ["result": true, "items": roots.map(Self.collectionJSON)])
    case .childCollections:
      // The real endpoint was seen to include root collections too (reference §3.2); so does this one.
      let all = try await store.userCollections()
      return .json(200, ["result": true, "items": all.map(Self.collectionJSON)])
    case .collection(let id):
      return .json(200, ["result": true, "item": Self.collectionJSON(try await store.collection(id: id))])
    case .createCollection:
      let title = json["title"] as? String ?? ""
      let created = try await store.createCollection(
        NewCollection(title: title, parentId: Self.reference(json["parent"])))
      return .json(200, ["result": true, "item": Self.collectionJSON(created)])
    case .deleteCollection(let id):
      try await store.deleteCollection(id: id)
      return .json(200, ["result": true])
    case .listBookmarks(let collectionId):
      return try await list(collectionId, parameters)
    case .bulkUpdate(let collectionId):
      let ids = json["ids"].map(Self.integers)
      if let ids, ids.isEmpty || ids.count > BulkChange.maximumIDsPerRequest { throw Self.tooManyIDs }
      var change = BulkChange()
      if let tags = json["tags"] as? [String] {
        // `tags` appends on this endpoint; an empty list removes them all (reference §3.5).
        if tags.isEmpty { change.clearTags = true } else { change.addTags += tags }
      }
      change.addTags += json["addTags"] as? [String] ?? []
      change.removeTags = json["deleteTags"] as? [String] ?? []
      change.important = json["important"] as? Bool
      change.moveTo = Self.reference(json["collection"])
      let modified = try await store.bulkUpdate(
        collectionId: collectionId, ids: ids, search: parameters["search"], change)
      return .json(200, ["result": true, "modified": modified])
    case .bulkDelete(let collectionId):
      let ids = json["ids"].map(Self.integers)
      if let ids, ids.isEmpty || ids.count > BulkChange.maximumIDsPerRequest { throw Self.tooManyIDs }
      let modified = try await store.bulkDelete(collectionId: collectionId, ids: ids, search: parameters["search"])
      return .json(200, ["result": true, "modified": modified])
    case .createBookmarks:
      let items = json["items"] as? [[String: Any]] ?? []
      guard !items.isEmpty, items.count <= BulkChange.maximumIDsPerRequest else { throw Self.tooManyIDs }
      var created: [[String: Any]] = []
      for item in items {
        var object = Self.bookmarkJSON(try await store.createBookmark(try Self.newBookmark(item)))
        object["creatorRef"] = LocalBackend.localUser.id  // a bare integer in bulk-create answers (reference §3.3)
        created.append(object)
      }
      return .json(200, ["result": true, "items": created])
    case .bookmark(let id):
      return .json(200, ["result": true, "item": Self.bookmarkJSON(try await store.bookmark(id: id)), "author": true])
    case .createBookmark:
      let created = try await store.createBookmark(try Self.newBookmark(json))
      var object = Self.bookmarkJSON(created)
      object["__v"] = 0
      return .json(200, ["result": true, "item": object])
    case .updateBookmark(let id):
      let changes = BookmarkChanges(
        link: json["link"] as? String, title: json["title"] as? String, excerpt: json["excerpt"] as? String,
        note: json["note"] as? String, tags: json["tags"] as? [String], important: json["important"] as? Bool,
        collectionId: Self.reference(json["collection"]),
        type: (json["type"] as? String).flatMap(BookmarkType.init(rawValue:))
      )
      return .json(200, ["result": true, "item": Self.bookmarkJSON(try await store.updateBookmark(id: id, changes))])
    case .deleteBookmark(let id):
      switch try await store.deleteBookmark(id: id) {
      case .movedToTrash(let bookmark):
        var object = Self.bookmarkJSON(bookmark)
        object["order"] = 0
        return .json(200, ["result": true, "item": object])
      case .removedPermanently:
        return .json(200, ["result": true])
      }
    case .exists:
      let urls = json["urls"] as? [String] ?? []
      var duplicates: [[String: Any]] = []
      for url in urls {
        for id in try await store.existingBookmarkIDs(link: url) { duplicates.append(["link": url, "_id": id]) }
      }
      let ids = duplicates.compactMap { $0["_id"] as? Int }
      guard let first = ids.first else { return .json(200, ["result": false, "ids": [Int]()]) }
      return .json(200, ["result": true, "ids": ids, "duplicates": duplicates, "id": first])
    }
  }

  private func list(_ collectionId: Int, _ parameters: [String: String]) async throws(RaindropError) -> StubAnswer {
    let sort = parameters["sort"].flatMap(BookmarkSort.init(rawValue:)) ?? .default
    let perPage = parameters["perpage"].flatMap(Int.init) ?? BookmarkListQuery.defaultPerPage
    let page = parameters["page"].flatMap(Int.init) ?? 0
    let nested = parameters["nested"] == "true"
    var items: [Bookmark]
    let count: Int
    if let idList = parameters["ids"] {
      // `GET /raindrops/0?ids=1,2,3` (the vendor app's, reference §3.5).
      let wanted = Set(idList.split(separator: ",").compactMap { Int($0) })
      let all = try await store.allBookmarks(BookmarkListQuery(collectionId: collectionId, sort: sort))
      items = all.filter { wanted.contains($0.id) }
      count = items.count
    } else {
      let result = try await store.bookmarks(
        BookmarkListQuery(
          collectionId: collectionId, search: parameters["search"], sort: sort, page: page, perPage: perPage,
          nested: nested)
      )
      items = result.items
      count = result.count
    }
    return .json(
      200, ["result": true, "items": items.map(Self.bookmarkJSON), "count": count, "collectionId": collectionId])
  }

  // MARK: - JSON

  static func integers(_ value: Any) -> [Int] {
    (value as? [Any] ?? []).compactMap { ($0 as? Int) ?? ($0 as? String).flatMap(Int.init) }
  }

  /// `{"$id": N}`; anything else is ignored, as Raindrop ignores it (the item lands in Unsorted).
  static func reference(_ value: Any?) -> Int? {
    guard let object = value as? [String: Any] else { return nil }
    return object["$id"] as? Int
  }

  static func newBookmark(_ json: [String: Any]) throws(RaindropError) -> NewBookmark {
    guard let link = json["link"] as? String, !link.isEmpty else {
      throw .invalidRequest(message: "link: Path `link` is required.")
    }
    return NewBookmark(
      link: link, title: json["title"] as? String, excerpt: json["excerpt"] as? String, note: json["note"] as? String,
      tags: json["tags"] as? [String] ?? [], important: json["important"] as? Bool ?? false,
      collectionId: reference(json["collection"]),
      type: (json["type"] as? String).flatMap(BookmarkType.init(rawValue:)),
      created: (json["created"] as? String).flatMap(RaindropDate.parse), parse: json["pleaseParse"] != nil
    )
  }

  static func userJSON(_ user: RaindropUser) -> [String: Any] {
    [
      "_id": user.id, "fullName": user.name, "name": user.name, "email": user.email, "avatar": "", "pro": user.pro,
      "groups": [["title": "My Collections", "hidden": false, "sort": 0, "collections": [Int]()]],
      "config": ["raindrops_sort": "-created"], "password": true, "tfa": ["enabled": false],
    ]
  }

  private static var creator: [String: Any] {
    ["_id": LocalBackend.localUser.id, "name": LocalBackend.localUser.name, "avatar": "", "email": ""]
  }

  static func bookmarkJSON(_ bookmark: Bookmark) -> [String: Any] {
    var object: [String: Any] = [
      "_id": bookmark.id, "link": bookmark.link, "title": bookmark.title, "excerpt": bookmark.excerpt,
      "note": bookmark.note, "type": bookmark.type.rawValue,
      "user": ["$ref": "users", "$id": LocalBackend.localUser.id],
      "cover": bookmark.cover, "tags": bookmark.tags, "removed": bookmark.removed,
      "collection": ["$ref": "collections", "$id": bookmark.collectionId, "oid": bookmark.collectionId],
      "media": [Any](), "created": RaindropDate.format(bookmark.created),
      "lastUpdate": RaindropDate.format(bookmark.lastUpdate), "domain": bookmark.domain, "creatorRef": creator,
      "sort": bookmark.sort, "highlights": [Any](), "collectionId": bookmark.collectionId,
    ]
    // Absent when false, as observed (reference §3.3).
    if bookmark.important { object["important"] = true }
    return object
  }

  static func collectionJSON(_ collection: BookmarkCollection) -> [String: Any] {
    let created = RaindropDate.format(collection.created ?? Date(timeIntervalSince1970: 0))
    let slug = collection.title.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(
      separator: "-")
    return [
      "_id": collection.id, "title": collection.title, "description": "", "count": collection.count,
      "user": ["$ref": "users", "$id": LocalBackend.localUser.id], "public": false, "view": "list", "cover": [String](),
      "sort": 0, "expanded": true, "creatorRef": creator, "lastAction": created, "created": created,
      "lastUpdate": RaindropDate.format(collection.lastUpdate ?? Date(timeIntervalSince1970: 0)),
      "parent": collection.parentId.map { ["$ref": "collections", "$id": $0] as [String: Any] } ?? NSNull(),
      "slug": slug, "access": ["for": LocalBackend.localUser.id, "level": 4, "root": false, "draggable": true],
      "author": true,
    ]
  }
}
