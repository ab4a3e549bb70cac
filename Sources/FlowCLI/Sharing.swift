import ArgumentParser
import FlowDiagnostics
import FlowModel
import FlowRuntime
import FlowSharing
import Foundation

/// What the sharing commands (`export`, `import`, `keys`) share.
enum Sharing {
  /// The keys under `$XDG_CONFIG_HOME/flow/keys/`.
  static func keyStore(_ context: CLIContext) -> KeyStore {
    KeyStore(directory: context.paths.keys)
  }

  /// The version the `shared:` block records.
  static var flowVersion: String { FlowCommand.configuration.version }

  /// `2026-11-23T09:15:00Z`.
  static func timestamp(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: false))
  }

  static func date(_ text: String) -> Date? {
    try? Date(text, strategy: Date.ISO8601FormatStyle())
  }

  /// A workflow's name as a library name: "Bulk Tag" → `bulk-tag`; nil when nothing is left.
  static func libraryName(for title: String) -> String? {
    var name = ""
    for scalar in title.lowercased().unicodeScalars {
      if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
        name.unicodeScalars.append(scalar)
      } else if !name.isEmpty, name.last != "-" {
        name.append("-")
      }
    }
    while name.hasSuffix("-") { name.removeLast() }
    return Library.isValidName(name) ? name : nil
  }

  /// The workflows `root` runs by literal reference, and those they run, each once, in the order met.
  static func tree(of root: Workflow, check: WorkflowCheck) -> [(reference: String, workflow: Workflow)] {
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

  /// Reports a key store problem and returns the error that ends the command.
  static func fail(_ problem: KeyStore.Problem, _ context: CLIContext) -> ExitCode {
    Library.fail(Diagnostic(.error, .keyProblem, problem.message, file: problem.file).help(problem.help), context)
  }
}
