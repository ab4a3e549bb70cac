import FlowDiagnostics
import FlowIntents
import FlowModel

extension Workflow {
  /// Whether `on-failure:` can still run although the file did not pass the check (`diagnostics`): none
  /// of the errors is in its lines, from its first step to the next key at the top of the file. A
  /// scheduled run of a file broken by an edit elsewhere can then still say so (Running.md).
  public func onFailureRuns(despite diagnostics: Diagnostics) -> Bool {
    guard let first = onFailure.first?.span.start.line else { return false }
    // The file's lines, split once: `first` counts from 1.
    let lines = file.bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    var last = first
    while last < lines.count, !Self.startsTopLevelKey(lines[last]) { last += 1 }
    return !diagnostics.all.contains { diagnostic in
      guard diagnostic.severity == .error else { return false }
      // An error with no place, or in another file than this one, may be anywhere: it counts.
      guard let span = diagnostic.span, span.file.path == file.path else { return true }
      return (first...last).contains(span.start.line) || span.start.line < 1
    }
  }

  /// A line that starts a key of the top-level mapping: at the first column, neither a comment, a list
  /// item nor a continuation.
  private static func startsTopLevelKey(_ line: ArraySlice<UInt8>) -> Bool {
    guard let byte = line.first else { return false }
    // Space, tab, carriage return, `#`, `-`.
    return ![0x20, 0x09, 0x0D, 0x23, 0x2D].contains(byte) && line.contains(0x3A)
  }
}

extension Interpreter {
  /// The inputs known before step 1 without asking anyone: those given, and the literal defaults of the
  /// rest, for an `on-failure:` that runs before the inputs were resolved.
  public static func knownInputs(of workflow: Workflow, given: [String: FlowValue]) -> FlowDictionary {
    FlowDictionary(
      workflow.inputs.compactMap { input in
        let name = input.name.value
        return (given[name] ?? input.defaultValue.flatMap(KnownValues.literal)).map { (key: name, value: $0) }
      })
  }
}
