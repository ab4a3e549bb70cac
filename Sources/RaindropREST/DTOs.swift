import FoundationEssentials
import RaindropModel

/// A coding key made from any string, for the tolerant decoders below.
struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key == AnyKey {
  /// The value, or nil when it is absent, null or of another type: Raindrop's responses "could contain other
  /// fields" and leave fields out, and the vendor's own decoder reads every field with `try?` (reference §2).
  func lenient<T: Decodable>(_ key: String, as type: T.Type = T.self) -> T? {
    (try? decodeIfPresent(T.self, forKey: AnyKey(key))) ?? nil
  }

  func date(_ key: String) -> Date? { lenient(key, as: String.self).flatMap(RaindropDate.parse) }

  /// An id given as `{"$id": N}` (a reference, `collection`), as `{"_id": N}` (`creatorRef`) or as N.
  func reference(_ key: String) -> Int? {
    if let number = lenient(key, as: Int.self) { return number }
    guard let object = try? nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(key)) else { return nil }
    return object.lenient("$id", as: Int.self) ?? object.lenient("_id", as: Int.self)
  }
}

/// A raindrop as the API sends it.
struct RaindropDTO: Decodable {
  var bookmark: Bookmark
  /// `creatorRef`: an object in most responses, a bare integer in bulk-create ones (reference §3.3).
  var creatorId: Int?

  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: AnyKey.self)
    guard let id = c.lenient("_id", as: Int.self) else {
      throw DecodingError.keyNotFound(
        AnyKey("_id"), .init(codingPath: c.codingPath, debugDescription: "a raindrop without _id"))
    }
    let link = c.lenient("link", as: String.self) ?? ""
    let created = c.date("created") ?? Date(timeIntervalSince1970: 0)
    let collectionId =
      c.reference("collection") ?? c.lenient("collectionId", as: Int.self) ?? SystemCollection.unsorted.rawValue
    bookmark = Bookmark(
      id: id,
      link: link,
      title: c.lenient("title", as: String.self) ?? link,
      excerpt: c.lenient("excerpt", as: String.self) ?? "",
      note: c.lenient("note", as: String.self) ?? "",
      type: c.lenient("type", as: String.self).flatMap(BookmarkType.init(rawValue:)) ?? .link,
      tags: c.lenient("tags", as: [String].self) ?? [],
      important: c.lenient("important", as: Bool.self) ?? false,
      collectionId: collectionId,
      cover: c.lenient("cover", as: String.self) ?? "",
      domain: c.lenient("domain", as: String.self),
      created: created,
      lastUpdate: c.date("lastUpdate") ?? created,
      sort: c.lenient("sort", as: Int.self) ?? id,
      removed: c.lenient("removed", as: Bool.self) ?? (collectionId == SystemCollection.trash.rawValue)
    )
    creatorId = c.reference("creatorRef")
  }
}

/// A collection as the API sends it.
struct CollectionDTO: Decodable {
  var collection: BookmarkCollection

  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: AnyKey.self)
    guard let id = c.lenient("_id", as: Int.self) else {
      throw DecodingError.keyNotFound(
        AnyKey("_id"), .init(codingPath: c.codingPath, debugDescription: "a collection without _id"))
    }
    collection = BookmarkCollection(
      id: id,
      title: c.lenient("title", as: String.self) ?? "",
      count: c.lenient("count", as: Int.self) ?? 0,
      parentId: c.reference("parent"),  // `"parent": null` for roots
      created: c.date("created"),
      lastUpdate: c.date("lastUpdate")
    )
  }
}

struct ItemEnvelope<Item: Decodable>: Decodable {
  var item: Item?
}

struct ItemsEnvelope<Item: Decodable>: Decodable {
  var items: [Item]?
  var count: Int?
}

struct UserEnvelope: Decodable {
  struct User: Decodable {
    var id: Int
    var name: String
    var email: String
    var pro: Bool

    init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: AnyKey.self)
      id = c.lenient("_id", as: Int.self) ?? 0
      name = c.lenient("fullName", as: String.self) ?? c.lenient("name", as: String.self) ?? ""
      email = c.lenient("email", as: String.self) ?? ""
      pro = c.lenient("pro", as: Bool.self) ?? false
    }
  }
  var user: User
}

struct ModifiedEnvelope: Decodable {
  var modified: Int?
}

struct ExistsEnvelope: Decodable {
  var result: Bool?
  var ids: [Int]?
}

struct StatsEnvelope: Decodable {
  struct Entry: Decodable {
    var id: Int
    var count: Int
    enum CodingKeys: String, CodingKey {
      case id = "_id"
      case count
    }
  }
  var items: [Entry]?
}

/// The fields an error answer may carry (reference §2); `error` may be a string or a number, so it is skipped.
struct ErrorBody: Decodable {
  var result: Bool?
  var status: Int?
  var errorMessage: String?
  var auth: Bool?
}

// MARK: - Request bodies

/// `{"$id": N}`: how Raindrop wants a collection named in a body. Any other form silently means Unsorted.
struct Reference: Encodable {
  var id: Int
  enum CodingKeys: String, CodingKey { case id = "$id" }
}

/// `POST /raindrop` and `PUT /raindrop/{id}`; nil fields are left out, so an update sends only the diff.
struct RaindropBody: Encodable {
  var link: String?
  var title: String?
  var excerpt: String?
  var note: String?
  var tags: [String]?
  var important: Bool?
  var collection: Reference?
  var type: String?
  var created: String?
  /// `{}`: parse the page in the background (reference §3.4).
  var pleaseParse: [String: String]?
}

/// `PUT /raindrops/{collectionId}`.
struct BulkBody: Encodable {
  var ids: [Int]
  var addTags: [String]?
  var deleteTags: [String]?
  var tags: [String]?
  var important: Bool?
  var collection: Reference?
}

struct CollectionBody: Encodable {
  var title: String
  var parent: Reference?
}

struct ExistsBody: Encodable {
  var urls: [String]
}
