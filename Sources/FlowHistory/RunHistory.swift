import FlowDiagnostics
import FlowLibrary
import FlowSQLite
import FoundationEssentials
import Glibc
import Synchronization

/// A failure to read or write run history.
public struct HistoryError: Error, CustomStringConvertible {
  public var description: String
}

/// Run history: one SQLite file (``FlowPaths/history``) with a row per run and its trace, and beside it
/// the entries runs wrote since it was last read (``PendingRuns``, `history.sqlite-pending`).
///
/// A run only appends to the pending file: its row as it starts, with its process's identity, its trace
/// while it goes on and its end. Whatever reads history first moves those entries into the database, in
/// one transaction; so does a run that ends when the pending file has grown past ``pendingLimit``. Many
/// `flow` processes read and write at once (a scheduler, cron lines, a person at a terminal): WAL, a 10 s
/// busy timeout and `BEGIN IMMEDIATE`, through the shared ``SQLiteConnection``. A reader tells a run whose
/// process died (``RunStatus/interrupted``) from one still going, and fixes its row.
///
/// Safe to use from several threads: a run's recorder writes from the run and from its flush timer.
public final class RunHistory: @unchecked Sendable {
  public let file: URL
  private let path: String
  private let pending: PendingRuns
  private let processes: any ProcessInspector
  /// Guards `connection` and the pending file's appends and takes, which go on outside it.
  private let lock = Mutex(())
  /// Opened by the first read: a run that only writes never opens it.
  private var connection: SQLiteConnection?

  /// History at `file`, creating its directory (mode 0700). The files are made 0600 (runs say what a
  /// person did) as they are first written.
  public init(file: URL, processes: any ProcessInspector = LinuxProcesses()) throws(HistoryError) {
    self.file = file
    self.processes = processes
    path = file.fileSystemPath
    pending = PendingRuns(path: path + "-pending")
    if let problem = PrivateFiles.createDirectory(atPath: PathText.deletingLastComponent(path)) {
      throw HistoryError(description: problem)
    }
  }

  /// Whether any run was recorded at `file`: the database, or entries not yet moved into it. What reads
  /// history asks first, so as not to create it.
  public static func exists(at file: URL) -> Bool {
    let path = file.fileSystemPath
    return access(path, F_OK) == 0 || access(path + "-pending", F_OK) == 0
  }

  /// The database, opened on first use. SQLiteConnection creates it 0600, and SQLite its -wal and -shm
  /// files with the same mode.
  private func openDatabase() throws(HistoryError) -> SQLiteConnection {
    if let connection { return connection }
    do {
      let opened = try SQLiteConnection(path: path)
      try opened.execute("PRAGMA wal_autocheckpoint = \(Self.walPages)")
      try Self.migrate(opened)
      connection = opened
      return opened
    } catch {
      throw HistoryError(description: "cannot open run history \(path): \(error)")
    }
  }

  static let schemaVersion = 2

  /// How long the write-ahead log may grow (in pages) before a write copies it into the database.
  ///
  /// Every reader is a new process, and the first connection of a process reads the whole log to rebuild
  /// its index (SQLite's recovery, since the last process did not close cleanly or was the only one): at
  /// SQLite's default of 1,000 pages that read cost about 1.5 ms. A checkpoint, with its two fsyncs (about
  /// 4 ms each here), comes every 100 pages instead.
  static let walPages = 100

  /// How large the pending file may grow (in bytes) before the run that ends moves it into the database:
  /// about a hundred one-step runs, so that history nobody reads stays small and pruned.
  static let pendingLimit = 64 * 1024

  /// Creates the schema when the file is new. The version is read first without a write lock, so that
  /// opening an existing history (every read) costs no write.
  private static func migrate(_ database: SQLiteConnection) throws(SQLiteError) {
    if try (database.query("PRAGMA user_version").first?.first?.int ?? 0) >= schemaVersion { return }
    try database.transaction {
      () throws(SQLiteError) in
      let version = try database.query("PRAGMA user_version").first?.first?.int ?? 0
      guard version < schemaVersion else { return }
      // Version 2 (automations) records what a trigger brought: `trigger_detail`.
      if version == 1 {
        try database.execute(
          "ALTER TABLE runs ADD COLUMN trigger_detail TEXT; PRAGMA user_version = \(schemaVersion);")
        return
      }
      try database.execute(
        """
        CREATE TABLE IF NOT EXISTS runs (
          key INTEGER PRIMARY KEY,
          id TEXT NOT NULL,
          workflow TEXT NOT NULL,
          workflow_key TEXT NOT NULL,
          path TEXT,
          content_hash TEXT,
          trigger TEXT NOT NULL,
          started INTEGER NOT NULL,
          ended INTEGER,
          status TEXT NOT NULL,
          exit_code INTEGER,
          pid INTEGER,
          boot_id TEXT,
          process_start INTEGER,
          failed_position TEXT,
          failed_action TEXT,
          error_message TEXT,
          error_location TEXT,
          diagnostics TEXT,
          trigger_detail TEXT
        );
        CREATE INDEX IF NOT EXISTS runs_by_workflow ON runs(workflow_key);
        CREATE TABLE IF NOT EXISTS steps (
          run INTEGER NOT NULL REFERENCES runs(key) ON DELETE CASCADE,
          seq INTEGER NOT NULL,
          position TEXT NOT NULL,
          action TEXT NOT NULL,
          status TEXT NOT NULL,
          ran INTEGER NOT NULL,
          skipped INTEGER NOT NULL,
          failed INTEGER NOT NULL,
          microseconds INTEGER NOT NULL,
          summary TEXT,
          error TEXT,
          PRIMARY KEY (run, seq)
        ) WITHOUT ROWID;
        PRAGMA user_version = \(schemaVersion);
        """
      )
    }
  }

  /// Runs `body` on the database with every pending entry moved into it.
  private func reading<T>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(HistoryError) -> T {
    try lock.withLock { _ throws(HistoryError) in
      let database = try openDatabase()
      try ingest(into: database)
      do {
        return try body(database)
      } catch {
        throw HistoryError(description: "run history \(path): \(error)")
      }
    }
  }

  private func appending(_ entries: [PendingRuns.Entry]) throws(HistoryError) {
    try lock.withLock { _ throws(HistoryError) in try pending.append(entries) }
  }

  /// Moves the pending entries into the database, in one transaction; they stay pending if it fails.
  private func ingest(into database: SQLiteConnection) throws(HistoryError) {
    let path = path
    try pending.take { entries throws(HistoryError) in
      guard !entries.isEmpty else { return }
      do {
        try database.transaction { () throws(SQLiteError) in try Self.apply(entries, to: database) }
      } catch {
        throw HistoryError(description: "run history \(path): \(error)")
      }
    }
  }

  /// Moves the pending entries into the database when there are many: for the run that ends, or, in a
  /// process that runs firing after firing (``movesPendingWhenIdle``), when it has none waiting. A
  /// failure leaves them for the next reader, and is not this run's: its entries are written.
  public func ingestIfLarge(atRunEnd: Bool = false) {
    let limit =
      atRunEnd && Self.movesPendingWhenIdle.load(ordering: .relaxed) ? 4 * Self.pendingLimit : Self.pendingLimit
    guard pending.size >= limit else { return }
    _ = try? reading { _ in }
  }

  /// Set by a warm run (`flow run --await-trigger`): its runs leave the move to its idle moments, so
  /// that a firing queued behind a run does not wait for a transaction and its fsyncs; past four times
  /// the limit they move it still.
  public static let movesPendingWhenIdle = Atomic(false)

  private static func apply(_ entries: [PendingRuns.Entry], to database: SQLiteConnection) throws(SQLiteError) {
    // The rows of runs begun in this batch, and of those begun before it, found by their id.
    var keys: [String: Int64] = [:]
    func key(of id: String) throws(SQLiteError) -> Int64? {
      if let key = keys[id] { return key }
      let found = try database.query("SELECT key FROM runs WHERE id = ? ORDER BY key DESC LIMIT 1", [.text(id)])
      let key = found.first?.first?.int.map(Int64.init)
      keys[id] = key
      return key
    }
    // A reader killed after its transaction and before it emptied the pending file leaves the same entries
    // for the next one: a run already in the database is not added again. Such runs are the newest rows
    // (nothing else was merged in between: the entries were still pending), so the last rows as many as
    // this batch begins are enough to look at, by key, without an index on the id. Every other entry is
    // idempotent already (a step replaces its number, an end sets the same columns).
    let beginning = entries.count { if case .began = $0 { true } else { false } }
    var merged: [String: Int64] = [:]
    if beginning > 0 {
      for row in try database.query("SELECT id, key FROM runs ORDER BY key DESC LIMIT ?", [.integer(Int64(beginning))])
      {
        if let id = row[0].string, let key = row[1].int { merged[id] = Int64(key) }
      }
    }
    // Each workflow's runs are pruned once, by the policy and the time of its last run to end.
    var pruning: [String: (policy: HistoryPolicy, now: Int64)] = [:]
    for entry in entries {
      do {
        switch entry {
        case .began(let values):
          if case .text(let id) = values[0], let key = merged[id] {
            keys[id] = key
            continue
          }
          try database.query(insertSQL, values)
          if case .text(let id) = values[0] { keys[id] = database.lastInsertRowID }
        case .step(let id, let values):
          guard let run = try key(of: id) else { continue }
          try database.query(stepSQL, [.integer(run)] + values)
        case .ended(let id, let values, let workflowKey, let policy):
          guard let run = try key(of: id) else { continue }
          try database.query(updateSQL, values + [.integer(run)])
          if case .integer(let ended) = values[0] { pruning[workflowKey] = (policy, ended) }
        }
      } catch  where error.isConstraint {
        // An entry no flow writes (a damaged file): passed over, or it would stop every later read.
        continue
      }
    }
    for (workflowKey, last) in pruning.sorted(by: { $0.key < $1.key }) {
      try prune(workflowKey: workflowKey, policy: last.policy, now: Date(millisecondsSince1970: last.now), in: database)
    }
  }

  // MARK: - Writing

  /// Writes the row of a run that is starting.
  public func begin(_ start: RunStart) throws(HistoryError) {
    try appending([.began(Self.insertValues(start))])
  }

  /// Writes a run that ended as it began (skipped, or invalid before anything ran).
  public func record(_ start: RunStart, _ end: RunEnd, policy: HistoryPolicy) throws(HistoryError) {
    try appending([
      .began(Self.insertValues(start)),
      .ended(id: start.id, Self.updateValues(end), workflowKey: start.workflowKey, policy: policy),
    ])
    ingestIfLarge(atRunEnd: true)
  }

  /// Writes (or rewrites) trace entries of the run `id` in progress, by their place in the trace.
  public func write(steps: [(seq: Int, trace: StepTrace)], of id: String) throws(HistoryError) {
    guard !steps.isEmpty else { return }
    try appending(steps.map { .step(id: id, Self.stepValues($0.seq, $0.trace)) })
  }

  /// Ends the run `id`: its status and its last trace entries, in one write. Pruning by `policy` comes
  /// when the entries reach the database.
  public func finish(
    _ id: String, _ end: RunEnd, steps: [(seq: Int, trace: StepTrace)], workflowKey: String, policy: HistoryPolicy
  ) throws(HistoryError) {
    try appending(
      steps.map { .step(id: id, Self.stepValues($0.seq, $0.trace)) } + [
        .ended(id: id, Self.updateValues(end), workflowKey: workflowKey, policy: policy)
      ])
    ingestIfLarge(atRunEnd: true)
  }

  // The statements the pending entries are written by, and how many values each entry carries.
  static let insertColumns = 11
  /// Where ``insertValues(_:)`` puts the start; ``updateValues(_:)`` puts the end first.
  static let startedColumn = 6
  static let updateColumns = 8
  static let stepColumns = 10

  private static let insertSQL = """
    INSERT INTO runs (id, workflow, workflow_key, path, content_hash, trigger, started, status, pid, boot_id,
      process_start, trigger_detail)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)
    """

  private static let updateSQL = """
    UPDATE runs SET ended = ?, status = ?, exit_code = ?, failed_position = ?, failed_action = ?,
      error_message = ?, error_location = ?, diagnostics = ?
    WHERE key = ?
    """

  private static let stepSQL = """
    INSERT OR REPLACE INTO steps (run, seq, position, action, status, ran, skipped, failed, microseconds,
      summary, error)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """

  private static func insertValues(_ start: RunStart) -> [SQLValue] {
    [
      .text(start.id), .text(start.workflow), .text(start.workflowKey), start.path.map(SQLValue.text) ?? .null,
      start.contentHash.map(SQLValue.text) ?? .null, .text(start.trigger.rawValue),
      .integer(start.started.millisecondsSince1970), .integer(Int64(start.process.pid)), .text(start.process.bootID),
      .integer(Int64(bitPattern: start.process.startTime)), start.triggerDetail.map(SQLValue.text) ?? .null,
    ]
  }

  private static func updateValues(_ end: RunEnd) -> [SQLValue] {
    let first = end.diagnostics.first { $0.severity == .error } ?? end.diagnostics.first
    // Encoded only when there is something to keep: JSONEncoder costs a successful run measurably.
    let diagnostics =
      end.diagnostics.isEmpty
      ? nil : (try? JSONEncoder().encode(end.diagnostics)).map { String(decoding: $0, as: UTF8.self) }
    return [
      .integer(end.ended.millisecondsSince1970), .text(end.status.rawValue), .integer(Int64(end.exitCode)),
      end.failedStep.map { .text($0.position) } ?? .null, end.failedStep.map { .text($0.action) } ?? .null,
      first.map { .text($0.message) } ?? .null, first?.location.map(SQLValue.text) ?? .null,
      diagnostics.map(SQLValue.text) ?? .null,
    ]
  }

  private static func stepValues(_ seq: Int, _ trace: StepTrace) -> [SQLValue] {
    [
      .integer(Int64(seq)), .text(trace.position), .text(trace.action), .text(trace.status.rawValue),
      .integer(Int64(trace.ran)), .integer(Int64(trace.skipped)), .integer(Int64(trace.failed)),
      .integer(trace.microseconds), trace.summary.map(SQLValue.text) ?? .null, trace.error.map(SQLValue.text) ?? .null,
    ]
  }

  /// Keeps the newest `keepRuns` runs of the workflow and nothing older than `keepDays`.
  private static func prune(
    workflowKey: String, policy: HistoryPolicy, now: Date, in database: SQLiteConnection
  ) throws(SQLiteError) {
    try database.query(
      """
      DELETE FROM runs WHERE workflow_key = ?1 AND key <= (
        SELECT key FROM runs WHERE workflow_key = ?1 ORDER BY key DESC LIMIT 1 OFFSET ?2)
      """,
      [.text(workflowKey), .integer(Int64(policy.keepRuns))])
    // Rows go in as runs start, so the oldest have the lowest keys: everything before the first run young
    // enough goes, found by walking keys from the oldest (an index on the start time would cost every
    // run a page more to write).
    let cutoff = now.addingTimeInterval(-Double(policy.keepDays) * 86_400)
    try database.query(
      """
      DELETE FROM runs WHERE status != 'running' AND key < (
        SELECT key FROM runs WHERE started >= ? ORDER BY key LIMIT 1)
      """, [.integer(cutoff.millisecondsSince1970)])
  }

  // MARK: - Reading

  /// Which runs `flow runs` lists.
  public struct Query: Sendable {
    /// A workflow's name (any case) …
    public var workflow: String?
    /// … or its file.
    public var path: String?
    public var status: RunStatus?
    public var limit: Int

    public init(workflow: String? = nil, path: String? = nil, status: RunStatus? = nil, limit: Int = 20) {
      self.workflow = workflow
      self.path = path
      self.status = status
      self.limit = limit
    }
  }

  /// Runs newest first (in the order they started, which is the order their rows were written).
  public func runs(_ query: Query) throws(HistoryError) -> [RunRecord] {
    try reading { database throws(SQLiteError) in
      try settleInterrupted(in: database)
      var conditions: [String] = []
      var parameters: [SQLValue] = []
      if query.workflow != nil || query.path != nil {
        conditions.append("(workflow = ? COLLATE NOCASE OR path = ?)")
        parameters += [query.workflow.map(SQLValue.text) ?? .null, query.path.map(SQLValue.text) ?? .null]
      }
      if let status = query.status {
        conditions.append("status = ?")
        parameters.append(.text(status.rawValue))
      }
      let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
      parameters.append(.integer(Int64(query.limit)))
      return try database.query(
        "SELECT \(Self.columns) FROM runs \(filter) ORDER BY key DESC LIMIT ?", parameters
      ).map(Self.record)
    }
  }

  /// The runs whose id starts with `prefix` (at most `limit`), each with its trace when there is only one.
  public func runs(idPrefix prefix: String, limit: Int = 10) throws(HistoryError) -> [RunRecord] {
    try reading { database throws(SQLiteError) in
      try settleInterrupted(in: database)
      var found = try database.query(
        "SELECT \(Self.columns) FROM runs WHERE substr(id, 1, length(?1)) = ?1 ORDER BY key DESC LIMIT ?2",
        [.text(prefix), .integer(Int64(limit))]
      ).map(Self.record)
      if found.count == 1 { found[0].steps = try Self.steps(of: found[0].key, in: database) }
      return found
    }
  }

  /// How long the run `id` took as it recorded itself (``RunRecord/duration``), read from the pending
  /// entries when they hold it, so as not to move them into the database: the scheduler asks at every
  /// run's end, and a move there is a transaction and its fsyncs between that run's end and the start of
  /// the next. Nil when the run recorded no end.
  public func duration(ofRun id: String) -> TimeInterval? {
    var started: Int64?
    var ended: Int64?
    for entry in pending.peek(run: id) {
      switch entry {
      case .began(let values) where values.first == .text(id):
        if case .integer(let milliseconds) = values[Self.startedColumn] { started = milliseconds }
      case .ended(id, let values, _, _):
        if case .integer(let milliseconds) = values[0] { ended = milliseconds }
      default: continue
      }
    }
    // As ``RunRecord/duration`` works it out, to the same last bit.
    if let started, let ended {
      return Date(millisecondsSince1970: ended).timeIntervalSince(Date(millisecondsSince1970: started))
    }
    // Begun but not ended: there is no end in the database either.
    if started != nil { return nil }
    return (try? runs(idPrefix: id, limit: 1))?.first?.duration
  }

  /// Every workflow name with a recorded run, for "did you mean".
  public func workflowNames() throws(HistoryError) -> [String] {
    try reading { database throws(SQLiteError) in
      try database.query("SELECT DISTINCT workflow FROM runs").compactMap { $0.first?.string }
    }
  }

  private static func steps(of run: Int64, in database: SQLiteConnection) throws(SQLiteError) -> [StepTrace] {
    try database.query(
      """
      SELECT position, action, status, ran, skipped, failed, microseconds, summary, error
      FROM steps WHERE run = ? ORDER BY seq
      """, [.integer(run)]
    ).map { row in
      StepTrace(
        position: row[0].string ?? "", action: row[1].string ?? "",
        status: StepTrace.Status(rawValue: row[2].string ?? "") ?? .ran, ran: row[3].int ?? 0,
        skipped: row[4].int ?? 0, failed: row[5].int ?? 0, microseconds: Int64(row[6].int ?? 0),
        summary: row[7].string, error: row[8].string)
    }
  }

  /// Rows that say running but whose process is gone (or the machine has booted since) become
  /// interrupted.
  private func settleInterrupted(in database: SQLiteConnection) throws(SQLiteError) {
    let running = try database.query(
      "SELECT key, pid, boot_id, process_start FROM runs WHERE status = 'running'")
    let dead = running.filter { row in
      let process = ProcessIdentity(
        pid: Int32(row[1].int ?? 0), bootID: row[2].string ?? "",
        startTime: UInt64(bitPattern: Int64(row[3].int ?? 0)))
      return !processes.isRunning(process)
    }
    guard !dead.isEmpty else { return }
    try database.transaction { () throws(SQLiteError) in
      for row in dead {
        try database.query(
          "UPDATE runs SET status = 'interrupted' WHERE key = ? AND status = 'running'", [row[0]])
      }
    }
  }

  private static let columns =
    "key, id, workflow, path, content_hash, trigger, started, ended, status, exit_code, failed_position, "
    + "failed_action, error_message, error_location, diagnostics, trigger_detail"

  private static func record(_ row: [SQLValue]) -> RunRecord {
    let diagnostics = row[14].string.flatMap { text in
      try? JSONDecoder().decode([RecordedDiagnostic].self, from: Data(text.utf8))
    }
    let failed = RunRecord.FailedStep(
      position: row[10].string, action: row[11].string, message: row[12].string, location: row[13].string)
    return RunRecord(
      key: Int64(row[0].int ?? 0), id: row[1].string ?? "", workflow: row[2].string ?? "", path: row[3].string,
      contentHash: row[4].string, trigger: row[5].string ?? "", started: row[6].date,
      ended: row[7] == .null ? nil : row[7].date, status: RunStatus(rawValue: row[8].string ?? "") ?? .running,
      exitCode: row[9].int.map(Int32.init),
      failedStep: failed.message == nil && failed.position == nil ? nil : failed,
      diagnostics: diagnostics ?? [], triggerDetail: row[15].string, steps: [])
  }
}
