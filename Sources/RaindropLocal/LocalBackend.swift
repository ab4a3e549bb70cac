import FlowDiagnostics
import FlowSQLite
import FoundationEssentials
import RaindropModel

/// The embedded backend: a SQLite file with Raindrop's semantics, so that every workflow runs on a fresh
/// machine with no account.
///
/// Integer ids that are never reused; system collections 0 (all but Trash), -1 (Unsorted) and -99 (Trash);
/// delete moves to Trash and deleting in Trash removes; the title defaults to the link; the domain drops
/// `www.`; the search syntax of ``SearchQuery``; all eight sort values; pages from 0, 25 a page by default and
/// at most 50. The store lives in one file, ``LocalBackend/fileName``, in the directory the caller passes (the
/// CLI passes `$XDG_DATA_HOME/flow/`). Several processes may use it at once: WAL journal, a busy timeout and
/// `BEGIN IMMEDIATE` for every write.
public actor LocalBackend: BookmarkBackend {
  public nonisolated let name = "local"
  /// The store's file name inside the directory.
  public static let fileName = "raindrop.sqlite"
  /// The SQLite file.
  public nonisolated let fileURL: URL

  private let database: SQLiteConnection
  private let clock: any BackendClock
  /// Where the last page of a listing in SQLite's order ended, so that the page after it starts there
  /// (keyset paging) instead of counting past every earlier row again.
  private var position: ListingPosition?
  /// The last listing sorted in memory (a search, or titles and domains), so that its pages are slices.
  private var sortedListing: SortedListing?

  /// The account the local store pretends to be.
  public static let localUser = RaindropUser(id: 1, name: "local", email: "", pro: false)

  /// How the store is opened.
  public enum Access: Sendable {
    /// Reads and writes; the directory and the file are created as needed.
    case readWrite
    /// Reads only, and writes nothing to the disk at all (a dry run): no file or directory is created,
    /// and a store that does not exist yet reads as an empty one, with only the system collections.
    case readOnly
  }

  /// Opens the store in `directory`, creating the directory and the file as needed unless `access` is
  /// ``Access/readOnly``.
  public init(directory: URL, access: Access = .readWrite, clock: any BackendClock = SystemBackendClock())
    throws(RaindropError)
  {
    fileURL = directory.appendingPathComponent(Self.fileName)
    self.clock = clock
    if access == .readOnly {
      do {
        if FileManager.default.fileExists(atPath: fileURL.path) {
          let file = try SQLiteConnection(readingOnly: fileURL.path)
          if try Self.version(file) >= Self.schemaVersion {
            database = file
          } else {
            // A store an older flow wrote, not migrated yet: read a copy in memory, migrated there, since
            // the file may not be written (the next read-write open migrates it).
            database = try SQLiteConnection(path: ":memory:")
            try database.copy(from: file)
            try Self.migrate(database)
            try database.execute("PRAGMA query_only = ON")
          }
        } else {
          database = try SQLiteConnection(path: ":memory:")
          try Self.migrate(database)
        }
      } catch {
        throw .storage(error.description)
      }
      return
    }
    do {
      // Private, with any parent it makes, whatever the umask: the bookmarks are nobody else's.
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .storage("cannot create \(directory.path): \(error.reason)")
    }
    do {
      database = try SQLiteConnection(path: fileURL.path)
      try Self.migrate(database)
    } catch {
      throw .storage(error.description)
    }
  }

  /// The schema this build writes: 2 added the indexes of the orders SQLite sorts in, 3 the folded columns
  /// searches read (``SearchSQL``), 4 folded them again as ``SearchFolding`` now folds.
  static let schemaVersion = 4

  private static func version(_ database: SQLiteConnection) throws(SQLiteError) -> Int {
    try database.query("PRAGMA user_version").first?.first?.int ?? 0
  }

  /// Creates the schema, or brings an older store's up to date. Idempotent, and safe when two processes open
  /// a store at the same moment (the check and the change happen under one write lock).
  private static func migrate(_ database: SQLiteConnection) throws(SQLiteError) {
    try database.transaction {
      () throws(SQLiteError) in
      let version = try version(database)
      guard version < schemaVersion else { return }
      if version < 2 {
        // Every statement is idempotent, so a version 1 store takes the same path as a new one.
        try database.execute(
          """
          CREATE TABLE IF NOT EXISTS collections (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            title TEXT NOT NULL,
            parent INTEGER,
            created INTEGER NOT NULL,
            last_update INTEGER NOT NULL
          );
          CREATE TABLE IF NOT EXISTS bookmarks (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            link TEXT NOT NULL,
            link_key TEXT NOT NULL,
            title TEXT NOT NULL,
            excerpt TEXT NOT NULL DEFAULT '',
            note TEXT NOT NULL DEFAULT '',
            type TEXT NOT NULL DEFAULT 'link',
            tags TEXT NOT NULL DEFAULT '[]',
            important INTEGER NOT NULL DEFAULT 0,
            collection INTEGER NOT NULL,
            cover TEXT NOT NULL DEFAULT '',
            domain TEXT NOT NULL,
            sort INTEGER NOT NULL,
            created INTEGER NOT NULL,
            last_update INTEGER NOT NULL
          );
          CREATE INDEX IF NOT EXISTS bookmarks_by_collection ON bookmarks(collection);
          CREATE INDEX IF NOT EXISTS bookmarks_by_link ON bookmarks(link_key);
          CREATE INDEX IF NOT EXISTS bookmarks_by_created ON bookmarks(created);
          CREATE INDEX IF NOT EXISTS bookmarks_by_sort ON bookmarks(sort);
          """
        )
      }
      if version < 3 {
        for column in SearchSQL.foldedColumns {
          try database.execute("ALTER TABLE bookmarks ADD COLUMN \(column) TEXT NOT NULL DEFAULT ''")
        }
      }
      try foldAgain(database)
      try database.execute("PRAGMA user_version = \(schemaVersion)")
    }
  }

  /// The folded columns (version 3) filled in again for the bookmarks already there (version 4 folds text
  /// beyond ASCII with ICU rather than Foundation), a batch at a time so that a large store is never all in
  /// memory.
  private static func foldAgain(_ database: SQLiteConnection) throws(SQLiteError) {
    var last: Int64 = 0
    while true {
      let rows = try database.query(
        "SELECT id, title, excerpt, note, link, domain, tags FROM bookmarks WHERE id > ? ORDER BY id LIMIT 500",
        [.integer(last)])
      guard let final = rows.last?[0], case .integer(let id) = final else { return }
      for row in rows {
        let fields = SearchFields(
          title: row[1].string ?? "", excerpt: row[2].string ?? "", note: row[3].string ?? "",
          link: row[4].string ?? "", domain: row[5].string ?? "", tags: decodeTags(row[6].string))
        try database.query(
          "UPDATE bookmarks SET \(foldedAssignments) WHERE id = ?", SearchSQL.values(fields) + [row[0]])
      }
      last = id
    }
  }

  /// Runs `body` and turns SQLite's errors into ``RaindropError/storage(_:)``.
  @discardableResult
  private func store<T>(_ body: () throws(SQLiteError) -> T) throws(RaindropError) -> T {
    do {
      return try body()
    } catch {
      throw .storage(error.description)
    }
  }

  /// SQLite's work for this store so far (``SQLiteConnection/steps``), for tests of how listing scales.
  var sqliteSteps: Int64 { database.steps }

  // MARK: - Rows

  private static let bookmarkColumns =
    "id, link, title, excerpt, note, type, tags, important, collection, cover, domain, sort, created, last_update"

  private static let insertBookmark = """
    INSERT INTO bookmarks (link, link_key, title, excerpt, note, type, tags, important, collection, cover,
      domain, sort, created, last_update, \(SearchSQL.foldedColumns.joined(separator: ", ")))
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)
    """
  /// The folded columns' assignments in an UPDATE.
  private static let foldedAssignments = SearchSQL.foldedColumns.map { "\($0) = ?" }.joined(separator: ", ")

  private static func encodeTags(_ tags: [String]) -> String { TagColumn.encode(tags) }

  private static func decodeTags(_ text: String?) -> [String] { TagColumn.decode(text) }

  private static func bookmark(_ row: [SQLValue]) -> Bookmark {
    let collection = row[8].int ?? SystemCollection.unsorted.rawValue
    return Bookmark(
      id: row[0].int ?? 0,
      link: row[1].string ?? "",
      title: row[2].string ?? "",
      excerpt: row[3].string ?? "",
      note: row[4].string ?? "",
      type: BookmarkType(rawValue: row[5].string ?? "") ?? .link,
      tags: decodeTags(row[6].string),
      important: (row[7].int ?? 0) != 0,
      collectionId: collection,
      cover: row[9].string ?? "",
      domain: row[10].string ?? "",
      created: row[12].date,
      lastUpdate: row[13].date,
      sort: row[11].int ?? 0,
      removed: collection == SystemCollection.trash.rawValue
    )
  }

  private func fetchBookmark(_ id: Int) throws(SQLiteError) -> Bookmark? {
    try database.query("SELECT \(Self.bookmarkColumns) FROM bookmarks WHERE id = ?", [.integer(Int64(id))])
      .first.map(Self.bookmark)
  }

  private func collectionExists(_ id: Int) throws(SQLiteError) -> Bool {
    try !database.query("SELECT 1 FROM collections WHERE id = ?", [.integer(Int64(id))]).isEmpty
  }

  /// Where a bookmark saved into `requested` lands: nothing or All means Unsorted; a missing collection is an
  /// error rather than a silent Unsorted, so a typo in a workflow shows.
  private func resolveTarget(_ requested: Int?) throws(RaindropError) -> Int {
    guard let requested, requested != SystemCollection.all.rawValue else { return SystemCollection.unsorted.rawValue }
    if SystemCollection(rawValue: requested) != nil { return requested }
    guard try store({ () throws(SQLiteError) in try collectionExists(requested) }) else {
      throw .notFound(.collection(id: requested))
    }
    return requested
  }

  /// The SQL condition and parameters that select the bookmarks "in" a collection.
  private func scope(_ collectionId: Int, nested: Bool) throws(RaindropError) -> (String, [SQLValue]) {
    switch collectionId {
    case SystemCollection.all.rawValue:
      return ("collection != ?", [.integer(Int64(SystemCollection.trash.rawValue))])
    case SystemCollection.unsorted.rawValue, SystemCollection.trash.rawValue:
      return ("collection = ?", [.integer(Int64(collectionId))])
    default:
      guard try store({ () throws(SQLiteError) in try collectionExists(collectionId) }) else {
        throw .notFound(.collection(id: collectionId))
      }
      var ids = [collectionId]
      if nested {
        ids = try store { () throws(SQLiteError) in
          try database.query(
            """
            WITH RECURSIVE tree(id) AS (SELECT ? UNION SELECT c.id FROM collections c JOIN tree t ON c.parent = t.id)
            SELECT id FROM tree
            """,
            [.integer(Int64(collectionId))]
          ).compactMap { $0.first?.int }
        }
      }
      let marks = ids.map { _ in "?" }.joined(separator: ", ")
      return ("collection IN (\(marks))", ids.map { .integer(Int64($0)) })
    }
  }

  // MARK: - BookmarkBackend

  public func currentUser() async throws(RaindropError) -> RaindropUser { Self.localUser }

  public func bookmarks(_ query: BookmarkListQuery) async throws(RaindropError) -> BookmarkPage {
    let search = SearchQuery(parsing: query.search ?? "")
    if let order = SQLOrder(query.sort, searching: !search.isEmpty) {
      return try page(query, search: search, order: order)
    }
    let sorted = try sortedMatches(query, search: search)
    let perPage = query.effectivePerPage
    let start = max(query.page, 0) * perPage
    let ids = start < sorted.count ? Array(sorted[start..<min(start + perPage, sorted.count)]) : []
    let items = try store { () throws(SQLiteError) in try fetchBookmarks(ids) }
    return BookmarkPage(items: items, count: sorted.count)
  }

  /// The bookmarks with `ids`, in that order (one that has gone since is left out).
  private func fetchBookmarks(_ ids: [Int64]) throws(SQLiteError) -> [Bookmark] {
    guard !ids.isEmpty else { return [] }
    let marks = ids.map { _ in "?" }.joined(separator: ", ")
    let rows = try database.query(
      "SELECT \(Self.bookmarkColumns) FROM bookmarks WHERE id IN (\(marks))", ids.map { .integer($0) })
    var byID: [Int64: Bookmark] = [:]
    for row in rows { if case .integer(let id) = row[0] { byID[id] = Self.bookmark(row) } }
    return ids.compactMap { byID[$0] }
  }

  /// The ids of every match of `query` in its order (relevance, titles or domains): from the last listing
  /// when only the page differs and nothing changed since, so that reading all pages sorts once rather
  /// than once a page. Only ids (and, to sort them, titles or domains) come into Swift, never whole rows.
  private func sortedMatches(_ query: BookmarkListQuery, search: SearchQuery) throws(RaindropError) -> [Int64] {
    var key = query
    (key.page, key.perPage) = (0, 0)
    let snapshot = try store { () throws(SQLiteError) in try self.snapshot() }
    if let sortedListing, sortedListing.query == key, sortedListing.snapshot == snapshot {
      return sortedListing.ids
    }
    let (scope, parameters) = try scope(query.collectionId, nested: query.nested)
    let searchSQL = SearchSQL(search, firstParameter: parameters.count + 1)
    let condition = "\(scope) AND (\(searchSQL.condition))"
    let ids = try store { () throws(SQLiteError) in
      switch query.sort {
      case .titleAscending, .titleDescending, .domainAscending, .domainDescending:
        let byTitle = query.sort == .titleAscending || query.sort == .titleDescending
        let ascending = query.sort == .titleAscending || query.sort == .domainAscending
        let rows = try database.query(
          "SELECT id, \(byTitle ? "title" : "domain") FROM bookmarks WHERE \(condition)",
          parameters + searchSQL.parameters)
        // Each title's collation key made once, rather than at each of the n log n comparisons.
        let keyed = rows.compactMap { row -> (id: Int64, key: CollationOrder.Key)? in
          guard case .integer(let id) = row[0] else { return nil }
          return (id, CollationOrder.Key(row[1].string ?? ""))
        }
        return keyed.sorted { lhs, rhs in
          if lhs.key == rhs.key { return ascending ? lhs.id < rhs.id : lhs.id > rhs.id }
          return ascending ? lhs.key < rhs.key : rhs.key < lhs.key
        }.map(\.id)
      default:
        // Relevance, with a search (without one it is newest first, which SQLOrder pages).
        return try database.query(
          "SELECT id FROM bookmarks WHERE \(condition) ORDER BY \(searchSQL.score.map { "\($0) DESC, " } ?? "")"
            + "created DESC, id DESC",
          parameters + searchSQL.parameters
        ).compactMap { row -> Int64? in
          guard case .integer(let id) = row[0] else { return nil }
          return id
        }
      }
    }
    sortedListing = SortedListing(query: key, snapshot: snapshot, ids: ids)
    return ids
  }

  /// What the database looked like: another connection's commit moves `data_version`, this one's writes
  /// move `totalChanges`. Equal snapshots mean nothing was written in between.
  private func snapshot() throws(SQLiteError) -> Snapshot {
    let version = try database.query("PRAGMA data_version").first?.first?.int ?? 0
    return Snapshot(dataVersion: version, changes: database.totalChanges)
  }

  /// The orders SQLite can do exactly as ``sorted(_:by:search:)`` does, each along an index: a key column,
  /// then the id, both in one direction. Titles and domains are not among them, because they compare with
  /// ``CollationOrder``.
  struct SQLOrder {
    /// `created` or `sort`.
    let column: String
    /// Its place in ``bookmarkColumns``.
    let columnIndex: Int
    let descending: Bool

    /// Relevance is newest first without a search; with one, it is the search's score, which no index
    /// holds.
    init?(_ sort: BookmarkSort, searching: Bool) {
      switch sort {
      case .relevance where searching: return nil
      case .newestFirst, .relevance: (column, columnIndex, descending) = ("created", 12, true)
      case .oldestFirst: (column, columnIndex, descending) = ("created", 12, false)
      case .manual: (column, columnIndex, descending) = ("sort", 11, true)
      case .titleAscending, .titleDescending, .domainAscending, .domainDescending: return nil
      }
    }

    var orderBy: String { descending ? "\(column) DESC, id DESC" : "\(column) ASC, id ASC" }

    /// The rows after (key, id) in this order. The first half is a range on the indexed column; the second
    /// skips the rows of an equal key already listed.
    var after: String {
      descending
        ? "\(column) <= ? AND (\(column) < ? OR id < ?)" : "\(column) >= ? AND (\(column) > ? OR id > ?)"
    }
  }

  /// A page in an order SQLite keeps an index of, straight from SQLite, searched or not: the common case (the
  /// newest 25) reads 25 rows, not all.
  /// The page after the one this backend listed last starts where that one ended (keyset paging) when
  /// nothing was written since: every page then costs the same, and listing them all is linear. Any other
  /// page, or after a write, counts past the earlier rows (OFFSET), as Raindrop's API pages do.
  private func page(_ query: BookmarkListQuery, search: SearchQuery, order: SQLOrder) throws(RaindropError)
    -> BookmarkPage
  {
    let (scope, scopeParameters) = try scope(query.collectionId, nested: query.nested)
    let searchSQL = SearchSQL(search, firstParameter: scopeParameters.count + 1)
    let (condition, parameters) =
      search.isEmpty
      ? (scope, scopeParameters) : ("\(scope) AND (\(searchSQL.condition))", scopeParameters + searchSQL.parameters)
    let perPage = query.effectivePerPage
    let offset = max(query.page, 0) * perPage
    return try store { () throws(SQLiteError) in
      try database.transaction(write: false) { () throws(SQLiteError) in
        let snapshot = try self.snapshot()
        let sql = "SELECT \(Self.bookmarkColumns) FROM bookmarks WHERE \(condition)"
        let tail = "ORDER BY \(order.orderBy) LIMIT ?"
        let count: Int
        let rows: [[SQLValue]]
        if let position, position.next == query, position.snapshot == snapshot {
          count = position.count
          rows = try database.query(
            "\(sql) AND \(order.after) \(tail)",
            parameters + [
              .integer(position.key), .integer(position.key), .integer(position.id), .integer(Int64(perPage)),
            ]
          )
        } else {
          count =
            try database.query("SELECT COUNT(*) FROM bookmarks WHERE \(condition)", parameters).first?.first?.int ?? 0
          rows = try database.query(
            "\(sql) \(tail) OFFSET ?", parameters + [.integer(Int64(perPage)), .integer(Int64(offset))])
        }
        position = nil
        if let last = rows.last, case .integer(let key) = last[order.columnIndex], case .integer(let id) = last[0] {
          var next = query
          next.page = max(query.page, 0) + 1
          position = ListingPosition(next: next, snapshot: snapshot, count: count, key: key, id: id)
        }
        return BookmarkPage(items: rows.map(Self.bookmark), count: count)
      }
    }
  }

  /// Every bookmark in the collection that matches the search, unsorted, found by SQLite.
  private func matching(collectionId: Int, search: String?, nested: Bool) throws(RaindropError) -> [Bookmark] {
    let (scope, parameters) = try scope(collectionId, nested: nested)
    let searchSQL = SearchSQL(SearchQuery(parsing: search ?? ""), firstParameter: parameters.count + 1)
    let rows = try store { () throws(SQLiteError) in
      try database.query(
        "SELECT \(Self.bookmarkColumns) FROM bookmarks WHERE \(scope) AND (\(searchSQL.condition))",
        parameters + searchSQL.parameters)
    }
    return rows.map(Self.bookmark)
  }

  /// Orders bookmarks the way Raindrop's `sort` parameter does; ties go to the id so pages are stable. Worked
  /// out in memory: the reference the tests hold ``bookmarks(_:)``'s SQL orders to.
  static func sorted(_ bookmarks: [Bookmark], by sort: BookmarkSort, search: SearchQuery) -> [Bookmark] {
    func text(_ lhs: String, _ rhs: String) -> ComparisonResult { CollationOrder.compare(lhs, rhs) }
    switch sort {
    case .newestFirst:
      return bookmarks.sorted { ($0.created, $0.id) > ($1.created, $1.id) }
    case .oldestFirst:
      return bookmarks.sorted { ($0.created, $0.id) < ($1.created, $1.id) }
    case .relevance:
      guard !search.isEmpty else { return sorted(bookmarks, by: .newestFirst, search: search) }
      let scored = bookmarks.map { (search.score($0), $0) }
      return scored.sorted { ($0.0, $0.1.created, $0.1.id) > ($1.0, $1.1.created, $1.1.id) }.map(\.1)
    case .manual:
      return bookmarks.sorted { ($0.sort, $0.id) > ($1.sort, $1.id) }
    case .titleAscending, .titleDescending, .domainAscending, .domainDescending:
      let byTitle = sort == .titleAscending || sort == .titleDescending
      let ascending = sort == .titleAscending || sort == .domainAscending
      return bookmarks.sorted { lhs, rhs in
        let order = byTitle ? text(lhs.title, rhs.title) : text(lhs.domain, rhs.domain)
        if order == .orderedSame { return ascending ? lhs.id < rhs.id : lhs.id > rhs.id }
        return ascending ? order == .orderedAscending : order == .orderedDescending
      }
    }
  }

  public func bookmark(id: Int) async throws(RaindropError) -> Bookmark {
    guard let found = try store({ () throws(SQLiteError) in try fetchBookmark(id) }) else {
      throw .notFound(.bookmark(id: id))
    }
    return found
  }

  public func createBookmark(_ new: NewBookmark) async throws(RaindropError) -> Bookmark {
    try insert(new)
  }

  private func insert(_ new: NewBookmark) throws(RaindropError) -> Bookmark {
    let link = new.link.trimmingWhitespaceAndNewlines()
    guard !link.isEmpty else { throw .invalidRequest(message: "link: Path `link` is required.") }
    let collection = try resolveTarget(new.collectionId)
    let now = clock.now
    let created = new.created ?? now
    let title = new.title?.trimmingWhitespaceAndNewlines().nilIfEmpty ?? link
    let tags = TagEditor.edit([], adding: new.tags)
    let domain = LinkNormalizer.domain(of: link)
    let folded = SearchFields(
      title: title, excerpt: new.excerpt ?? "", note: new.note ?? "", link: link, domain: domain, tags: tags)
    return try store { () throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        try database.query(
          Self.insertBookmark,
          [
            .text(link), .text(LinkNormalizer.comparable(link)), .text(title), .text(new.excerpt ?? ""),
            .text(new.note ?? ""), .text((new.type ?? .link).rawValue), .text(Self.encodeTags(tags)),
            .integer(new.important ? 1 : 0), .integer(Int64(collection)), .text(domain),
            .integer(created.millisecondsSince1970), .integer(max(created, now).millisecondsSince1970),
          ] + SearchSQL.values(folded)
        )
        let id = database.lastInsertRowID
        // A new bookmark's manual position is its own id (reference §3.3), known only after the insert.
        try database.query("UPDATE bookmarks SET sort = id WHERE id = ?", [.integer(id)])
        guard let created = try fetchBookmark(Int(id)) else {
          throw SQLiteError(code: 0, message: "bookmark \(id) vanished after insert")
        }
        return created
      }
    }
  }

  public func updateBookmark(id: Int, _ changes: BookmarkChanges) async throws(RaindropError) -> Bookmark {
    let original = try await bookmark(id: id)
    guard !changes.isEmpty else { return original }
    var modified = changes.applied(to: original)
    if let target = changes.collectionId { modified.collectionId = try resolveTarget(target) }
    if modified.title.trimmingWhitespace().isEmpty { modified.title = modified.link }
    modified.tags = TagEditor.edit([], adding: modified.tags)
    modified.lastUpdate = clock.now
    let updated = modified
    try store { () throws(SQLiteError) in try write(updated) }
    return try await bookmark(id: id)
  }

  private func write(_ bookmark: Bookmark) throws(SQLiteError) {
    var written = bookmark
    written.domain = LinkNormalizer.domain(of: bookmark.link)
    let folded = SearchFields(written)
    try database.transaction { () throws(SQLiteError) in
      try database.query(
        """
        UPDATE bookmarks SET link = ?, link_key = ?, title = ?, excerpt = ?, note = ?, type = ?, tags = ?,
          important = ?, collection = ?, domain = ?, last_update = ?, \(Self.foldedAssignments)
        WHERE id = ?
        """,
        [
          .text(written.link), .text(LinkNormalizer.comparable(written.link)), .text(written.title),
          .text(written.excerpt), .text(written.note), .text(written.type.rawValue),
          .text(Self.encodeTags(written.tags)),
          .integer(written.important ? 1 : 0), .integer(Int64(written.collectionId)),
          .text(written.domain), .integer(written.lastUpdate.millisecondsSince1970),
        ] + SearchSQL.values(folded) + [.integer(Int64(written.id))]
      )
    }
  }

  public func updateBookmarks(ids: [Int], in collectionId: Int, _ change: BulkChange) async throws(RaindropError)
    -> Int
  {
    guard !ids.isEmpty else { return 0 }
    return try bulkUpdate(collectionId: collectionId, ids: ids, search: nil, change)
  }

  /// `PUT /raindrops/{collectionId}`: the bookmarks in the collection with one of `ids` (all of them when `ids`
  /// is nil) that match `search`, changed at once. Returns how many matched.
  public func bulkUpdate(collectionId: Int, ids: [Int]?, search: String?, _ change: BulkChange) throws(RaindropError)
    -> Int
  {
    var targets = try matching(collectionId: collectionId, search: search, nested: false)
    if let ids {
      let wanted = Set(ids)
      targets.removeAll { !wanted.contains($0.id) }
    }
    let moveTo = try change.moveTo.map { target throws(RaindropError) in try resolveTarget(target) }
    let now = clock.now
    let changed = targets
    try store { () throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        for var bookmark in changed {
          bookmark.tags = TagEditor.edit(
            bookmark.tags, adding: change.addTags, removing: change.removeTags, clearing: change.clearTags)
          if let important = change.important { bookmark.important = important }
          if let moveTo { bookmark.collectionId = moveTo }
          bookmark.lastUpdate = now
          try database.query(
            "UPDATE bookmarks SET tags = ?, tags_fold = ?, important = ?, collection = ?, last_update = ? WHERE id = ?",
            [
              .text(Self.encodeTags(bookmark.tags)), .text(SearchFolding.tags(bookmark.tags)),
              .integer(bookmark.important ? 1 : 0), .integer(Int64(bookmark.collectionId)),
              .integer(now.millisecondsSince1970), .integer(Int64(bookmark.id)),
            ]
          )
        }
      }
    }
    return changed.count
  }

  public func deleteBookmark(id: Int) async throws(RaindropError) -> DeleteOutcome {
    let found = try await bookmark(id: id)
    if found.removed {
      try store { () throws(SQLiteError) in
        try database.transaction { () throws(SQLiteError) in
          try database.query("DELETE FROM bookmarks WHERE id = ?", [.integer(Int64(id))])
        }
      }
      return .removedPermanently
    }
    var trashed = found
    trashed.collectionId = SystemCollection.trash.rawValue
    trashed.lastUpdate = clock.now
    let moved = trashed
    try store { () throws(SQLiteError) in try write(moved) }
    return .movedToTrash(try await bookmark(id: id))
  }

  /// `DELETE /raindrops/{collectionId}`: moves the matching bookmarks to Trash, or removes them for good when
  /// the collection is Trash. Returns how many.
  public func bulkDelete(collectionId: Int, ids: [Int]?, search: String?) throws(RaindropError) -> Int {
    var targets = try matching(collectionId: collectionId, search: search, nested: false)
    if let ids {
      let wanted = Set(ids)
      targets.removeAll { !wanted.contains($0.id) }
    }
    let now = clock.now
    let chosen = targets
    try store { () throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        for bookmark in chosen {
          if bookmark.removed {
            try database.query("DELETE FROM bookmarks WHERE id = ?", [.integer(Int64(bookmark.id))])
          } else {
            try database.query(
              "UPDATE bookmarks SET collection = ?, last_update = ? WHERE id = ?",
              [
                .integer(Int64(SystemCollection.trash.rawValue)), .integer(now.millisecondsSince1970),
                .integer(Int64(bookmark.id)),
              ]
            )
          }
        }
      }
    }
    return chosen.count
  }

  public func existingBookmarkIDs(link: String) async throws(RaindropError) -> [Int] {
    try store { () throws(SQLiteError) in
      try database.query(
        "SELECT id FROM bookmarks WHERE link_key = ? AND collection != ? ORDER BY id",
        [.text(LinkNormalizer.comparable(link)), .integer(Int64(SystemCollection.trash.rawValue))]
      ).compactMap { $0.first?.int }
    }
  }

  // MARK: - Collections

  public func collections() async throws(RaindropError) -> [BookmarkCollection] {
    try systemCollections() + userCollections()
  }

  /// All, Unsorted and Trash with their counts (`GET /user/stats`).
  public func systemCollections() throws(RaindropError) -> [BookmarkCollection] {
    let counts = try store { () throws(SQLiteError) in
      try database.query("SELECT collection, COUNT(*) FROM bookmarks GROUP BY collection")
    }
    var byCollection: [Int: Int] = [:]
    for row in counts { if let id = row[0].int { byCollection[id] = row[1].int ?? 0 } }
    let trash = byCollection[SystemCollection.trash.rawValue] ?? 0
    let all = byCollection.values.reduce(0, +) - trash
    return SystemCollection.allCases.map { system in
      let count =
        switch system {
        case .all: all
        case .unsorted: byCollection[system.rawValue] ?? 0
        case .trash: trash
        }
      return BookmarkCollection(id: system.rawValue, title: system.title, count: count)
    }
  }

  /// The person's collections in the order they were made, with the number of bookmarks directly in each.
  public func userCollections() throws(RaindropError) -> [BookmarkCollection] {
    try store { () throws(SQLiteError) in
      try database.query(
        """
        SELECT c.id, c.title, c.parent, c.created, c.last_update,
          (SELECT COUNT(*) FROM bookmarks b WHERE b.collection = c.id)
        FROM collections c ORDER BY c.id
        """
      ).map(Self.collection)
    }
  }

  private static func collection(_ row: [SQLValue]) -> BookmarkCollection {
    BookmarkCollection(
      id: row[0].int ?? 0, title: row[1].string ?? "", count: row[5].int ?? 0, parentId: row[2].int,
      created: row[3].date, lastUpdate: row[4].date
    )
  }

  /// One collection, system or not (`GET /collection/{id}`).
  public func collection(id: Int) throws(RaindropError) -> BookmarkCollection {
    if SystemCollection(rawValue: id) != nil, let system = try systemCollections().first(where: { $0.id == id }) {
      return system
    }
    guard let found = try userCollections().first(where: { $0.id == id }) else { throw .notFound(.collection(id: id)) }
    return found
  }

  public func createCollection(_ new: NewCollection) async throws(RaindropError) -> BookmarkCollection {
    let title = new.title.trimmingWhitespaceAndNewlines()
    guard !title.isEmpty else { throw .invalidRequest(message: "title: Path `title` is required.") }
    if let parent = new.parentId {
      guard try store({ () throws(SQLiteError) in try collectionExists(parent) }) else {
        throw .notFound(.collection(id: parent))
      }
    }
    let now = clock.now.millisecondsSince1970
    let id = try store { () throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        try database.query(
          "INSERT INTO collections (title, parent, created, last_update) VALUES (?, ?, ?, ?)",
          [.text(title), new.parentId.map { .integer(Int64($0)) } ?? .null, .integer(now), .integer(now)]
        )
        return Int(database.lastInsertRowID)
      }
    }
    return try collection(id: id)
  }

  /// `DELETE /collection/{id}`: its bookmarks, and those of its descendants, move to Trash and the
  /// collections go. `DELETE /collection/-99` empties Trash.
  public func deleteCollection(id: Int) throws(RaindropError) {
    if id == SystemCollection.trash.rawValue {
      try store { () throws(SQLiteError) in
        try database.transaction { () throws(SQLiteError) in
          try database.query("DELETE FROM bookmarks WHERE collection = ?", [.integer(Int64(id))])
        }
      }
      return
    }
    guard SystemCollection(rawValue: id) == nil else {
      throw .invalidRequest(message: "system collections cannot be removed")
    }
    let (condition, parameters) = try scope(id, nested: true)
    let now = clock.now.millisecondsSince1970
    try store { () throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        try database.query(
          "UPDATE bookmarks SET collection = \(SystemCollection.trash.rawValue), last_update = ? WHERE \(condition)",
          [.integer(now)] + parameters
        )
        try database.query(
          "DELETE FROM collections WHERE \(condition.replacingEvery("collection IN", with: "id IN"))",
          parameters
        )
      }
    }
  }
}

extension String {
  fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}

/// What the database looked like at one moment (``LocalBackend``'s `snapshot()`).
private struct Snapshot: Equatable {
  var dataVersion: Int
  var changes: Int64
}

/// Where a listing's page ended: the page that follows it, and the last row's sort key and id.
private struct ListingPosition {
  var next: BookmarkListQuery
  var snapshot: Snapshot
  /// Matches over all pages, counted on the first page read.
  var count: Int
  var key: Int64
  var id: Int64
}

/// The ids of a listing sorted once, whatever its page and page size.
private struct SortedListing {
  var query: BookmarkListQuery
  var snapshot: Snapshot
  var ids: [Int64]
}
