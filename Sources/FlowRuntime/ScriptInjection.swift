import FlowDiagnostics
import FlowIntents
import FlowModel

/// Refuses by design what is behind most script-injection advisories (GitHub Actions' `run:` with
/// `${{ github.event.issue.title }}` in it): a value pasted into `run-shell`'s `script:`, where the
/// shell reads it as code, so that a bookmark titled `"; rm -rf ~; "` runs. The fix is always the
/// same and always possible — the value goes to `arguments:` and the script says `"$1"` — so the
/// diagnostic shows the rewritten step.
///
/// A warning in a workflow of one's own, an error in a shared one (a file with `shared:`, its embedded
/// workflows, a file being imported): values in a shared workflow come from whoever runs it.
///
/// Also: a computed program (`command:`'s first item, `shell:`), which runs whatever the value names.
/// A reference as a whole `command:` item after the first is safe (no shell reads it) and passes.
enum ScriptInjection {
  /// The intent whose parameters this reads (FlowBasics' `run-shell`).
  static let action = "run-shell"

  static func check(_ workflow: Workflow, shared: Bool, registry: IntentRegistry) -> [Diagnostic] {
    var found: [Diagnostic] = []
    StepWalk.walk(workflow.steps) { visit in
      guard case .action(let call) = visit.step.kind,
        (try? registry.descriptor(for: call.id.value))?.id == action
      else { return }
      found += check(call, shared: shared)
    }
    return found
  }

  private static func check(_ call: ActionCall, shared: Bool) -> [Diagnostic] {
    var values: [String: Value] = [:]
    switch call.arguments {
    case .none: return []
    case .primary(let value): values["script"] = value
    case .named(let entries, _): for entry in entries { values[entry.key.value] = entry.value }
    }
    let severity: Diagnostic.Severity = shared ? .error : .warning
    var found: [Diagnostic] = []
    if case .text(let template)? = values["script"], let first = template.references.first {
      found.append(scriptDiagnostic(template, first: first, values: values, severity: severity, shared: shared))
    }
    let programs: [(String, Value?)] = [
      ("command", values["command"].flatMap { if case .list(let items, _) = $0 { items.first } else { $0 } }),
      ("shell", values["shell"]),
    ]
    for (key, value) in programs {
      guard case .text(let template)? = value, let first = template.references.first else { continue }
      found.append(
        Diagnostic(
          severity, .scriptInjection,
          "the program to run is computed from '${\(first)}': it runs whatever that value names", at: first.span
        )
        .note(sharedNote(shared))
        .help(
          key == "shell"
            ? "name the interpreter in the file ('shell: bash'); values go in 'arguments:' or 'input:'"
            : "name the program in the file ('command: [git, …]'); values go in the items after it"))
    }
    return found
  }

  private static func sharedNote(_ shared: Bool) -> String {
    shared
      ? "an error because this workflow is shared: its values come from whoever runs it"
      : "a warning here; in a shared workflow it is an error"
  }

  private static func scriptDiagnostic(
    _ template: Template, first: Reference, values: [String: Value], severity: Diagnostic.Severity, shared: Bool
  ) -> Diagnostic {
    if template.wholeReference != nil {
      return Diagnostic(
        severity, .scriptInjection, "the whole script is the value of '${\(first)}': whatever it holds runs as code",
        at: first.span
      )
      .note(sharedNote(shared))
      .help(
        "write the script in the file, and give it the value with 'arguments:' (\"$1\") or 'input:' (standard input)")
    }
    var diagnostic = Diagnostic(
      severity, .scriptInjection,
      "'${\(first)}' is pasted into the script, where the shell reads it as code: a value holding `$(…)` or `;` runs",
      at: first.span)
    for other in template.references.dropFirst() where other != first {
      diagnostic = diagnostic.note("and '${\(other)}' here", at: other.span)
    }
    diagnostic = diagnostic.note(sharedNote(shared))
    guard isShellLike(values["shell"]) else {
      return diagnostic.help(
        "pass the value with 'arguments:' and read it as the program's first argument (sys.argv[1] in Python), or with 'input:' on standard input"
      )
    }
    let rewrite = rewritten(template, after: existingArguments(values["arguments"]))
    diagnostic = diagnostic.help("pass values as arguments, which the shell never reads as code:")
    for line in rewrite.script { diagnostic = diagnostic.help("    \(line)") }
    if !rewrite.arguments.isEmpty {
      let list = rewrite.arguments.map { "\"\($0)\"" }.joined(separator: ", ")
      diagnostic = diagnostic.help(
        values["arguments"] == nil ? "    arguments: [\(list)]" : "    arguments: [… the ones you have, \(list)]")
    }
    return diagnostic
  }

  /// The script with each reference replaced by `"$N"` (`$N` inside double quotes), and the references
  /// in argument order; `${env.NAME}` becomes `"$NAME"`, since the command has the environment already.
  static func rewritten(_ template: Template, after existing: Int) -> (script: [String], arguments: [String]) {
    var text = ""
    var arguments: [String] = []
    var quote: Character?  // the quote the script is inside at this point: ' or "
    var escaped = false
    for part in template.parts {
      switch part {
      case .literal(let literal):
        for character in literal {
          if escaped {
            escaped = false
          } else if character == "\\", quote != "'" {
            escaped = true
          } else if character == "'" || character == "\"" {
            if quote == nil { quote = character } else if quote == character { quote = nil }
          }
        }
        text += literal.replacingOccurrences(of: "${", with: "$${")
      case .reference(let reference):
        let written = "${\(reference)}"
        let variable: String
        if reference.root == "env", case .property(let name)? = reference.path.first, reference.path.count == 1 {
          variable = name
        } else {
          if !arguments.contains(written) { arguments.append(written) }
          variable = String(existing + (arguments.firstIndex(of: written) ?? 0) + 1)
        }
        let expansion = variable.count > 1 && variable.allSatisfy(\.isNumber) ? "${\(variable)}" : "$\(variable)"
        switch quote {
        case "\"": text += expansion
        case "'": text += "'\"\(expansion)\"'"
        default: text += "\"\(expansion)\""
        }
      }
    }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.count <= 1 || lines.count == 2 && lines[1].isEmpty { return (["script: \(lines[0])"], arguments) }
    // A script of several lines: the lines that changed, under `script: |`.
    let original = template.asWritten.split(separator: "\n", omittingEmptySubsequences: false)
    var shown = ["script: |"]
    for (index, line) in lines.enumerated() where index >= original.count || original[index] != line {
      shown.append("  \(line.trimmingCharacters(in: .whitespaces))")
    }
    return (shown, arguments)
  }

  private static func existingArguments(_ value: Value?) -> Int {
    if case .list(let items, _)? = value { return items.count }
    return 0
  }

  /// Whether `shell:` names an sh-like shell (or is not given: /bin/sh), which reads `"$1"`.
  private static func isShellLike(_ value: Value?) -> Bool {
    guard let value else { return true }
    guard case .text(let template) = value, let shell = template.literal else { return false }
    let name = shell.split(separator: "/").last.map(String.init) ?? shell
    return ["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh"].contains(name)
  }
}

extension DiagnosticCode {
  /// A magic variable inside `run-shell`'s `script:`, or a computed program: a warning, an error in a
  /// shared workflow.
  public static let scriptInjection: Self = "script-injection"
}
