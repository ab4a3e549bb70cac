import FlowIntents

/// How a command that `run-shell` ran ended (`output: result`): `${r.exit-code}`, `${r.stdout}`,
/// `${r.stderr}`. What a workflow reads when a failing exit is an answer rather than an error
/// (`grep -q`, `test -e`, `diff`).
package struct ShellResultEntity: AppEntity {
  package static let typeDisplayRepresentation: TypeDisplayRepresentation = "Shell Result"
  package static let defaultQuery = ShellResultQuery()

  /// The process id it ran as.
  package var id: Int

  @Property(title: "Exit Code") package var exitCode: Int
  @Property(title: "Standard Output") package var stdout: String
  @Property(title: "Standard Error") package var stderr: String
  /// What ran: the program's name, as the step wrote it.
  @Property(title: "Command") package var command: String

  package init(id: Int, exitCode: Int, stdout: String, stderr: String, command: String) {
    self.id = id
    self.exitCode = exitCode
    self.stdout = stdout
    self.stderr = stderr
    self.command = command
  }

  package var displayRepresentation: DisplayRepresentation {
    DisplayRepresentation(title: "\(command) exited with \(exitCode)")
  }
}

/// Results are made by runs, never looked up: a workflow cannot name one.
package struct ShellResultQuery: EntityQuery {
  package init() {}
  package func entities(for identifiers: [Int]) async throws -> [ShellResultEntity] { [] }
}
