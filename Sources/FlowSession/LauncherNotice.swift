import FlowBasics
import FlowDiagnostics
import FlowIntents
import FoundationEssentials
import Synchronization

/// What a run started from the launcher (`flow run --trigger launcher NAME`) says on the desktop: nobody
/// sees its terminal, so what its steps show and its result arrive as one notification when it ends,
/// and a failure as a critical one with the error and the `flow runs show` line that tells the rest.
public final class LauncherNotice: @unchecked Sendable {
  private let lock = Mutex(())
  private var name: String?
  private var status = ExitStatus.success
  private var shown: [String] = []
  private var output: FlowValue?
  private var diagnostics = Diagnostics()

  public init() {}

  /// The workflow's name, once it is read.
  public func named(_ name: String) {
    lock.withLock { _ in self.name = name }
  }

  /// How the run ended: its status, what its steps showed, the result it printed, its problems.
  public func ended(_ status: ExitStatus, shown: [String], output: FlowValue?, diagnostics: Diagnostics) {
    lock.withLock { _ in
      self.status = status
      self.shown = shown
      self.output = output
      self.diagnostics = diagnostics
    }
  }

  /// The notification for the run of `reference` (the library name the entry runs) with `runID`.
  public func request(reference: String, runID: String, icon: String) -> NotificationRequest {
    lock.withLock { _ in
      let title = name ?? reference
      var lines = shown
      if let output, output != .nothing {
        if case .list(let items) = output { lines += items.map(\.text) } else { lines.append(output.text) }
      }
      guard status != .success else {
        return NotificationRequest(
          title: title, body: lines.isEmpty ? "Done." : lines.joined(separator: "\n"), urgency: 1, icon: icon)
      }
      let errors = diagnostics.filter { $0.severity == .error }
      var body = (errors.isEmpty ? [status.meaning] : errors.map(\.message)).joined(separator: "\n")
      if let help = errors.first?.helps.first { body += "\n\(help)" }
      body += "\nflow runs show \(runID.prefix(8))"
      let verb = status == .cancelled ? "was cancelled" : status == .skipped ? "is already running" : "failed"
      return NotificationRequest(title: "\(title) \(verb)", body: body, urgency: 2, icon: icon)
    }
  }

  /// Shows the notification; one that cannot be shown (no bus, no server) is written to standard error,
  /// which a launcher keeps in the journal.
  public func post(
    reference: String, runID: String, icon: String, notifications: any NotificationService, console: any Console
  ) async {
    let request = request(reference: reference, runID: runID, icon: icon)
    do {
      _ = try await notifications.show(request)
    } catch {
      console.write("flow: cannot notify (\(error)): \(request.title): \(request.body)\n", to: .error)
    }
  }
}
