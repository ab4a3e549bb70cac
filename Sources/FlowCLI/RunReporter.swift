import FlowDiagnostics
import FlowIntents
import FlowModel
import FlowRuntime
import FlowSession
import FoundationEssentials
import Synchronization

/// Shows a run as it happens: what actions show goes to standard output; a progress bar for long loops
/// and for steps whose action reports its progress (an MCP tool's progress notifications, with the
/// server's message), and the warnings of steps that failed with `on-error: continue` go to standard
/// error (the bars only at a terminal, so cron mail and pipes stay clean). A step's bar is cleared when
/// the step ends. With `--json` nothing is printed while running and progress is not part of the report
/// (it says how a run went, not how long each moment took); the report collects everything else.
final class RunReporter: RunObserver, @unchecked Sendable {
  private let console: any Console
  private let renderer: DiagnosticRenderer
  private let json: Bool
  private let progress: Bool
  private let lock = Mutex(())
  private(set) var records: [StepRecord] = []
  /// The backend the run opened, once a step has used it.
  var backend: BackendUse? {
    get { lock.withLock { _ in announced } }
    set { lock.withLock { _ in announced = newValue } }
  }
  private var announced: BackendUse?
  private(set) var shown: [String] = []
  /// Failures the run went past (`on-error: continue`), as warnings.
  private(set) var warnings = Diagnostics()
  /// How many columns the step's progress line covers now, so that the next one, or its clearing,
  /// blanks what a longer one left (plain spaces: a `TERM=dumb` terminal has no erase sequence).
  private var drawnProgress = 0

  init(console: any Console, json: Bool, renderer: DiagnosticRenderer = DiagnosticRenderer()) {
    self.console = console
    self.renderer = renderer
    self.json = json
    self.progress = !json && console.isTerminal(.error)
  }

  /// Only the JSON report lists every step.
  var recordsSteps: Bool { json }

  func record(_ event: RunEvent) {
    lock.withLock { _ in
      if drawnProgress > 0, !event.isProgress { clearProgress() }
      switch event {
      case .started:
        break
      case .finished(let record):
        records.append(record)
        if record.status == .dryRun, !json {
          console.writeShown(
            "dry run: \(Step.describe(position: record.position)) '\(record.action)': \(record.summary ?? record.action)\n",
            to: .output)
        }
        if let warning = record.warning {
          warnings.append(warning)
          // Said when it happens, like any progress, so it reads in order with what the run shows.
          if !json { console.write(renderer.render(warning), to: .error) }
        }
      case .runFailed(let error):
        // Said before what `on-failure:` shows; the failure itself is reported when the run ends.
        if !json {
          console.writeShown("\(error.step?.description ?? "the run") failed: running 'on-failure'\n", to: .error)
        }
      case .dialog(let text, _):
        shown.append(text)
        if !json { console.writeShown(text + "\n", to: .output) }
      case .loopProgress(let info, let pass, let total):
        // A bar only for loops long enough to wait on.
        guard progress, total >= 20 else { return }
        let width = 30
        let filled = width * pass / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        // The carriage return is the bar's own; the step's description is the file's.
        console.write("\r", to: .error)
        console.writeShown("\(info.description) \(bar) \(pass)/\(total)" + (pass == total ? "\n" : ""), to: .error)
      case .progress(let info, let report):
        guard progress else { return }
        let line = Self.progressLine(info, report, columns: console.columns(.error) ?? 80)
        let width = line.count
        // Shown through writeShown (the message is the server's), then padded over a longer line before it.
        console.write("\r", to: .error)
        console.writeShown(line, to: .error)
        if width < drawnProgress { console.write(String(repeating: " ", count: drawnProgress - width), to: .error) }
        drawnProgress = max(width, 1)
      case .progressEnded:
        break
      }
    }
  }

  private func clearProgress() {
    console.write("\r" + String(repeating: " ", count: drawnProgress) + "\r", to: .error)
    drawnProgress = 0
  }

  /// `step 2 'test.count' ██████████░░░░░░░░░░░░░░░░░░░░ 1/3 step 1`: the loop bar's form, with the
  /// action's message; a count alone when there is no total. Cut to the terminal's width, since a line
  /// that wraps cannot be drawn over.
  static func progressLine(_ info: StepInfo, _ report: ActionProgress, columns: Int) -> String {
    var line = info.description + " "
    if let total = report.total, total > 0 {
      let width = 30
      let filled = min(width, max(0, Int(Double(width) * report.completed / total)))
      line += String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
      line += " \(FlowValue.formatNumber(report.completed))/\(FlowValue.formatNumber(total))"
    } else {
      line += FlowValue.formatNumber(report.completed)
    }
    if let message = report.message?.split(whereSeparator: \.isNewline).first, !message.isEmpty {
      line += " " + message
    }
    let limit = max(10, columns - 1)
    return line.count > limit ? String(line.prefix(limit - 1)) + "…" : line
  }
}

extension RunReporter {
  /// The line `flow run` ends with when the run showed nothing: its result as `show` would give it, so a
  /// workflow that ends in `run-shell` or `get-url` does not look as if it did nothing. One line: a
  /// text of one short line as it is; a longer or multi-line text its first line cut short, with how
  /// many lines it has; a list counted, with its first items; anything else as `show` writes it. Nil
  /// for nothing (or an empty value), where there is nothing to say.
  static func resultLine(_ output: FlowValue, width: Int = 100) -> String? {
    guard !output.isEmpty else { return nil }
    switch output {
    case .text(let text):
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      let first = oneLine(String(lines.first ?? ""))
      if lines.count == 1, first.count <= width { return first }
      let cut = first.count > width - 20 ? String(first.prefix(width - 21)) + "…" : first
      return lines.count == 1 ? cut : "\(cut)\(cut.hasSuffix("…") ? "" : " …") (\(Count.of(lines.count, "line")))"
    case .list(let items):
      var line = "a list of \(Count.of(items.count, "item")): "
      for (index, item) in items.enumerated() {
        let shown = oneLine(item.quoted)
        if index > 0, line.count + shown.count + 3 > width {
          return line + "…"
        }
        line += (index > 0 ? ", " : "") + (shown.count > width / 2 ? String(shown.prefix(width / 2 - 1)) + "…" : shown)
      }
      return line
    case .dictionary:
      return output.quoted
    default:
      let text = oneLine(output.text)
      return text.count > width ? String(text.prefix(width - 1)) + "…" : text
    }
  }

  /// One line a terminal cannot be made to obey: line breaks and tabs as spaces, and every other control
  /// character as its picture (TerminalSafe), piped or not, since it is a summary for a person.
  private static func oneLine(_ text: String) -> String {
    TerminalSafe.text(String(text.map { $0 == "\t" || $0 == "\r" || $0 == "\n" ? " " : $0 }))
  }
}

extension RunEvent {
  /// A step's progress, which draws over the bar rather than clearing it.
  fileprivate var isProgress: Bool {
    if case .progress = self { return true }
    return false
  }
}
