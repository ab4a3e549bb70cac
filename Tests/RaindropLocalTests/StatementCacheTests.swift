import FlowSQLite
import Foundation
import Testing

/// `SQLiteConnection` prepares a statement once and reuses it (issue 30: saves at Python's speed): a reused
/// statement starts afresh each time, whatever the last use left behind, and the cache stays bounded.
@Suite("SQLite statement cache")
struct StatementCacheTests {
  static func connection() throws -> SQLiteConnection {
    let database = try SQLiteConnection(path: ":memory:")
    try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
    return database
  }

  @Test("a statement used again binds afresh, after a result, a failure or a half-read rollback")
  func reuse() throws {
    let database = try Self.connection()
    let insert = "INSERT INTO t (name) VALUES (?)"
    try database.query(insert, [.text("a")])
    try database.query(insert, [.text("b")])
    #expect(throws: SQLiteError.self) { try database.query(insert, [.text("a")]) }
    try database.query(insert, [.text("c")])
    #expect(throws: SQLiteError.self) {
      try database.transaction { () throws(SQLiteError) in
        try database.query(insert, [.text("d")])
        try database.query(insert, [.text("d")])
      }
    }
    #expect(try database.query("SELECT name FROM t ORDER BY id").map { $0[0] } == [.text("a"), .text("b"), .text("c")])
    // A parameter left unbound this time is null, not the last value.
    #expect(try database.query("SELECT ? IS NULL", [.integer(1)]) == [[.integer(0)]])
    #expect(try database.query("SELECT ? IS NULL") == [[.integer(1)]])
  }

  @Test("a cached statement follows the schema when it changes")
  func schemaChange() throws {
    let database = try Self.connection()
    try database.query("INSERT INTO t (name) VALUES (?)", [.text("a")])
    #expect(try database.query("SELECT * FROM t") == [[.integer(1), .text("a")]])
    try database.execute("ALTER TABLE t ADD COLUMN extra TEXT NOT NULL DEFAULT 'x'")
    #expect(try database.query("SELECT * FROM t") == [[.integer(1), .text("a"), .text("x")]])
  }

  @Test("statements that differ every time do not grow the cache")
  func bounded() throws {
    let database = try Self.connection()
    for index in 0..<200 {
      #expect(try database.query("SELECT \(index)") == [[.integer(Int64(index))]])
    }
    #expect(database.preparedStatementCount <= 24)
  }
}
