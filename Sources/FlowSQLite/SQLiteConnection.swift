import CSQLite
import FoundationEssentials
import Glibc

/// A failed SQLite call: the result code and SQLite's message.
public struct SQLiteError: Error, CustomStringConvertible {
  public var code: Int32
  public var message: String
  public var description: String { "SQLite error \(code): \(message)" }
  /// A row broke a constraint (`NOT NULL`, `UNIQUE`…): the row's fault, not the database's.
  public var isConstraint: Bool { code & 0xff == SQLITE_CONSTRAINT }

  public init(code: Int32, message: String) {
    self.code = code
    self.message = message
  }
}

/// A value bound to or read from a statement.
public enum SQLValue: Sendable, Hashable {
  case null
  case integer(Int64)
  case text(String)
  case real(Double)
}

/// `SQLITE_TRANSIENT` is a macro Swift does not import: it tells SQLite to copy bound text at once.
private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// One SQLite connection: prepare, bind, step, and transactions. Not thread-safe; its owner (an actor or
/// a lock) serialises access.
///
/// The one wrapper of the system SQLite, shared by the local store (`RaindropLocal`) and run history
/// (`FlowLibrary`), so that both get the same multi-process behaviour: WAL, a busy timeout, and
/// `BEGIN IMMEDIATE` for writes.
public final class SQLiteConnection {
  private let handle: OpaquePointer

  /// Opens (creating if needed) the database at `path` in WAL mode with a busy timeout, so that several
  /// connections, in this process or others, wait for each other instead of failing.
  ///
  /// The database is private to the user (mode 0600) whatever the umask: it is created so before SQLite
  /// opens it (SQLite would make it 0644 less the umask), SQLite gives its -wal and -shm files the
  /// database's mode, and a database an earlier flow left readable by others is made private.
  public init(path: String, busyTimeout: Duration = .seconds(10)) throws(SQLiteError) {
    Self.makePrivate(path)
    var db: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let status = sqlite3_open_v2(path, &db, flags, nil)
    guard status == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
      if let db { sqlite3_close_v2(db) }
      throw SQLiteError(code: status, message: message)
    }
    handle = db
    sqlite3_busy_timeout(db, Int32(busyTimeout.components.seconds * 1000))
    // Switching a new file to WAL needs an exclusive lock, and SQLite answers SQLITE_BUSY at once, without
    // the busy handler, while another process opens the same new file: try again for the busy timeout.
    // WAL is kept in the file, so a second opener usually finds it already set.
    var waited = 0
    while true {
      do {
        try execute("PRAGMA journal_mode = WAL")
        break
      } catch  where error.code == SQLITE_BUSY && waited < busyTimeout.components.seconds * 1000 {
        sqlite3_sleep(10)
        waited += 10
      }
    }
    try execute("PRAGMA synchronous = NORMAL")
    try execute("PRAGMA foreign_keys = ON")
  }

  /// Creates the database file 0600 if it is missing, and takes group and other permissions off it and its
  /// -wal and -shm files if they have any (only the owner's own files: chmod would fail on others' anyway).
  private static func makePrivate(_ path: String) {
    // SQLite's own names for a database without a file: nothing to create.
    guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return }
    let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    if descriptor >= 0 { close(descriptor) }
    for file in [path, path + "-wal", path + "-shm"] {
      var status = stat()
      guard stat(file, &status) == 0, status.st_mode & 0o077 != 0, status.st_uid == getuid() else { continue }
      chmod(file, status.st_mode & 0o700)
    }
  }

  /// Opens the database at `path` to read it without writing anything to the disk: not the file, and no
  /// `-wal` or `-shm` beside it. A store whose writers have all closed keeps no journal, and is opened
  /// immutable; while a writer has it open (its `-wal` exists), it is opened read-only through that
  /// journal, which already exists, to see the latest writes.
  public init(readingOnly path: String) throws(SQLiteError) {
    let journalled = FileManager.default.fileExists(atPath: path + "-wal")
    var components = URLComponents()
    components.scheme = "file"
    components.path = path
    components.queryItems = journalled ? nil : [URLQueryItem(name: "immutable", value: "1")]
    let uri = components.string ?? "file:\(path)"
    var db: OpaquePointer?
    let status = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
    guard status == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
      if let db { sqlite3_close_v2(db) }
      throw SQLiteError(code: status, message: message)
    }
    handle = db
    sqlite3_busy_timeout(db, 10_000)
    try execute("PRAGMA query_only = ON")
  }

  deinit {
    for (_, statement) in statements { sqlite3_finalize(statement) }
    sqlite3_close_v2(handle)
  }

  private func error(_ status: Int32) -> SQLiteError {
    SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)))
  }

  /// Runs one or more statements that return no rows.
  public func execute(_ sql: String) throws(SQLiteError) {
    var message: UnsafeMutablePointer<CChar>?
    let status = sqlite3_exec(handle, sql, nil, nil, &message)
    if status != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      sqlite3_free(message)
      throw SQLiteError(code: status, message: "\(text) (in '\(sql.prefix(40))')")
    }
  }

  /// Runs one statement with parameters and returns its rows. The statement is prepared once per connection
  /// and kept (``statements``): a store saving a bookmark runs the same five statements every time, and
  /// preparing them was a third of a save.
  @discardableResult
  public func query(_ sql: String, _ parameters: [SQLValue] = []) throws(SQLiteError) -> [[SQLValue]] {
    let statement = try prepared(sql)
    defer {
      steps += Int64(sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_VM_STEP, 1))
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    for (offset, value) in parameters.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch value {
      case .null: status = sqlite3_bind_null(statement, index)
      case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
      case .real(let number): status = sqlite3_bind_double(statement, index, number)
      case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, transient)
      }
      guard status == SQLITE_OK else { throw error(status) }
    }
    var rows: [[SQLValue]] = []
    while true {
      let status = sqlite3_step(statement)
      if status == SQLITE_DONE { break }
      guard status == SQLITE_ROW else { throw error(status) }
      let columns = sqlite3_column_count(statement)
      var row: [SQLValue] = []
      row.reserveCapacity(Int(columns))
      for column in 0..<columns {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT: row.append(.real(sqlite3_column_double(statement, column)))
        case SQLITE_NULL: row.append(.null)
        default:
          if let text = sqlite3_column_text(statement, column) {
            row.append(.text(String(cString: text)))
          } else {
            row.append(.null)
          }
        }
      }
      rows.append(row)
    }
    return rows
  }

  /// Statements prepared on this connection, the most recently used last. A list, not a dictionary keyed
  /// by the text: it is short, and a first `Dictionary` of a key type costs a conformance scan wherever it
  /// is made (Performance.md). Statements built around a search or a list of ids differ every time; the
  /// oldest are finalised beyond ``statementCacheSize``.
  private var statements: [(sql: String, statement: OpaquePointer)] = []
  /// Enough for every fixed statement of the local store and of run history at once.
  static let statementCacheSize = 24

  private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
    if let index = statements.lastIndex(where: { $0.sql == sql }) {
      let found = statements[index]
      if index != statements.count - 1 {
        statements.remove(at: index)
        statements.append(found)
      }
      return found.statement
    }
    var statement: OpaquePointer?
    let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard status == SQLITE_OK, let statement else { throw error(status) }
    if statements.count >= Self.statementCacheSize {
      sqlite3_finalize(statements.removeFirst().statement)
    }
    statements.append((sql, statement))
    return statement
  }

  /// How many statements this connection keeps prepared (for tests of the cache's bound).
  public var preparedStatementCount: Int { statements.count }

  /// Replaces this database's content with `source`'s, page by page (SQLite's backup API): how a store
  /// that may only be read is copied into memory to be worked on there.
  public func copy(from source: SQLiteConnection) throws(SQLiteError) {
    guard let backup = sqlite3_backup_init(handle, "main", source.handle, "main") else {
      throw error(sqlite3_errcode(handle))
    }
    let stepped = sqlite3_backup_step(backup, -1)
    let finished = sqlite3_backup_finish(backup)
    guard stepped == SQLITE_DONE else { throw error(stepped) }
    guard finished == SQLITE_OK else { throw error(finished) }
  }

  /// The rowid of the last insert on this connection.
  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// The work SQLite did for this connection's queries, in steps of its virtual machine: what a test
  /// counts to show how a query's cost grows with the data, where timing it would be neither fast nor
  /// deterministic.
  public private(set) var steps: Int64 = 0

  /// Rows this connection inserted, changed or deleted since it opened: with `PRAGMA data_version`, which
  /// moves on other connections' commits only, whether the database may have changed since a moment.
  public var totalChanges: Int64 { sqlite3_total_changes64(handle) }

  /// Runs `body` in a transaction. Writers use `BEGIN IMMEDIATE`, which takes the write lock up front: two
  /// processes then queue on the busy timeout instead of one failing with SQLITE_BUSY halfway through.
  @discardableResult
  public func transaction<T>(write: Bool = true, _ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
    try query(write ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
    do {
      let result = try body()
      try query("COMMIT")
      return result
    } catch {
      _ = try? query("ROLLBACK")
      throw error
    }
  }
}

extension SQLValue {
  public var int: Int? {
    switch self {
    case .integer(let value): Int(value)
    // A real past Int's range (a damaged or foreign file) is no integer, rather than a trap.
    case .real(let value): value.isFinite && abs(value) < 9.2e18 ? Int(value) : nil
    case .text(let text): Int(text)
    case .null: nil
    }
  }

  public var string: String? {
    switch self {
    case .text(let text): text
    case .integer(let value): String(value)
    case .real(let value): String(value)
    case .null: nil
    }
  }
}
