import ArgumentParser
import FlowDiagnostics
import FlowModel
import FlowSession
import FlowSystem
import FoundationEssentials

/// `flow secrets set|list|remove`: the secrets workflows read as `${secret.NAME}` (SPEC §11), kept in the
/// keyring (the Secret Service), or with `FLOW_SECRETS=file` in files (Secrets.md). A value is never
/// printed.
struct SecretsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "secrets",
    abstract: "Keep secrets (API tokens, passwords) in the keyring for workflows to read.",
    discussion: """
      A workflow lists the secrets it reads under 'secrets:' and uses them as ${secret.NAME}; their \
      values are never shown, recorded or exported. Secrets live in the desktop's keyring (the Secret \
      Service: GNOME Keyring, KWallet, KeePassXC); FLOW_SECRETS=file keeps them in files instead, for a \
      machine without one (see Secrets.md).
      """,
    subcommands: [Set.self, List.self, Remove.self]
  )

  struct Set: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract: "Store a secret (typed without being shown, or piped in).",
      discussion: """
        At a terminal the value is typed without being shown; otherwise it is read from standard input \
        (flow secrets set github-token < token.txt), so it never appears in the shell's history. An \
        existing secret of the same name is replaced.
        """
    )

    @Argument(help: "The secret's name: letters, digits, '-' and '_' (as in ${secret.NAME}).")
    var name: String

    func run() async throws {
      let context = SessionContext.current
      try SecretsCommand.checkName(name, context)
      let line = Interrupts.whileReadingInput { context.console.readSecretLine(prompt: "Value of secret \(name): ") }
      guard let value = line, !value.isEmpty else {
        context.report(
          Diagnostics([
            Diagnostic(.error, .invalidInput, "no value given for secret '\(name)'", file: nil).help(
              "type it at the prompt, or pipe it in: flow secrets set \(name) < file")
          ]))
        throw ExitCode(ExitStatus.invalid.rawValue)
      }
      let store = SecretStore(context: context)
      try SecretsCommand.perform(context) { () throws(Diagnostic) in try store.store(name, value: value) }
      context.print("Stored secret '\(name)' in \(store.place).")
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the names of the secrets kept (never their values).")

    func run() async throws {
      let context = SessionContext.current
      let store = SecretStore(context: context)
      let names = try SecretsCommand.perform(context) { () throws(Diagnostic) in try store.names() }
      if names.isEmpty {
        context.print("No secrets in \(store.place). 'flow secrets set NAME' stores one.")
      } else {
        for name in names { context.print(name) }
      }
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a secret.")

    @Argument(help: "The secret's name.")
    var name: String

    func run() async throws {
      let context = SessionContext.current
      try SecretsCommand.checkName(name, context)
      let store = SecretStore(context: context)
      let removed = try SecretsCommand.perform(context) { () throws(Diagnostic) in try store.remove(name) }
      guard removed else {
        context.report(
          Diagnostics([
            Diagnostic(.error, .secretMissing, "there is no secret '\(name)' in \(store.place)", file: nil).help(
              "'flow secrets list' shows the names kept")
          ]))
        throw ExitCode(ExitStatus.invalid.rawValue)
      }
      context.print("Removed secret '\(name)' from \(store.place).")
    }
  }

  static func checkName(_ name: String, _ context: SessionContext) throws {
    guard !WorkflowFormat.isSecretName(name) else { return }
    context.report(
      Diagnostics([
        Diagnostic(.error, .invalidName, "'\(name)' is not a secret's name", file: nil).help(
          "a secret's name is letters, digits, '-' and '_', starting with a letter or digit, like 'github-token'")
      ]))
    throw ExitCode(ExitStatus.invalid.rawValue)
  }

  /// Runs an operation on the store; a store that cannot be reached ends the command with exit 5.
  static func perform<T>(_ context: SessionContext, _ body: () throws(Diagnostic) -> T) throws -> T {
    do {
      return try body()
    } catch {
      context.report(Diagnostics([error]))
      let status: ExitStatus =
        error.code == .secretStoreUnavailable || error.code == .secretStoreLocked ? .backendUnavailable : .invalid
      throw ExitCode(status.rawValue)
    }
  }
}
