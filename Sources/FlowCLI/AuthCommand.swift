import ArgumentParser
import FlowDiagnostics
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
      abstract: "Save a Raindrop.io token (a test token from app.raindrop.io/settings/integrations).",
      discussion: "The token is read from standard input, so it never appears in the shell's history."
    )

    func run() async throws {
      let context = CLIContext.current
      if context.console.isTerminal(.input) { context.console.write("Raindrop.io token: ", to: .error) }
      guard let line = context.console.readLine()?.trimmingCharacters(in: .whitespacesAndNewlines), !line.isEmpty else {
        context.report(
          Diagnostics([
            Diagnostic(.error, .invalidInput, "no token given", file: nil).help(
              "pipe it in: flow auth login < token.txt")
          ]))
        throw ExitCode(ExitStatus.invalid.rawValue)
      }
      do {
        try FileManager.default.createDirectory(at: context.paths.config, withIntermediateDirectories: true)
        // Created with mode 0600 before anything is written, so the token is never readable by others.
        let path = context.paths.tokenFile.path
        _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        try Data((line + "\n").utf8).write(to: context.paths.tokenFile)
      } catch {
        context.report(
          Diagnostics([
            Diagnostic(
              .error, .fileNotFound, "cannot save the token: \(error.localizedDescription)",
              file: context.paths.tokenFile.path)
          ]))
        throw ExitCode(ExitStatus.invalid.rawValue)
      }
      context.print(
        "Saved the token in \(context.paths.tokenFile.path). Runs now use Raindrop.io; 'flow auth status' checks it.")
    }
  }

  struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Say which token is used, and check it with Raindrop.io.")

    func run() async throws {
      let context = CLIContext.current
      let backends = Backends(context: context)
      guard let (token, source) = backends.token() else {
        context.print("Not logged in: no RAINDROP_TOKEN and no saved token. Runs use the local store.")
        return
      }
      let origin = source == .environment ? "RAINDROP_TOKEN" : context.paths.tokenFile.path
      var baseURL = RaindropClient.defaultBaseURL
      if let custom = context.environment["RAINDROP_API_URL"], let url = URL(string: custom), url.scheme != nil {
        baseURL = url
      }
      let client = RaindropClient(token: token, baseURL: baseURL, transport: context.transport)
      do {
        let user = try await client.currentUser()
        context.print("Logged in to Raindrop.io as \(user.name) (token from \(origin)).")
      } catch {
        context.report(
          Diagnostics([
            Diagnostic(
              .error, .backendUnavailable, "the token from \(origin) does not work: \(error.description)", file: nil
            )
            .help(error.help)
          ]))
        throw ExitCode(ExitStatus.backendUnavailable.rawValue)
      }
    }
  }

  struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Forget the saved token.")

    func run() async throws {
      let context = CLIContext.current
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
}
