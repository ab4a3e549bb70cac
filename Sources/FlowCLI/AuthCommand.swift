import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowSession
import FlowSystem
import FoundationEssentials
import RaindropModel
import RaindropREST

/// `flow auth login|status|logout`: the Raindrop.io token (SPEC §7). It is kept in the keyring as the
/// secret `raindrop-token` when there is one (Secrets.md), else in `$XDG_CONFIG_HOME/flow/raindrop-token`
/// with mode 0600, which keeps working; never printed, and sent only to the API.
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
        Raindrop.io before it is saved, and a refused token is not saved. It goes into the keyring (the \
        Secret Service) when there is one, else into a file only you can read. A token saved in that file \
        earlier keeps working; at a terminal, login offers to move it into the keyring (--move does it \
        without asking).
        """
    )

    @Flag(help: "Save the token without checking it with Raindrop.io (when offline).")
    var noCheck = false

    @Flag(help: "Move the token saved in the file into the keyring, and remove the file.")
    var move = false

    func run() async throws {
      let context = SessionContext.current
      let backends = Backends(context: context)
      let console = context.console
      let file = context.paths.tokenFile
      // The offer is made only when a keyring answers; `--move` without one says why it cannot.
      if let (saved, source) = backends.token(), source == .file,
        move
          || (console.isTerminal(.input) && SecretStore(context: context).kind == .keyring
            && (try? SecretStore(context: context).names()) != nil
            && Interrupts.whileReadingInput({
              console.write("A token is saved in \(file.path). Move it into the keyring? [Y/n] ", to: .error)
              return console.readLine()
            }).map({ ["", "y", "yes"].contains($0.lowercased()) }) == true)
      {
        try AuthCommand.saveInKeyring(saved, context: context)
        try? FileManager.default.removeItem(at: file)
        context.print("Moved the token from \(file.path) into the keyring (secret '\(Backends.tokenSecret)').")
        return
      }
      if move {
        context.report(
          Diagnostics([
            Diagnostic(.error, .fileNotFound, "there is no saved token to move", file: file.path).help(
              "log in with 'flow auth login' to save one")
          ]))
        throw ExitCode(ExitStatus.invalid.rawValue)
      }
      let line = Interrupts.whileReadingInput { console.readSecretLine(prompt: "Raindrop.io token: ") }
      guard let token = line?.trimmingWhitespaceAndNewlines(), !token.isEmpty else {
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
      // The keyring first; without one the file, said out loud (Secrets.md: never a silent plaintext).
      var place = "the keyring"
      var keyring: Diagnostic?
      if SecretStore(context: context).kind == .keyring {
        do throws(Diagnostic) {
          try SecretStore(context: context).store(Backends.tokenSecret, value: token)
          try AuthCommand.mark(context)
          try? FileManager.default.removeItem(at: context.paths.tokenFile)
        } catch {
          keyring = error
        }
      } else {
        keyring = Diagnostic(.warning, .secretInFile, "FLOW_SECRETS=file: the token goes into a file", file: nil)
      }
      if let keyring {
        place = context.paths.tokenFile.path
        context.report(
          Diagnostics([
            Diagnostic(.warning, .secretInFile, keyring.message, file: nil).help(
              "so the token is saved in \(place), which only you can read; "
                + "'flow auth login --move' moves it into the keyring later")
          ]))
        do {
          // Written 0600 from its first byte, so the token is never readable by others.
          try PrivateFiles.write(Data((token + "\n").utf8), to: context.paths.tokenFile)
          try? FileManager.default.removeItem(at: backends.keyringMarker)
        } catch {
          context.report(
            Diagnostics([
              Diagnostic(
                .error, .fileNotFound, "cannot save the token: \(error.reason)",
                file: context.paths.tokenFile.path)
            ]))
          throw ExitCode(ExitStatus.invalid.rawValue)
        }
      }
      if let account {
        context.print("Logged in to Raindrop.io as \(account); saved the token in \(place).")
      } else {
        context.print("Saved the token in \(place) without checking it; 'flow auth status' checks it.")
      }
    }
  }

  struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "status", abstract: "Say which token is used, and check it with Raindrop.io.")

    func run() async throws {
      let context = SessionContext.current
      let backends = Backends(context: context)
      var found = backends.token()
      if found == nil {
        do throws(Diagnostic) {
          found = try backends.keyringToken().map { ($0, .keyring) }
        } catch {
          throw fail(context, "the token is in the keyring, and \(error.message)", help: error.helps.first ?? "")
        }
      }
      guard let (token, source) = found else {
        context.print("Not logged in: no RAINDROP_TOKEN and no saved token. Runs use the local store.")
        return
      }
      let origin =
        switch source {
        case .environment: "RAINDROP_TOKEN"
        case .file: context.paths.tokenFile.path
        case .keyring: "the keyring"
        }
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
      let backends = Backends(context: context)
      var removed = false
      if backends.tokenInKeyring {
        var store = SecretStore(context: context)
        store.kind = .keyring
        do throws(Diagnostic) {
          _ = try store.remove(Backends.tokenSecret)
        } catch {
          throw fail(
            context, "cannot remove the token from the keyring: \(error.message)", help: error.helps.first ?? "")
        }
        try FileManager.default.removeItem(at: backends.keyringMarker)
        context.print("Logged out: removed the token from the keyring.")
        removed = true
      }
      if FileManager.default.fileExists(atPath: context.paths.tokenFile.path) {
        try FileManager.default.removeItem(at: context.paths.tokenFile)
        context.print("Logged out: removed \(context.paths.tokenFile.path).")
        removed = true
      }
      if !removed { context.print("No saved token to remove.") }
      if context.environment["RAINDROP_TOKEN"] != nil {
        context.print("RAINDROP_TOKEN is still set in the environment; unset it to stop using Raindrop.io.")
      }
    }
  }

  /// Stores `token` in the keyring, and leaves the marker runs look for.
  static func saveInKeyring(_ token: String, context: SessionContext) throws {
    do throws(Diagnostic) {
      var store = SecretStore(context: context)
      store.kind = .keyring
      try store.store(Backends.tokenSecret, value: token)
      try mark(context)
    } catch {
      context.report(Diagnostics([error]))
      throw ExitCode(ExitStatus.backendUnavailable.rawValue)
    }
  }

  /// Leaves the file that tells runs the token is in the keyring.
  static func mark(_ context: SessionContext) throws(Diagnostic) {
    let marker = Backends(context: context).keyringMarker
    do {
      try PrivateFiles.write(Data("secret \(Backends.tokenSecret)\n".utf8), to: marker)
    } catch {
      throw Diagnostic(.error, .fileNotFound, "cannot save \(marker.path): \(error.reason)", file: nil)
    }
  }

  /// Reports a problem with the login and gives the exit status of an unreachable or refusing backend.
  private static func fail(_ context: SessionContext, _ message: String, help: String) -> ExitCode {
    context.report(Diagnostics([Diagnostic(.error, .backendUnavailable, message, file: nil).help(help)]))
    return ExitCode(ExitStatus.backendUnavailable.rawValue)
  }
}
