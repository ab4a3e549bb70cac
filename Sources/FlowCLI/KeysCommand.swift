import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowSession
import FlowSharing
import FoundationEssentials

/// `flow keys`: your signing keys and the keys you trust (issue 9).
struct KeysCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "keys",
    abstract: "Make signing keys, and choose whose signatures you trust.",
    discussion: """
      Keys live in $XDG_CONFIG_HOME/flow/keys (~/.config/flow/keys): NAME.key is a private key (mode \
      0600), NAME.pub its public half, trusted/NAME.pub a key you trust. 'flow export --sign' signs with \
      your key; 'flow import', 'flow show' and 'flow list' say 'signed by NAME (trusted)' for a key you \
      trust and give the fingerprint of one you do not.
      """,
    subcommands: [Generate.self, List.self, Export.self, Trust.self, Untrust.self]
  )

  struct Generate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "generate",
      abstract: "Make an Ed25519 signing key, and trust it under its name.")

    @Option(help: ArgumentHelp("The key's name, shown as 'signed by NAME'; default your user name.", valueName: "NAME"))
    var name: String?

    func run() async throws {
      let context = SessionContext.current
      let name = name ?? Sharing.defaultKeyName(context)
      guard WorkflowName.isValidName(name) else { throw KeysCommand.badName(name, context) }
      try KeysCommand.refuseLookAlike(name, context)
      do {
        let key = try Sharing.keyStore(context).generate(name: name)
        context.print("\(key.name) \(key.publicKey.fingerprint)")
        context.console.write(
          "private key: \(key.file.path) (keep it to yourself)\n"
            + "others trust your signatures after: flow keys export \(name) > \(name).pub, then flow keys trust \(name).pub --name \(name)\n",
          to: .error)
      } catch {
        throw Sharing.fail(error, context)
      }
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List your keys and the keys you trust.")

    @Flag(help: "Print the keys as JSON on standard output.")
    var json = false

    func run() async throws {
      let context = SessionContext.current
      let store = Sharing.keyStore(context)
      let own = Set(store.ownKeys().map(\.publicKey))
      var rows: [Row] = store.trustedKeys().map {
        Row(name: $0.name, fingerprint: $0.publicKey.fingerprint, own: own.contains($0.publicKey), trusted: true)
      }
      for key in store.ownKeys() where !rows.contains(where: { $0.fingerprint == key.publicKey.fingerprint }) {
        rows.append(Row(name: key.name, fingerprint: key.publicKey.fingerprint, own: true, trusted: false))
      }
      rows.sort { $0.name < $1.name }
      if json { return try context.printJSON(rows) }
      guard !rows.isEmpty else {
        context.console.write("no keys yet: 'flow keys generate' makes yours\n", to: .error)
        return
      }
      let width = max(4, rows.map(\.name.count).max() ?? 0)
      context.print("NAME" + String(repeating: " ", count: width - 2) + "KEY      FINGERPRINT")
      for row in rows {
        let kind = row.own ? (row.trusted ? "yours" : "yours, untrusted") : "trusted"
        let padded = row.name + String(repeating: " ", count: width + 2 - row.name.count)
        context.print(padded + kind + String(repeating: " ", count: max(1, 9 - kind.count)) + row.fingerprint)
      }
    }

    struct Row: Encodable {
      var name: String
      var fingerprint: String
      /// One of your own keys (you have its private half).
      var own: Bool
      var trusted: Bool
    }
  }

  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Print the public half of your key, for others to trust.")

    @Argument(help: "Which of your keys; needed only when you have several.")
    var name: String?

    func run() async throws {
      let context = SessionContext.current
      let own = Sharing.keyStore(context).ownKeys()
      let key: KeyStore.OwnKey
      if let name {
        guard let found = own.first(where: { $0.name == name }) else {
          throw Library.fail(
            Diagnostic(.error, .keyProblem, "no signing key named '\(name)'", at: nil)
              .help(Suggestion.help(for: name, among: own.map(\.name)) ?? "'flow keys list' shows your keys"), context)
        }
        key = found
      } else {
        guard own.count == 1 else {
          throw Library.fail(
            Diagnostic(
              .error, .keyProblem, own.isEmpty ? "you have no signing key" : "you have several signing keys", at: nil
            )
            .help(
              own.isEmpty ? "'flow keys generate' makes one" : "name one: \(own.map(\.name).joined(separator: ", "))"),
            context)
        }
        key = own[0]
      }
      context.print(key.publicKey.line(name: key.name))
    }
  }

  struct Trust: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "trust",
      abstract: "Trust a key: signatures by it then read 'signed by NAME (trusted)'.",
      discussion: """
        KEY is a file holding a public key, as 'flow keys export' prints it, or that line or the key \
        itself. Check its fingerprint with its owner over another channel first.
        """)

    @Argument(help: "A public key file, or the key itself.")
    var key: String

    @Option(
      help: ArgumentHelp("The name to know the key by; default the name the key line suggests.", valueName: "NAME"))
    var name: String?

    func run() async throws {
      let context = SessionContext.current
      let url = context.url(for: key)
      let file = try? String(contentsOf: url, encoding: .utf8)
      guard let (publicKey, suggested) = PublicKey.parse(file ?? key) else {
        // Say which of the two readings failed: a file that holds no key, or neither a file nor a key.
        let problem =
          file != nil
          ? Diagnostic(.error, .keyProblem, "the file does not hold a public key", file: url.path)
          : Diagnostic(.error, .keyProblem, "'\(key.prefix(60))' is neither a file nor a public key", at: nil)
        throw Library.fail(
          problem.help("give the file 'flow keys export' wrote, or its line: flow-ed25519 KEY NAME"), context)
      }
      guard let name = name ?? suggested else {
        throw Library.fail(
          Diagnostic(.error, .keyProblem, "the key needs a name", at: nil).help("pass --name NAME"), context)
      }
      guard WorkflowName.isValidName(name) else { throw KeysCommand.badName(name, context) }
      try KeysCommand.refuseLookAlike(name, context)
      do {
        try Sharing.keyStore(context).trust(publicKey, as: name)
      } catch {
        throw Sharing.fail(error, context)
      }
      context.print("trusted '\(name)' \(publicKey.fingerprint)")
    }
  }

  struct Untrust: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "untrust",
      abstract: "Stop trusting a key; its signatures then read 'signed by an unknown key'.")

    @Argument(help: "The name the key is trusted under.")
    var name: String

    func run() async throws {
      let context = SessionContext.current
      do {
        try Sharing.keyStore(context).untrust(name: name)
      } catch {
        throw Sharing.fail(error, context)
      }
      context.print("no longer trusting '\(name)'")
    }
  }

  /// A key name that could pass for one already there (`аda` with a Cyrillic `а` beside `ada`) would make
  /// "signed by ada" on a card mean either key.
  static func refuseLookAlike(_ name: String, _ context: SessionContext) throws {
    let store = Sharing.keyStore(context)
    let existing = store.ownKeys().map(\.name) + store.trustedKeys().map(\.name)
    if let lookAlike = LookAlikes.problem(name, .key, among: existing) { throw Library.fail(lookAlike, context) }
  }

  static func badName(_ name: String, _ context: SessionContext) -> ExitCode {
    Library.fail(
      Diagnostic(.error, .keyProblem, "'\(name)' cannot name a key", at: nil)
        .help("use letters, digits, '-' and '_', starting with a letter or digit"), context)
  }
}
