import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowSession
import FlowSystem
import Foundation
import RaindropModel
import RaindropREST

/// `flow auth login|status|logout`: the Raindrop.io token (SPEC §7). It is kept in
/// `$XDG_CONFIG_HOME/flow/raindrop-token` with mode 0600, never printed, and sent only to the API.
struct AuthCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "auth",
    abstract: "Log in to Raindrop.io, check the login, or log out.",
    subcommands: [Login.self, Status.self, Logout.self]
  )

  struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "login",
      abstract: "Save a Raindrop.io token (a test token from app.raindrop.io/settings/integrations).",
      discussion: """
        At a terminal the token is typed without being shown; otherwise it is read from standard input \
        (flow auth login < token.txt), so it never appears in the shell's history. It is checked with \
        Raindrop.io before it is saved, and a refused token is not saved.
        """
    )

    @Flag(help: "Save the token without checking it with Raindrop.io (when offline).")
    var noCheck = false

    func run() async throws {
      let context = SessionContext.current
      let backends = Backends(context: context)
      let console = context.console
      let line = Interrupts.whileReadingInput { console.readSecretLine(prompt: "Raindrop.io token: ") }
      guard let token = line?.trimmingCharacters(in: .whitespacesAndNewlines), !token.isEmpty else {
        context.report(
          Diagnostics([
            Diagnostic(.error, .invalidInput, "no token given", file: nil).help(
              "type it at the prompt, or pipe it in: flow auth login < token.txt")
          ]))
        throw ExitCode(ExitStatus.invalid.rawValue)
      }
      var account: String?
      if !noCheck {
        switch await TokenCheck.check(token, with: backends) {
        case .accepted(let user):
          account = user.name
        case .refused(let reason):
          throw fail(
            context, "Raindrop.io refused the token (\(reason)); nothing was saved",
            help: "copy the test token again from app.raindrop.io/settings/integrations")
        case .unchecked(let error):
          throw fail(
            context, "could not check the token: \(error.description); nothing was saved",
            help: "try again when Raindrop.io can be reached, or save it unchecked with --no-check")
        }
      }
      do {
        // Written 0600 from its first byte, so the token is never readable by others.
        try PrivateFiles.write(Data((token + "\n").utf8), to: context.paths.tokenFile)
      } catch {
        context.report(
          Diagnostics([
            Diagnostic(
              .error, .fileNotFound, "cannot save the token: \(error.localizedDescription)",
              file: context.paths.tokenFile.path)
          ]))
        throw ExitCode(ExitStatus.invalid.rawValue)
      }
      if let account {
        context.print("Logged in to Raindrop.io as \(account); saved the token in \(context.paths.tokenFile.path).")
      } else {
        context.print(
          "Saved the token in \(context.paths.tokenFile.path) without checking it; 'flow auth status' checks it.")
      }
    }
  }

  struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "status", abstract: "Say which token is used, and check it with Raindrop.io.")

    func run() async throws {
      let context = SessionContext.current
      let backends = Backends(context: context)
      guard let (token, source) = backends.token() else {
        context.print("Not logged in: no RAINDROP_TOKEN and no saved token. Runs use the local store.")
        return
      }
      let origin = source == .environment ? "RAINDROP_TOKEN" : context.paths.tokenFile.path
      switch await TokenCheck.check(token, with: backends) {
      case .accepted(let user):
        context.print("Logged in to Raindrop.io as \(user.name) (token from \(origin)).")
      case .refused(let reason):
        throw fail(
          context, "Raindrop.io refused the token from \(origin) (\(reason))",
          help: source == .environment
            ? "set RAINDROP_TOKEN to a working token, or unset it" : "run 'flow auth login' with a new token")
      case .unchecked(let error):
        // Not a verdict on the token: say so, so nobody replaces a good token because the network is down.
        throw fail(
          context, "could not check the token from \(origin): \(error.description)",
          help: "the token itself may be fine; run 'flow auth status' again when Raindrop.io can be reached")
      }
    }
  }

  struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Forget the saved token.")

    func run() async throws {
      let context = SessionContext.current
      if FileManager.default.fileExists(atPath: context.paths.tokenFile.path) {
        try FileManager.default.removeItem(at: context.paths.tokenFile)
        context.print("Logged out: removed \(context.paths.tokenFile.path).")
      } else {
        context.print("No saved token to remove.")
      }
      if context.environment["RAINDROP_TOKEN"] != nil {
        context.print("RAINDROP_TOKEN is still set in the environment; unset it to stop using Raindrop.io.")
      }
    }
  }

  /// Reports a problem with the login and gives the exit status of an unreachable or refusing backend.
  private static func fail(_ context: SessionContext, _ message: String, help: String) -> ExitCode {
    context.report(Diagnostics([Diagnostic(.error, .backendUnavailable, message, file: nil).help(help)]))
    return ExitCode(ExitStatus.backendUnavailable.rawValue)
  }
}
