import FlowDiagnostics
import FlowLibrary
import FlowModel
import FlowRuntime
import FlowSharing
import FlowYAML
import FoundationEssentials
import Glibc

/// What the sharing commands (`export`, `import`, `keys`) share.
public enum Sharing {
  /// The keys under `$XDG_CONFIG_HOME/flow/keys/`.
  public static func keyStore(_ context: SessionContext) -> KeyStore {
    KeyStore(directory: context.paths.keys)
  }

  /// The name a key gets when none is given: `$USER`, else the account's name (`$USER` is often unset
  /// in containers, cron and `env -i`, where the account is still there), when it can name a key; else `me`.
  public static func defaultKeyName(_ context: SessionContext) -> String {
    [context.environment["USER"], accountName].lazy.compactMap { $0 }.first(where: WorkflowName.isValidName) ?? "me"
  }

  /// The name of the account the process runs as, from the password database (NSS: /etc/passwd, LDAP…).
  public static var accountName: String? {
    guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
    return String(cString: name)
  }

  /// The version the `shared:` block records, `flow --version` prints and `flow mcp` reports.
  public static let flowVersion = "0.1.0"

  /// A workflow's name as a library name: "Bulk Tag" → `bulk-tag`; nil when nothing is left.
  public static func libraryName(for title: String) -> String? {
    var name = ""
    for scalar in title.lowercased().unicodeScalars {
      if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
        name.unicodeScalars.append(scalar)
      } else if !name.isEmpty, name.last != "-" {
        name.append("-")
      }
    }
    while name.hasSuffix("-") { name.removeLast() }
    return WorkflowName.isValidName(name) ? name : nil
  }

  /// The workflows `root` runs by literal reference, and those they run, each once, in the order met.
  public static func tree(of root: Workflow, check: WorkflowCheck) -> [(reference: String, workflow: Workflow)] {
    var found: [(reference: String, workflow: Workflow)] = []
    var visited: Set<String> = [root.identity]
    var pending = [root]
    while !pending.isEmpty {
      let workflow = pending.removeFirst()
      for child in check.children(of: workflow) {
        found.append(child)
        if visited.insert(child.workflow.identity).inserted { pending.append(child.workflow) }
      }
    }
    return found
  }

  /// The secrets check of `flow export` and `flow validate --lint-secrets`, one check for both: the
  /// workflow's file and every workflow it runs that the export would embed, each at the path it will
  /// have in the shared file (`workflows["greet.yml"].steps[1].text`), minus the paths `allowed`.
  public static func secrets(
    in root: Workflow, children: [(reference: String, workflow: Workflow)], allowed: Set<String>
  ) -> [SecretScanner.Finding] {
    var findings = SecretScanner().scan(document(root.file), allowed: allowed)
    var scanned: Set<String> = []
    // Workflows already embedded are part of the root's file, scanned with it.
    for (reference, child) in children where child.embeddedName == nil && scanned.insert(reference).inserted {
      findings += SecretScanner().scan(document(child.file), allowed: allowed, prefix: ["workflows", reference])
    }
    return findings
  }

  /// A file's YAML, for the secrets check (a signature block's text is not the workflow's).
  private static func document(_ file: SourceFile) -> YAMLDocument {
    switch SignatureBlock.split(file.bytes) {
    case .signed(let content, _, _): YAMLDocument.load(SourceFile(path: file.path, bytes: content))
    default: YAMLDocument.load(file)
    }
  }
}
