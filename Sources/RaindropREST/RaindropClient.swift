import FlowDiagnostics
import FlowHTTP
import FoundationEssentials
import RaindropModel

/// The `raindrop` backend: Raindrop.io's REST API v1 with a bearer token.
///
/// - Sends requests only to `baseURL`, and never puts the token in an error or a log.
/// - A ``RateLimiter`` keeps it under the server's window; a 429 waits for `Retry-After`, then the reset time.
/// - GET, PUT and DELETE-style calls are retried with backoff on 5xx, lost connections and unreadable answers.
/// - A create is never blindly retried: after a failure it asks `/import/url/exists` whether the bookmark was
///   made after all. Deleting one bookmark, which is not idempotent either (the second delete would remove it
///   from Trash for good), is checked the same way.
public final class RaindropClient: BookmarkBackend {
  public let name = "raindrop"
  /// `https://api.raindrop.io/rest/v1`. (The literal always parses; the fallback only satisfies the type.)
  public static let defaultBaseURL: URL = URL(string: "https://api.raindrop.io/rest/v1") ?? URL(fileURLWithPath: "/")
  public let baseURL: URL
  public let policy: RetryPolicy
  /// The limiter, shared by all requests of this client.
  public let limiter: RateLimiter

  private let token: String
  private let transport: any HTTPTransport
  private let clock: any BackendClock

  /// - Parameters:
  ///   - token: a test token or an OAuth access token.
  ///   - baseURL: `https://api.raindrop.io/rest/v1` unless a stand-in is wanted (`RAINDROP_API_URL`).
  public init(
    token: String,
    baseURL: URL = RaindropClient.defaultBaseURL,
    transport: any HTTPTransport = CurlTransport(),
    clock: any BackendClock = SystemBackendClock(),
    policy: RetryPolicy = .default
  ) {
    self.token = token
    self.baseURL = baseURL
    self.transport = transport
    self.clock = clock
    self.policy = policy
    self.limiter = RateLimiter(clock: clock, margin: policy.resetMargin)
  }

  // MARK: - BookmarkBackend

  public func currentUser() async throws(RaindropError) -> RaindropUser {
    let envelope = try await call("GET", "user", as: UserEnvelope.self)
    let user = envelope.user
    return RaindropUser(id: user.id, name: user.name, email: user.email, pro: user.pro)
  }

  public func bookmarks(_ query: BookmarkListQuery) async throws(RaindropError) -> BookmarkPage {
    var items = [
      ("sort", query.sort.rawValue), ("page", String(max(query.page, 0))), ("perpage", String(query.effectivePerPage)),
    ]
    if let search = query.search, !search.trimmingWhitespace().isEmpty {
      items.append(("search", search))
    }
    if query.nested { items.append(("nested", "true")) }
    let envelope = try await call(
      "GET", "raindrops/\(query.collectionId)", query: items, notFound: .collection(id: query.collectionId),
      as: ItemsEnvelope<RaindropDTO>.self
    )
    let bookmarks = (envelope.items ?? []).map(\.bookmark)
    return BookmarkPage(items: bookmarks, count: envelope.count ?? bookmarks.count)
  }

  public func bookmark(id: Int) async throws(RaindropError) -> Bookmark {
    let envelope = try await call(
      "GET", "raindrop/\(id)", notFound: .bookmark(id: id), as: ItemEnvelope<RaindropDTO>.self)
    guard let item = envelope.item else { throw .malformedResponse("no item in the answer for bookmark \(id)") }
    return item.bookmark
  }

  public func createBookmark(_ new: NewBookmark) async throws(RaindropError) -> Bookmark {
    let body = RaindropBody(
      link: new.link, title: new.title, excerpt: new.excerpt, note: new.note, tags: new.tags.isEmpty ? nil : new.tags,
      important: new.important ? true : nil, collection: new.collectionId.map(Reference.init),
      type: new.type?.rawValue, created: new.created.map(RaindropDate.format), pleaseParse: new.parse ? [:] : nil
    )
    let data = try encode(body)
    let notFound = RaindropError.Resource.collection(id: new.collectionId ?? SystemCollection.unsorted.rawValue)
    var attempt = 1
    while true {
      let sentAt = clock.now
      let result = await perform(
        "POST", "raindrop", body: data, notFound: notFound, as: ItemEnvelope<RaindropDTO>.self
      )
      switch result {
      case .success(let envelope):
        guard let item = envelope.item else { throw .malformedResponse("no item in the answer to a create") }
        return item.bookmark
      case .failure(.final(let error)):
        throw error
      case .failure(.outcomeUnknown(let failure)):
        // The server may have made it before the answer was lost: look before trying again.
        if let made = try await findCreated(new, sentAt: sentAt) { return made }
        guard attempt < policy.maxAttempts else { throw failure }
        try await pause(policy.backoff(beforeRetry: attempt))
        attempt += 1
      }
    }
  }

  /// The bookmark a lost create made, if the server has one for the link created around `sentAt` (or at the
  /// requested `created`).
  private func findCreated(_ new: NewBookmark, sentAt: Date) async throws(RaindropError) -> Bookmark? {
    let ids = try await existingBookmarkIDs(link: new.link)
    for id in ids.sorted(by: >) {
      let candidate = try await bookmark(id: id)
      let reference = new.created ?? sentAt
      if abs(candidate.created.timeIntervalSince(reference)) <= policy.createMatchTolerance.seconds { return candidate }
    }
    return nil
  }

  public func updateBookmark(id: Int, _ changes: BookmarkChanges) async throws(RaindropError) -> Bookmark {
    guard !changes.isEmpty else { return try await bookmark(id: id) }
    let body = RaindropBody(
      link: changes.link, title: changes.title, excerpt: changes.excerpt, note: changes.note, tags: changes.tags,
      important: changes.important, collection: changes.collectionId.map(Reference.init), type: changes.type?.rawValue
    )
    let envelope = try await call(
      "PUT", "raindrop/\(id)", body: try encode(body), notFound: .bookmark(id: id), as: ItemEnvelope<RaindropDTO>.self
    )
    guard let item = envelope.item else { throw .malformedResponse("no item in the answer to an update") }
    return item.bookmark
  }

  public func updateBookmarks(ids: [Int], in collectionId: Int, _ change: BulkChange) async throws(RaindropError)
    -> Int
  {
    // No ids would mean "every bookmark in the collection" to the server: never send that by accident.
    guard !ids.isEmpty, !change.isEmpty else { return 0 }
    var modified = 0
    var start = 0
    while start < ids.count {
      let chunk = Array(ids[start..<min(start + BulkChange.maximumIDsPerRequest, ids.count)])
      let body = BulkBody(
        ids: chunk, addTags: change.addTags.isEmpty ? nil : change.addTags,
        deleteTags: change.removeTags.isEmpty ? nil : change.removeTags, tags: change.clearTags ? [] : nil,
        important: change.important, collection: change.moveTo.map(Reference.init)
      )
      do {
        let envelope = try await call(
          "PUT", "raindrops/\(collectionId)", body: try encode(body), notFound: .collection(id: collectionId),
          as: ModifiedEnvelope.self
        )
        modified += envelope.modified ?? 0
      } catch {
        throw Self.partial(error, ids: ids, failedAt: start..<start + chunk.count)
      }
      start += chunk.count
    }
    return modified
  }

  /// A bulk update's failure, saying how far it got when earlier batches (or the failed one) changed bookmarks;
  /// the bare error when nothing was changed, since it then says all there is.
  static func partial(_ error: RaindropError, ids: [Int], failedAt batch: Range<Int>) -> RaindropError {
    let sent = Array(ids[batch])
    var progress = BulkProgress(changed: Array(ids[..<batch.lowerBound]), uncertain: [], unchanged: [])
    switch error {
    // A 2xx whose body could not be read: the server acted.
    case .malformedResponse: progress.changed += sent
    // A 5xx or a lost connection may come after the server acted.
    case .serverError, .network: progress.uncertain = sent
    // Refusals (4xx, 429, the token) are answered before anything changes.
    default: progress.unchanged = sent
    }
    progress.unchanged += ids[batch.upperBound...]
    guard !progress.changed.isEmpty || !progress.uncertain.isEmpty else { return error }
    return .incomplete(progress, cause: error)
  }

  public func deleteBookmark(id: Int) async throws(RaindropError) -> DeleteOutcome {
    var attempt = 1
    while true {
      let sentAt = clock.now
      let result = await perform(
        "DELETE", "raindrop/\(id)", notFound: .bookmark(id: id), as: ItemEnvelope<RaindropDTO>.self)
      switch result {
      case .success(let envelope):
        return envelope.item.map { .movedToTrash($0.bookmark) } ?? .removedPermanently
      case .failure(.final(let error)):
        throw error
      case .failure(.outcomeUnknown(let failure)):
        // A second DELETE of a bookmark the first one moved to Trash would remove it for good: look first.
        do {
          let now = try await bookmark(id: id)
          if now.removed, now.lastUpdate.timeIntervalSince(sentAt) >= -policy.createMatchTolerance.seconds {
            return .movedToTrash(now)
          }
        } catch .notFound {
          return .removedPermanently
        }
        guard attempt < policy.maxAttempts else { throw failure }
        try await pause(policy.backoff(beforeRetry: attempt))
        attempt += 1
      }
    }
  }

  public func existingBookmarkIDs(link: String) async throws(RaindropError) -> [Int] {
    // `result:false` is this endpoint's normal "not found" (reference §3.7), not an error.
    let envelope = try await call(
      "POST", "import/url/exists", body: try encode(ExistsBody(urls: [link])), falseResultIsError: false,
      as: ExistsEnvelope.self
    )
    return (envelope.ids ?? []).sorted()
  }

  public func collections() async throws(RaindropError) -> [BookmarkCollection] {
    let stats = try await call("GET", "user/stats", as: StatsEnvelope.self)
    var counts: [Int: Int] = [:]
    for entry in stats.items ?? [] { counts[entry.id] = entry.count }
    let system = SystemCollection.allCases.map {
      BookmarkCollection(id: $0.rawValue, title: $0.title, count: counts[$0.rawValue] ?? 0)
    }
    let roots = try await call("GET", "collections", as: ItemsEnvelope<CollectionDTO>.self)
    // `/collections/childrens` (sic) was seen to include roots as well: keep the first of each id.
    let children = try await call("GET", "collections/childrens", as: ItemsEnvelope<CollectionDTO>.self)
    var seen = Set<Int>()
    let user = ((roots.items ?? []) + (children.items ?? [])).map(\.collection).filter { seen.insert($0.id).inserted }
    return system + user
  }

  public func createCollection(_ new: NewCollection) async throws(RaindropError) -> BookmarkCollection {
    let body = CollectionBody(title: new.title, parent: new.parentId.map(Reference.init))
    // Not idempotent, but a duplicate collection is visible and harmless enough that one blind retry is not
    // worth a lookup: no retry at all after an unknown outcome.
    let result = await perform(
      "POST", "collection", body: try encode(body), notFound: .collection(id: new.parentId ?? 0),
      as: ItemEnvelope<CollectionDTO>.self
    )
    switch result {
    case .success(let envelope):
      guard let item = envelope.item else { throw .malformedResponse("no item in the answer to a create") }
      return item.collection
    case .failure(.final(let error)), .failure(.outcomeUnknown(let error)):
      throw error
    }
  }

  // MARK: - Requests

  /// How a call failed: for certain (``final``), or in a way that leaves open whether the server acted
  /// (``outcomeUnknown``), which only non-idempotent calls see.
  enum CallFailure: Error {
    case final(RaindropError)
    case outcomeUnknown(RaindropError)
  }

  private func encode(_ body: some Encodable) throws(RaindropError) -> Data {
    do {
      return try JSONEncoder().encode(body)
    } catch {
      throw .invalidRequest(message: "cannot encode the request: \(error)")
    }
  }

  private func pause(_ duration: Duration) async throws(RaindropError) {
    do {
      try await clock.sleep(for: duration)
    } catch {
      throw .network(HTTPTransportError.cancelled.description)
    }
  }

  /// An idempotent call: every failure is final, because retries already happened inside.
  private func call<T: Decodable>(
    _ method: String,
    _ path: String,
    query: [(String, String)] = [],
    body: Data? = nil,
    falseResultIsError: Bool = true,
    notFound: RaindropError.Resource? = nil,
    as type: T.Type
  ) async throws(RaindropError) -> T {
    let result = await perform(
      method, path, query: query, body: body, idempotent: true, falseResultIsError: falseResultIsError,
      notFound: notFound, as: type
    )
    switch result {
    case .success(let value): return value
    case .failure(.final(let error)), .failure(.outcomeUnknown(let error)): throw error
    }
  }

  /// One call whose outcome is given back as a value, non-idempotent by default.
  private func perform<T: Decodable>(
    _ method: String,
    _ path: String,
    query: [(String, String)] = [],
    body: Data? = nil,
    idempotent: Bool = false,
    falseResultIsError: Bool = true,
    notFound: RaindropError.Resource? = nil,
    as type: T.Type
  ) async -> Result<T, CallFailure> {
    do {
      return .success(
        try await call(
          method, path, query: query, body: body, idempotent: idempotent, falseResultIsError: falseResultIsError,
          notFound: notFound, as: type
        )
      )
    } catch {
      return .failure(error)
    }
  }

  /// Sends one call, waiting for the limiter, retrying what may be retried, and decoding the answer.
  private func call<T: Decodable>(
    _ method: String,
    _ path: String,
    query: [(String, String)] = [],
    body: Data? = nil,
    idempotent: Bool,
    falseResultIsError: Bool = true,
    notFound: RaindropError.Resource? = nil,
    as type: T.Type
  ) async throws(CallFailure) -> T {
    let request = makeRequest(method, path, query: query, body: body)
    var attempt = 1
    var rateLimitWaits = 0
    while true {
      let ticket: Int
      do {
        ticket = try await limiter.acquire()
      } catch let tooLong as RateLimiter.WaitTooLong {
        throw .final(.waitTooLong(said: tooLong.said))
      } catch {
        throw .final(.network(HTTPTransportError.cancelled.description))
      }
      let response: HTTPResponse
      do {
        response = try await transport.send(request)
      } catch {
        await limiter.recordNoAnswer()
        if error == .cancelled { throw .final(.network(error.description)) }
        try await retryOrFail(.network(error.description), idempotent: idempotent, attempt: &attempt)
        continue
      }
      await limiter.record(response.headers, ticket: ticket)
      switch response.status {
      case 429:
        rateLimitWaits += 1
        let retryAfter = response[header: "retry-after"].flatMap { Int($0.trimmingWhitespace()) }
        guard rateLimitWaits <= policy.maxRateLimitWaits else {
          throw .final(.rateLimited(retryAfterSeconds: retryAfter))
        }
        let (end, said) = rateLimitEnd(response, retryAfter: retryAfter)
        // Beyond the cap (or a number too large to read), fail now in the server's words rather than wait.
        guard let end, end.timeIntervalSince(clock.now) <= RaindropError.maximumRateLimitWait.seconds else {
          throw .final(.waitTooLong(said: said))
        }
        // A 429 was not acted on, so any call may be sent again.
        await limiter.block(until: end)
      case 500...599:
        let failure = RaindropError.serverError(
          status: response.status, message: Self.errorMessage(response) ?? "server error")
        try await retryOrFail(failure, idempotent: idempotent, attempt: &attempt)
      case 200...299:
        let decoded: Result<T, RaindropError> = decode(
          response, method: method, path: path, falseResultIsError: falseResultIsError, notFound: notFound
        )
        switch decoded {
        case .success(let value): return value
        case .failure(.malformedResponse(let message)):
          try await retryOrFail(.malformedResponse(message), idempotent: idempotent, attempt: &attempt)
        case .failure(let error): throw .final(error)
        }
      default:
        throw .final(mapError(response, method: method, path: path, notFound: notFound))
      }
    }
  }

  /// After a failure that a retry might cure: throws if the call may not or need not be retried, otherwise
  /// waits the backoff and counts the attempt.
  private func retryOrFail(_ failure: RaindropError, idempotent: Bool, attempt: inout Int) async throws(CallFailure) {
    guard idempotent else { throw .outcomeUnknown(failure) }
    guard attempt < policy.maxAttempts else { throw .final(failure) }
    do {
      try await pause(policy.backoff(beforeRetry: attempt))
    } catch {
      throw .final(error)
    }
    attempt += 1
  }

  /// When a 429 ends: `Retry-After` seconds if given, else the reset time, else the default wait; and the
  /// header that said so, as it came. The end is nil when the header holds a number too large to read.
  private func rateLimitEnd(_ response: HTTPResponse, retryAfter: Int?) -> (end: Date?, said: String) {
    let now = clock.now
    if let text = response[header: "retry-after"] {
      let said = "Retry-After: \(text)"
      if let retryAfter { return (now.addingTimeInterval(TimeInterval(max(retryAfter, 0))), said) }
      if Self.isDigits(text) { return (nil, said) }
    }
    for name in ["x-ratelimit-reset", "ratelimit-reset"] {
      guard let text = response[header: name] else { continue }
      let said = "\(name): \(text)"
      if let reset = Int(text.trimmingWhitespace()) {
        return (RateLimiter.resetDate(reset, now: now).addingTimeInterval(policy.resetMargin.seconds), said)
      }
      if Self.isDigits(text) { return (nil, said) }
    }
    return (now.addingTimeInterval(policy.defaultRateLimitWait.seconds), "no Retry-After")
  }

  private static func isDigits(_ text: String) -> Bool {
    let trimmed = text.trimmingWhitespace()
    return !trimmed.isEmpty && trimmed.allSatisfy(\.isASCII) && trimmed.allSatisfy(\.isNumber)
  }

  private func makeRequest(_ method: String, _ path: String, query: [(String, String)], body: Data?) -> HTTPRequest {
    var url = baseURL.appendingPathComponent(path)
    if !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
      // Percent-encode everything but unreserved characters: `#` must be `%23` and `+` must not become a space.
      components.percentEncodedQuery = query.map { "\(Self.escape($0.0))=\(Self.escape($0.1))" }.joined(separator: "&")
      url = components.url ?? url
    }
    var headers = ["Authorization": "Bearer \(token)", "Accept": "application/json"]
    if body != nil { headers["Content-Type"] = "application/json" }
    return HTTPRequest(method: method, url: url, headers: headers, body: body, timeout: policy.requestTimeout)
  }

  private static func escape(_ text: String) -> String { text.addingPercentEscapes(keeping: PlainText.isUnreserved) }

  private func decode<T: Decodable>(
    _ response: HTTPResponse, method: String, path: String, falseResultIsError: Bool, notFound: RaindropError.Resource?
  ) -> Result<T, RaindropError> {
    if falseResultIsError, let error = try? JSONDecoder().decode(ErrorBody.self, from: response.body),
      error.result == false
    {
      // The vendor's clients treat `result:false` as a failure even with HTTP 200 (reference §2).
      var failed = response
      failed.status = error.status ?? (error.auth == false ? 401 : 400)
      return .failure(mapError(failed, method: method, path: path, notFound: notFound))
    }
    do {
      return .success(try JSONDecoder().decode(T.self, from: response.body))
    } catch {
      return .failure(.malformedResponse("\(method) \(path): \(Self.describe(error))"))
    }
  }

  private static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.dataCorrupted: "not valid JSON"
    case DecodingError.keyNotFound(let key, _): "'\(key.stringValue)' is missing"
    case DecodingError.typeMismatch(_, let context):
      "unexpected type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
    default: String(describing: error)
    }
  }

  private static func errorMessage(_ response: HTTPResponse) -> String? {
    (try? JSONDecoder().decode(ErrorBody.self, from: response.body))?.errorMessage
  }

  private func mapError(_ response: HTTPResponse, method: String, path: String, notFound: RaindropError.Resource?)
    -> RaindropError
  {
    let message = Self.errorMessage(response)
    switch response.status {
    case 401, 403: return .notAuthenticated(reason: message ?? "Unauthorized")
    case 404:
      let isHTML =
        (response[header: "content-type"]?.contains("html") ?? false)
        || response.body.first.map { $0 == UInt8(ascii: "<") } ?? false
      if isHTML || message == nil { return .unknownEndpoint(method: method, path: "/" + path) }
      return .notFound(notFound ?? .other(message ?? path))
    case 413: return .tooLarge(message: message ?? "too many ids")
    case 429: return .rateLimited(retryAfterSeconds: nil)
    default: return .invalidRequest(message: message ?? "HTTP \(response.status)")
    }
  }
}
