import FlowDiagnostics
import FlowLibrary
import FlowModel
import FlowRuntime
import FlowSystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Where secrets are kept (Secrets.md): the Secret Service on the session bus, or — opted into with
/// `FLOW_SECRETS=file` — one file per secret, in systemd's `$CREDENTIALS_DIRECTORY` when a unit passes
/// credentials, else in `$XDG_CONFIG_HOME/flow/secrets/` (mode 0600, with a warning at each use).
///
/// Never the one when the other fails: without a keyring the error names the fallback, and the files are
/// read only when asked for.
public struct SecretStore: Sendable {
  public enum Kind: Sendable, Equatable {
    case keyring
    /// Plain files in `folder`; `credentials` when systemd handed them to the unit.
    case files(folder: URL, credentials: Bool)
  }

  public var kind: Kind
  let environment: [String: String]

  public init(context: SessionContext) {
    environment = context.environment
    if environment["FLOW_SECRETS"] == "file" {
      if let credentials = environment["CREDENTIALS_DIRECTORY"], !credentials.isEmpty {
        kind = .files(folder: URL(fileURLWithPath: credentials, isDirectory: true), credentials: true)
      } else {
        kind = .files(
          folder: context.paths.config.appending(path: "secrets", directoryHint: .isDirectory), credentials: false)
      }
    } else {
      kind = .keyring
    }
  }

  /// What the `store` and `help` lines call this store.
  public var place: String {
    switch kind {
    case .keyring: "the keyring"
    case .files(let folder, _): folder.path
    }
  }

  /// How to go on without a keyring: the opt-in fallback.
  public static let fallback =
    "without a keyring, keep it in a file instead: 'FLOW_SECRETS=file flow secrets set NAME', and run with FLOW_SECRETS=file (Secrets.md, \"Without a keyring\")"

  // MARK: - Reading

  /// The values of `names`, with a warning for each read from a plain file. A name the store does not
  /// hold is absent from the result.
  public func read(_ names: [String]) throws(Diagnostic) -> (values: [String: String], warnings: [Diagnostic]) {
    switch kind {
    case .keyring:
      do {
        return (try SecretService(environment: environment, uid: getuid()).values(of: names), [])
      } catch {
        throw Self.unavailable(error)
      }
    case .files(let folder, let credentials):
      var values: [String: String] = [:]
      var warnings: [Diagnostic] = []
      for name in names {
        let file = folder.appending(path: name)
        guard case .success(let bytes) = RegularFile.read(file.path, limit: 1 << 20) else { continue }
        var value = String(decoding: bytes, as: UTF8.self)
        if value.hasSuffix("\n") { value.removeLast() }
        values[name] = value
        if !credentials {
          warnings.append(
            Diagnostic(
              .warning, .secretInFile,
              "secret '\(name)' is read from a plain file (FLOW_SECRETS=file): whoever can read \(file.path) has it",
              file: nil
            ).help("keep it in the keyring instead: 'flow secrets set \(name)' without FLOW_SECRETS"))
        }
      }
      return (values, warnings)
    }
  }

  // MARK: - Keeping

  /// Stores `value` as `name`.
  public func store(_ name: String, value: String) throws(Diagnostic) {
    switch kind {
    case .keyring:
      do {
        try SecretService(environment: environment, uid: getuid()).store(name, value: value)
      } catch {
        throw Self.unavailable(error)
      }
    case .files(let folder, let credentials):
      guard !credentials else { throw Self.readOnlyCredentials(folder) }
      do {
        try PrivateFiles.ensureDirectory(folder)
        try PrivateFiles.write(Data(value.utf8), to: folder.appending(path: name))
      } catch {
        throw Diagnostic(
          .error, .fileNotFound, "cannot save the secret: \(error.reason)", file: folder.path)
      }
    }
  }

  /// Removes `name`; false when there was no such secret.
  public func remove(_ name: String) throws(Diagnostic) -> Bool {
    switch kind {
    case .keyring:
      do {
        return try SecretService(environment: environment, uid: getuid()).remove(name)
      } catch {
        throw Self.unavailable(error)
      }
    case .files(let folder, let credentials):
      guard !credentials else { throw Self.readOnlyCredentials(folder) }
      let file = folder.appending(path: name)
      guard FileManager.default.fileExists(atPath: file.path) else { return false }
      do {
        try FileManager.default.removeItem(at: file)
      } catch {
        throw Diagnostic(
          .error, .fileNotFound, "cannot remove the secret: \(error.reason)", file: file.path)
      }
      return true
    }
  }

  /// The names of the secrets kept, sorted.
  public func names() throws(Diagnostic) -> [String] {
    switch kind {
    case .keyring:
      do {
        return try SecretService(environment: environment, uid: getuid()).names()
      } catch {
        throw Self.unavailable(error)
      }
    case .files(let folder, _):
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      return entries.filter { WorkflowFormat.isSecretName($0) }.sorted()
    }
  }

  // MARK: - Problems

  static func unavailable(_ failure: SecretService.Failure) -> Diagnostic {
    switch failure {
    case .unavailable(let why):
      Diagnostic(.error, .secretStoreUnavailable, "cannot reach the keyring: \(why)", file: nil).help(fallback)
    case .locked(let why):
      Diagnostic(.error, .secretStoreLocked, "cannot read the keyring: \(why)", file: nil).help(
        "unlock it (log in to the desktop, or open Seahorse), or \(fallback)")
    case .failed(let why):
      Diagnostic(.error, .secretStoreUnavailable, "the keyring failed: \(why)", file: nil).help(fallback)
    }
  }

  static func readOnlyCredentials(_ folder: URL) -> Diagnostic {
    Diagnostic(
      .error, .secretStoreUnavailable,
      "CREDENTIALS_DIRECTORY (\(folder.path)) is systemd's, and read-only: secrets reach it from the unit", file: nil
    ).help("unset CREDENTIALS_DIRECTORY to keep the secret in flow's own folder")
  }
}

extension DiagnosticCode {
  /// No Secret Service (no session bus, nobody owns `org.freedesktop.secrets`), or it failed.
  public static let secretStoreUnavailable: Self = "secret-store-unavailable"
  /// The keyring is locked, and unlocking it needs a person at the desktop.
  public static let secretStoreLocked: Self = "secret-store-locked"
  /// A workflow declares a secret the store does not hold.
  public static let secretMissing: Self = "secret-missing"
  /// A secret was read from a plain file (`FLOW_SECRETS=file`).
  public static let secretInFile: Self = "secret-in-file"
}

// MARK: - A run's secrets

extension SecretStore {
  /// The secrets `workflow` and the workflows it runs list under `secrets:`, each once, with where it is
  /// first listed.
  public static func declared(in workflow: Workflow, check: WorkflowCheck) -> [Located<String>] {
    var found: [Located<String>] = []
    var seen: Set<String> = []
    var visited: Set<String> = []
    func visit(_ workflow: Workflow) {
      guard visited.insert(workflow.file.path + "#" + (workflow.embeddedName ?? "")).inserted else { return }
      for name in workflow.secrets where seen.insert(name.value).inserted { found.append(name) }
      for child in check.children(of: workflow) { visit(child.workflow) }
    }
    visit(workflow)
    return found
  }

  /// Reads what the run needs before its first step: every declared secret, or the reason the run cannot
  /// start — a secret the store does not hold (needs input: `flow secrets set`), or no store to ask.
  public func readForRun(_ declared: [Located<String>]) throws(RunError) -> (
    values: [String: String], warnings: [Diagnostic]
  ) {
    let read: (values: [String: String], warnings: [Diagnostic])
    do {
      read = try self.read(declared.map(\.value))
    } catch {
      throw RunError(.backendUnavailable, Diagnostics([error]))
    }
    let missing = declared.filter { read.values[$0.value] == nil }
    guard missing.isEmpty else {
      throw RunError(
        .needsInput,
        Diagnostics(
          missing.map { name in
            Diagnostic(.error, .secretMissing, "secret '\(name.value)' is not in \(place)", at: name.span)
              .help(
                "store it first: flow secrets set \(name.value)"
                  + (kind == .keyring ? "" : " (with FLOW_SECRETS=file, as this run has it)"))
          }))
    }
    return read
  }
}

// MARK: - Sharing

extension SecretStore {
  /// Where `file` holds a secret's value as written, for `flow export`'s refusal: one diagnostic per
  /// place, naming the secret, never the value.
  public static func exposures(of values: [String: String], in file: SourceFile) -> [Diagnostic] {
    let text = String(decoding: file.bytes, as: UTF8.self)
    // Its lines are never quoted under the message: that would print the value.
    let file = SourceFile(path: file.path, bytes: file.bytes, isQuotable: false)
    var found: [Diagnostic] = []
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      for (name, value) in values.sorted(by: { $0.key < $1.key }) where !value.isEmpty {
        var rest = line[...]
        while let range = rest.firstRange(of: value) {
          let column = line.unicodeScalars.distance(from: line.startIndex, to: range.lowerBound) + 1
          let start = SourceLocation(line: number + 1, column: column)
          let end = SourceLocation(line: number + 1, column: column + value.unicodeScalars.count)
          found.append(
            Diagnostic(
              .error, .secretExposed, "this is the value of your secret '\(name)'",
              at: SourceSpan(file: file, start: start, end: end)
            ).help("write ${secret.\(name)} instead, with '\(name)' listed under 'secrets:'"))
          rest = line[range.upperBound...]
        }
      }
    }
    return found
  }
}

extension DiagnosticCode {
  /// A file to be shared holds the value of one of the keyring's secrets.
  public static let secretExposed: Self = "secret-exposed"
}
