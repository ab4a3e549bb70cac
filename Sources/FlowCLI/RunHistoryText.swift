import FlowDiagnostics
import FlowHistory
import FlowIntents
import FlowLibrary
import FlowSession
import FlowYAML
import FoundationEssentials

/// Run history as a person reads it: the `flow runs` table and the `flow runs show` page. Times are
/// local (``LocalTime``); the error is drawn by ``DiagnosticRenderer``, as everywhere else.
struct RunHistoryText {
  let time: LocalTime
  let renderer: DiagnosticRenderer

  init(_ context: SessionContext) {
    time = LocalTime(context)
    renderer = DiagnosticRenderer(colors: context.outputColors)
  }

  // MARK: - flow runs

  /// One line per run under a header, columns aligned.
  func list(_ runs: [RunRecord]) -> String {
    let rows =
      [["RUN", "WORKFLOW", "TRIGGER", "STARTED", "DURATION", "STATUS"]]
      + runs.map { run in
        [
          String(run.id.prefix(8)), run.workflow, run.trigger, time.format(run.started),
          run.duration.map(HistoryText.duration) ?? "-", status(run),
        ]
      }
    return Self.table(rows, rightAligned: [4])
  }

  /// "succeeded", "failed at step 3 'get-url'", "needs-input at step 1 'ask'".
  func status(_ run: RunRecord) -> String {
    guard let position = run.failedStep?.position, let action = run.failedStep?.action else {
      return run.status.rawValue
    }
    return "\(run.status.rawValue) at step \(position) '\(action)'"
  }

  // MARK: - flow runs show

  func show(_ run: RunRecord) -> String {
    var fields: [(String, String)] = [("workflow", run.workflow)]
    if let path = run.path { fields.append(("file", path)) }
    if let hash = run.contentHash { fields.append(("sha256", hash)) }
    // What the trigger brought: a file name chosen by whoever made the file, shown as text, never obeyed.
    fields.append(("trigger", run.trigger + (run.triggerDetail.map { ": " + TerminalSafe.text($0) } ?? "")))
    fields.append(("started", time.formatWithOffset(run.started)))
    if let ended = run.ended { fields.append(("ended", time.formatWithOffset(ended))) }
    if let duration = run.duration { fields.append(("duration", HistoryText.duration(duration))) }
    fields.append(("status", status(run) + (run.exitCode.map { " (exit \($0))" } ?? "")))
    var out = "run \(run.id)\n"
    out += fields.map { "\(PlainText.padded($0.0, to: 9)) \($0.1)" }.joined(separator: "\n")
    out += "\n"
    if !run.steps.isEmpty {
      var rows: [[String]] = []
      for step in run.steps {
        rows.append([
          step.position, step.action, describe(step, in: run),
          HistoryText.duration(Double(step.microseconds) / 1_000_000),
          step.summary ?? "",
        ])
        if let error = step.error { rows.append(["", "", "", "", "error: \(error)"]) }
      }
      out += "\nsteps\n" + Self.table(rows, rightAligned: [3], indent: "  ")
    }
    if !run.diagnostics.isEmpty {
      out += "\n" + run.diagnostics.map { renderer.render($0.diagnostic()) }.joined()
      if let note = fileNote(run) { out += note + "\n" }
    }
    return out
  }

  /// How a step's passes went: "ran", "ran ×3, skipped ×2", "failed", "interrupted".
  func describe(_ step: StepTrace, in run: RunRecord) -> String {
    switch step.status {
    case .running: return run.status == .interrupted ? "interrupted" : "running"
    case .cancelled: return "cancelled"
    case .needsInput: return "needs input"
    case .dryRun: return step.ran > 1 ? "dry run ×\(step.ran)" : "dry run"
    case .ran, .skipped, .failed:
      return [("ran", step.ran), ("skipped", step.skipped), ("failed", step.failed)].filter { $0.1 > 0 }
        .map { $0.1 > 1 ? "\($0.0) ×\($0.1)" : $0.0 }.joined(separator: ", ")
    }
  }

  /// Says so when the workflow file changed or went since the run: the excerpt above is the file as it
  /// ran.
  private func fileNote(_ run: RunRecord) -> String? {
    guard let path = run.path, let hash = run.contentHash else { return nil }
    guard let bytes = try? RegularFile.read(path, limit: YAMLLimits.workflow.maxFileSize).get() else {
      return "note: \(path) is gone; the excerpt shows it as it was when the run happened"
    }
    guard Digest.sha256Hex(bytes) != hash else { return nil }
    return "note: \(path) has changed since; the excerpt shows it as it was when the run happened"
  }

  // MARK: - Parts

  /// Columns padded to their widest cell, two spaces apart; trailing spaces trimmed. The last cell of
  /// a row may run over several lines (a step's output): its lines after the first start in its column.
  static func table(_ rows: [[String]], rightAligned: Set<Int> = [], indent: String = "") -> String {
    guard let columns = rows.map(\.count).max() else { return "" }
    let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
    let trimmed = { (line: String) in String(line.reversed().drop { $0 == " " }.reversed()) }
    return rows.map { row in
      var lines = row.last.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
      let first = lines.isEmpty ? [] : [lines.removeFirst()]
      let cells = (row.dropLast() + first).enumerated().map { column, cell in
        let pad = String(repeating: " ", count: max(0, widths[column] - cell.count))
        return rightAligned.contains(column) ? pad + cell : cell + pad
      }
      let margin = indent + String(repeating: " ", count: widths.prefix(row.count - 1).reduce(0) { $0 + $1 + 2 })
      return ([trimmed(indent + cells.joined(separator: "  "))] + lines.map { trimmed(margin + $0) })
        .joined(separator: "\n") + "\n"
    }.joined()
  }
}
