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
    var budget = refinedSpans
    StepWalk.walk(workflow.steps) { visit in
      // `run-shell` has no namespace, so no other spelling of an id names it: the lookup, which confirms
      // it is the built-in one, is asked only of that id.
      guard case .action(let call) = visit.step.kind, call.id.value == action,
        (try? registry.descriptor(for: call.id.value))?.id == action
      else { return }
      found += check(call, shared: shared, budget: &budget)
    }
    return found
  }

  private static func check(_ call: ActionCall, shared: Bool, budget: inout Int) -> [Diagnostic] {
    var values: [String: Value] = [:]
    switch call.arguments {
    case .none: return []
    case .primary(let value): values["script"] = value
    case .named(let entries, _): for entry in entries { values[entry.key.value] = entry.value }
    }
    let severity: Diagnostic.Severity = shared ? .error : .warning
    var found: [Diagnostic] = []
    switch values["script"] {
    case .text(let template)?:
      if let first = template.references.first {
        found.append(
          scriptDiagnostic(template, first: first, values: values, severity: severity, shared: shared, budget: &budget))
      }
    case let script?:
      // A list or a dictionary where the script's text belongs: whatever becomes of it, no value goes in.
      if let first = script.references.first {
        found.append(
          Diagnostic(
            severity, .scriptInjection,
            "'${\(first)}' is in the script, where the shell would read it as code: a value holding `$(…)` or `;` runs",
            at: first.span
          )
          .note(sharedNote(shared))
          .help("write the script as one text in the file, and give it values with 'arguments:' (\"$1\") or 'input:'"))
      }
    case nil:
      break
    }
    let programs: [(String, Value?)] = [
      ("command", values["command"].flatMap { if case .list(let items, _) = $0 { items.first } else { $0 } }),
      ("shell", values["shell"]),
    ]
    for (key, value) in programs {
      guard let value, let first = value.references.first else { continue }
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
    if case .list(let items, _)? = values["command"] {
      found += commandDiagnostics(items, severity: severity, shared: shared)
    }
    if let environment = values["environment"] {
      found += environmentDiagnostics(environment, severity: severity, shared: shared)
    }
    return found
  }

  private static func sharedNote(_ shared: Bool) -> String {
    shared
      ? "an error because this workflow is shared: its values come from whoever runs it"
      : "a warning here; in a shared workflow it is an error"
  }

  private static func scriptDiagnostic(
    _ template: Template, first: Reference, values: [String: Value], severity: Diagnostic.Severity, shared: Bool,
    budget: inout Int
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
    let firstSpan = located(0, in: template, budget: &budget)
    var diagnostic = Diagnostic(
      severity, .scriptInjection,
      "'${\(first)}' is pasted into the script, where the shell reads it as code: a value holding `$(…)` or `;` runs",
      at: firstSpan)
    for (index, other) in template.references.enumerated().dropFirst() {
      let span = located(index, in: template, budget: &budget)
      if span != firstSpan { diagnostic = diagnostic.note("and '${\(other)}' here", at: span) }
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
    let (text, arguments) = rewrittenText(template, after: existing)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.count <= 1 || lines.count == 2 && lines[1].isEmpty { return (["script: \(lines[0])"], arguments) }
    // A script of several lines: the lines that changed, under `script: |`.
    let original = template.asWritten.split(separator: "\n", omittingEmptySubsequences: false)
    var shown = ["script: |"]
    for (index, line) in lines.enumerated() where index >= original.count || original[index] != line {
      shown.append("  \(line.trimmingWhitespace())")
    }
    return (shown, arguments)
  }

  /// The code with each reference replaced by `"$N"`, and the references in argument order.
  static func rewrittenText(_ template: Template, after existing: Int) -> (text: String, arguments: [String]) {
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
        text += literal.replacingEvery("${", with: "$${")
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
    return (text, arguments)
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

// MARK: - Spans in block scalars

extension ScriptInjection {
  /// The span of `reference` where it is written: the YAML reader gives a reference in a `|` or `>`
  /// block the block's span, and a script's reference is worth its own line and column. A block's text is
  /// its lines less their indentation, with no escapes, so the n-th `${` in those lines is the n-th
  /// reference. Reads the file (linear), so only for diagnostics, and for at most ``refinedSpans`` of them.
  static func located(_ index: Int, in template: Template, budget: inout Int) -> SourceSpan {
    let reference = template.references[index]
    guard reference.span == template.span, template.wholeReference == nil, budget > 0 else { return reference.span }
    budget -= 1
    let file = template.span.file
    let bytes = file.bytes
    // The block's lines start after its header's line; they end at a line indented no more than that one.
    var line = 1
    var position = 0
    while line <= template.span.start.line, position < bytes.count {
      if bytes[position] == 0x0A { line += 1 }
      position += 1
    }
    guard let header = file.line(template.span.start.line) else { return reference.span }
    let headerIndent = header.prefix { $0 == " " }.count
    var seen = 0
    while position < bytes.count {
      let end = bytes[position...].firstIndex(of: 0x0A) ?? bytes.count
      let text = Array(String(decoding: bytes[position..<end], as: UTF8.self).unicodeScalars)
      let indent = text.prefix { $0 == " " }.count
      if indent < text.count, indent <= headerIndent { break }
      var column = 0
      while column + 1 < text.count {
        if text[column] == "$", text[column + 1] == "$", column + 2 < text.count, text[column + 2] == "{" {
          column += 3
          continue
        }
        if text[column] == "$", text[column + 1] == "{", let close = text[column...].firstIndex(of: "}") {
          if seen == index {
            return SourceSpan(
              file: file, start: SourceLocation(line: line, column: column + 1),
              end: SourceLocation(line: line, column: close + 2))
          }
          seen += 1
          column = close + 1
          continue
        }
        column += 1
      }
      line += 1
      position = end + 1
    }
    return reference.span
  }

  /// How many references in block scalars a workflow's check places exactly; the rest point at the block.
  static let refinedSpans = 64
}

// MARK: - command: and environment:

extension ScriptInjection {
  /// The references `command:` reads as code (CodeArguments has the rule), each with its rewrite.
  fileprivate static func commandDiagnostics(_ items: [Value], severity: Diagnostic.Severity, shared: Bool)
    -> [Diagnostic]
  {
    let words = items.map { item -> CodeArguments.Item in
      var prefix = ""
      if case .text(let template) = item {
        for part in template.parts {
          guard case .literal(let text) = part else { break }
          prefix += text
        }
      }
      let literal: String? = if case .text(let template) = item { template.literal } else { nil }
      return CodeArguments.Item(literal: literal, prefix: literal ?? prefix, references: item.references)
    }
    var found: [Diagnostic] = []
    var reported: Set<Int> = []
    for finding in CodeArguments.findings(words) {
      let first = finding.reference
      let program = finding.program
      var diagnostic: Diagnostic
      switch finding.reading {
      case .code(let option):
        let code = option.map { "the code '\(program) \($0)' runs" } ?? "the program \(program) runs"
        let reader = CodeArguments.shells.contains(program) ? "the shell" : program
        diagnostic = Diagnostic(
          severity, .scriptInjection,
          "'${\(first)}' is pasted into \(code), where \(reader) reads it as code: a value holding `$(…)` or `;` runs",
          at: first.span)
      case .scriptOrOption:
        diagnostic = Diagnostic(
          severity, .scriptInjection,
          "'${\(first)}' decides what '\(program)' runs (an option, or the script it reads): whatever the value names runs",
          at: first.span)
      case .wrapperOption:
        diagnostic = Diagnostic(
          severity, .scriptInjection,
          "'${\(first)}' is an option or operand of '\(program)', which decides what it runs", at: first.span)
      case .program:
        diagnostic = Diagnostic(
          severity, .scriptInjection,
          "the program to run is computed from '${\(first)}': it runs whatever that value names", at: first.span)
      case .variable(let name):
        diagnostic = Diagnostic(
          severity, .scriptInjection,
          "'${\(first)}' goes into \(name), and \(CodeVariables.reason(for: name) ?? "it is read as code"): the value decides what runs",
          at: first.span)
      case .commandLine:
        diagnostic = Diagnostic(
          severity, .scriptInjection,
          "'${\(first)}' is part of the command line '\(program)' hands to a shell, which reads it as code",
          at: first.span)
      }
      diagnostic = diagnostic.note(sharedNote(shared))
      guard reported.insert(finding.index).inserted else { continue }
      found.append(help(diagnostic, finding, items))
    }
    if shared { found += literalVariables(items) }
    return found
  }

  /// `env NAME=value` (or sudo's) written out in a shared file, for a variable read as code: a warning,
  /// as for the same variable in `environment:`.
  private static func literalVariables(_ items: [Value]) -> [Diagnostic] {
    var found: [Diagnostic] = []
    var afterSetter = false
    for item in items {
      guard let text = literalText(item) else { continue }
      if ["env", "sudo", "doas"].contains(CodeArguments.name(text)) {
        afterSetter = true
        continue
      }
      guard afterSetter, let equals = text.firstIndex(of: "="), !text.hasPrefix("-") else { continue }
      let name = String(text[..<equals])
      guard let reason = CodeVariables.reason(for: name) else { continue }
      found.append(
        Diagnostic(
          .warning, .codeVariable, "this shared workflow sets \(name) for the command, and \(reason)", at: item.span
        )
        .note("the value is written in the file, but it changes what the command runs: read it before running")
        .help("remove '\(name)=…' unless the command needs it"))
    }
    return found
  }

  private static func help(_ diagnostic: Diagnostic, _ finding: CodeArguments.Finding, _ items: [Value]) -> Diagnostic {
    switch finding.reading {
    case .code(.some) where CodeArguments.shells.contains(finding.program) && finding.program != "fish":
      guard case .text(let template) = items[finding.index] else { break }
      // The items after the code are `$0` and the arguments already there; values go after them.
      // Under find -exec, the code's arguments end at its ';' or '+'.
      let underFind = items[..<finding.index].contains {
        literalText($0).map(CodeArguments.findRunners.contains) == true
      }
      let end =
        underFind
        ? items[(finding.index + 1)...].firstIndex { [";", "+"].contains(literalText($0)) } ?? items.count : items.count
      let after = end - finding.index - 1
      let rewrite = rewrittenText(template, after: max(after - 1, 0))
      guard !rewrite.text.contains("\n") else { break }
      var shown = items[..<finding.index].map(written)
      shown.append(yamlQuoted(rewrite.text))
      shown += items[(finding.index + 1)..<end].map(written)
      if after == 0 { shown.append(yamlQuoted(finding.program)) }
      shown += rewrite.arguments.map { "\"\($0)\"" }
      shown += items[end...].map(written)
      return diagnostic.help("pass values as arguments after the code, which the shell never reads as code:")
        .help("    command: [\(shown.joined(separator: ", "))]")
    case .code:
      return diagnostic.help(
        "pass the value as an argument after the code and read it there (sys.argv[1] in Python, process.argv[1] in node -e, $ARGV[0] in Perl), or with 'input:' on standard input"
      )
    case .scriptOrOption:
      return diagnostic.help(
        "name the script and the options in the file; values go after the script, as its arguments")
    case .wrapperOption:
      return diagnostic.help(
        "write '\(finding.program)'s options in the file; values go after the program it runs, as its arguments ('timeout:' bounds a command's time)"
      )
    case .program:
      return diagnostic.help("name the program in the file ('command: [git, …]'); values go in the items after it")
    case .variable:
      return diagnostic.help(
        "pass the value as an argument, or in a variable of another name that the command reads as data")
    case .commandLine:
      return diagnostic.help(
        "give the value on standard input with 'input:' (ssh HOST 'read -r value; …'), never in the command line")
    }
    return diagnostic.help("pass values as arguments after the code, which the shell never reads as code (\"$1\")")
  }

  private static func literalText(_ value: Value) -> String? {
    if case .text(let template) = value { template.literal } else { nil }
  }

  /// An item of `command:` as it could be written in a flow list.
  private static func written(_ value: Value) -> String {
    switch value {
    case .integer(let number, _): return String(number)
    case .double(let number, _): return String(number)
    case .bool(let bool, _): return String(bool)
    default: break
    }
    guard case .text(let template) = value else { return "…" }
    if let literal = template.literal { return yamlQuoted(literal) }
    return
      "\"\(template.asWritten.replacingEvery("\\", with: "\\\\").replacingEvery("\"", with: "\\\""))\""
  }

  /// Plain when YAML reads it back as the same text in a flow list, single-quoted otherwise.
  private static func yamlQuoted(_ text: String) -> String {
    let plain =
      !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./~+=".contains($0)) }
      && !["true", "false", "null", "yes", "no", "on", "off", "~"].contains(text.lowercased())
      && Double(text) == nil
    return plain ? text : "'" + text.replacingEvery("'", with: "''") + "'"
  }

  /// `environment:`: a reference in a variable that is read as code, a computed set of variables, and,
  /// in a shared file, such a variable set at all (a warning: the value is in the file, but it changes
  /// what the command runs).
  fileprivate static func environmentDiagnostics(_ environment: Value, severity: Diagnostic.Severity, shared: Bool)
    -> [Diagnostic]
  {
    guard case .dictionary(let entries, _) = environment else {
      guard let first = environment.references.first else { return [] }
      return [
        Diagnostic(
          severity, .scriptInjection,
          "the command's environment is computed from '${\(first)}': it may set variables a shell reads as code (BASH_ENV, LD_PRELOAD)",
          at: first.span
        )
        .note(sharedNote(shared))
        .help("name the variables in the file: 'environment: {NAME: \"${…}\"}'")
      ]
    }
    var found: [Diagnostic] = []
    for entry in entries {
      guard let reason = CodeVariables.reason(for: entry.key.value) else { continue }
      let name = entry.key.value
      if let first = entry.value.references.first {
        found.append(
          Diagnostic(
            severity, .scriptInjection,
            "'${\(first)}' goes into \(name), and \(reason): the value decides what runs", at: first.span
          )
          .note(sharedNote(shared))
          .help("pass the value as an argument, or in a variable of another name that the command reads as data"))
      } else if shared {
        found.append(
          Diagnostic(
            .warning, .codeVariable, "this shared workflow sets \(name) for the command, and \(reason)",
            at: entry.key.span
          )
          .note("the value is written in the file, but it changes what the command runs: read it before running")
          .help("remove '\(name)' unless the command needs it"))
      }
    }
    return found
  }
}

extension DiagnosticCode {
  /// A magic variable inside `run-shell`'s `script:`, or a computed program: a warning, an error in a
  /// shared workflow.
  public static let scriptInjection: Self = "script-injection"
  /// A shared workflow sets, with a value written in the file, an environment variable a shell or an
  /// interpreter reads as code (`LD_PRELOAD`, `BASH_ENV`): a warning.
  public static let codeVariable: Self = "code-variable"
}
