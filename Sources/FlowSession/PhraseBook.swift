import FlowDiagnostics
import FlowLibrary
import FlowModel
import FlowYAML
import FoundationEssentials

/// Every phrase `flow do` answers to: the catalogues' app shortcuts, then the library's workflows'
/// `phrases:` (SPEC §11), each with what it runs. `flow do` matches typed words against it; `flow
/// validate` and `flow import` check a workflow's phrases against it for clashes.
public struct PhraseBook: Sendable {
  public enum Target: Sendable, Hashable {
    /// An app shortcut: the action's id.
    case action(String)
    /// A library workflow: its library name and file.
    case workflow(name: String, file: URL)
  }

  public struct Entry: Sendable {
    public var phrase: Phrase
    /// What `flow do`'s list says it runs: the shortcut's short title, or the workflow's name.
    public var title: String
    public var target: Target
    /// Where a library workflow's phrase is written; nil for an app shortcut.
    public var span: SourceSpan?
    /// The file ``span`` points into, held while the entry is: spans find their files in a registry
    /// that holds them weakly.
    var file: SourceFile?
  }

  public var entries: [Entry]

  public init(entries: [Entry]) {
    self.entries = entries
  }

  /// The catalogues' app shortcuts, then the library's phrases in the order of the workflows' names.
  public init(library locator: WorkflowLocator) {
    entries = Self.catalogue + Self.library(locator)
  }

  public static var catalogue: [Entry] {
    Catalogs.phrases.map {
      Entry(phrase: Phrase(words: $0.phrase), title: $0.shortTitle, target: .action($0.intentID), span: nil, file: nil)
    }
  }

  /// The phrases of the library's workflows, read from each file without checking its steps: a file
  /// that does not decode gives the phrases that do.
  public static func library(_ locator: WorkflowLocator) -> [Entry] {
    locator.libraryWorkflows.flatMap { name, url -> [Entry] in
      guard case .success(let file) = locator.read(url.path),
        let workflow = WorkflowDecoder.decode(YAMLDocument.load(file)).workflow
      else { return [] }
      return workflow.phrases.map {
        Entry(
          phrase: $0.value, title: workflow.name, target: .workflow(name: name, file: url), span: $0.span,
          file: workflow.file)
      }
    }
  }

  /// What the typed words run: the matching phrase with the most words (the most specific), with the
  /// inputs it fills and the words after it.
  public func match(_ typed: [String]) -> (entry: Entry, values: [String: String], rest: [String])? {
    var best: (entry: Entry, values: [String: String], rest: [String])?
    for entry in entries {
      guard let (values, rest) = entry.phrase.match(typed) else { continue }
      if let best, best.entry.phrase.wordCount >= entry.phrase.wordCount { continue }
      best = (entry, values, rest)
    }
    return best
  }

  /// The phrases of `workflow` that answer to the same words as a phrase here: an app shortcut's, or
  /// another library workflow's (`file`, the workflow's own library copy, is not another).
  public func clashes(of workflow: Workflow, replacing file: URL?) -> Diagnostics {
    let own = file.map { FileSystemPath.resolved($0.path) ?? $0.path }
    var found = Diagnostics()
    for located in workflow.phrases {
      let key = located.value.key
      for entry in entries where entry.phrase.key == key {
        switch entry.target {
        case .action(let id):
          found.append(
            Diagnostic(
              .error, .phraseClash, "'\(located.value.text)' is already the app shortcut '\(entry.phrase.text)'",
              at: located.span
            ).help("'flow do \(entry.phrase.text)' runs the action \(id); choose other words"))
        case .workflow(let name, let other):
          guard (FileSystemPath.resolved(other.path) ?? other.path) != own else { continue }
          var diagnostic = Diagnostic(
            .error, .phraseClash,
            "'\(located.value.text)' answers to the same words as a phrase of '\(name)' in your library",
            at: located.span)
          if let span = entry.span {
            diagnostic = diagnostic.note("its phrase '\(entry.phrase.text)' is here", at: span)
          }
          found.append(diagnostic.help("choose other words, or change the phrase of '\(name)'"))
        }
      }
    }
    return found
  }
}
