import FlowDiagnostics
import FlowIntents
import FlowModel
import FlowRuntime
import Foundation

/// Shows a run as it happens: what actions show goes to standard output; a progress bar for long loops
/// and the warnings of steps that failed with `on-error: continue` go to standard error (the bar only at
/// a terminal, so cron mail and pipes stay clean). With `--json` nothing is printed while running; the
/// report collects everything instead.
final class RunReporter: RunObserver, @unchecked Sendable {
  private let console: any Console
  private let renderer: DiagnosticRenderer
  private let json: Bool
  private let progress: Bool
  private let lock = NSLock()
  private(set) var records: [StepRecord] = []
  /// The backend the run opened, once a step has used it.
  var backend: BackendUse? {
    get { lock.withLock { announced } }
    set { lock.withLock { announced = newValue } }
  }
  private var announced: BackendUse?
  private(set) var shown: [String] = []
  /// Failures the run went past (`on-error: continue`), as warnings.
  private(set) var warnings = Diagnostics()

  init(console: any Console, json: Bool, renderer: DiagnosticRenderer = DiagnosticRenderer()) {
    self.console = console
    self.renderer = renderer
    self.json = json
    self.progress = !json && console.isTerminal(.error)
  }

  /// Only the JSON report lists every step.
  var recordsSteps: Bool { json }

  func record(_ event: RunEvent) {
    lock.withLock {
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
      }
    }
  }
}
