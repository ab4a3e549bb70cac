import FlowIntents

/// How a command that `run-shell` ran ended (`output: result`): `${r.exit-code}`, `${r.stdout}`,
/// `${r.stderr}`. What a workflow reads when a failing exit is an answer rather than an error
/// (`grep -q`, `test -e`, `diff`).
public struct ShellResultEntity: AppEntity {
  public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Shell Result"
  public static let defaultQuery = ShellResultQuery()

  /// The process id it ran as.
  public var id: Int

  @Property(title: "Exit Code") public var exitCode: Int
  @Property(title: "Standard Output") public var stdout: String
  @Property(title: "Standard Error") public var stderr: String
  /// What ran: the program's name, as the step wrote it.
  @Property(title: "Command") public var command: String

  public init(id: Int, exitCode: Int, stdout: String, stderr: String, command: String) {
    self.id = id
    self.exitCode = exitCode
    self.stdout = stdout
    self.stderr = stderr
    self.command = command
  }

  public var displayRepresentation: DisplayRepresentation {
    DisplayRepresentation(title: "\(command) exited with \(exitCode)")
  }
}

/// Results are made by runs, never looked up: a workflow cannot name one.
public struct ShellResultQuery: EntityQuery {
  public init() {}
  public func entities(for identifiers: [Int]) async throws -> [ShellResultEntity] { [] }
}
