import FlowCron
import FlowDiagnostics
import FlowSession
import FlowSystem
import FoundationEssentials
import Glibc

/// The user's crontab: read whole, written whole. Behind a protocol so that `--apply` is tested on a
/// crontab of its own.
public protocol CrontabStore {
  func read() throws(Diagnostic) -> String
  func write(_ text: String) throws(Diagnostic)
}

/// The `crontab` command found on `PATH`: `crontab -l` reads, `crontab -` installs from standard input.
public struct CrontabCommand: CrontabStore {
  public let environment: [String: String]

  public init(environment: [String: String]) {
    self.environment = environment
  }

  public func read() throws(Diagnostic) -> String {
    let (status, output, error) = try run(["-l"], input: nil)
    // "no crontab for USER": nothing installed yet.
    if status != 0, error.contains("no crontab") { return "" }
    guard status == 0 else { throw failure("crontab -l", status, error) }
    return output
  }

  public func write(_ text: String) throws(Diagnostic) {
    let (status, _, error) = try run(["-"], input: text)
    guard status == 0 else { throw failure("crontab -", status, error) }
  }

  private func failure(_ command: String, _ status: Int32, _ error: String) -> Diagnostic {
    Diagnostic(
      .error, .crontabFailed,
      "'\(command)' failed with status \(status): \(error.trimmingWhitespaceAndNewlines())",
      file: nil)
  }

  private func run(_ arguments: [String], input: String?) throws(Diagnostic) -> (Int32, String, String) {
    let options = Subprocess.Options(executable: "crontab", arguments: arguments, environment: environment)
    do {
      let result = try Subprocess.collect(options, input: Array((input ?? "").utf8))
      return (result.termination.shellStatus, String(decoding: result.output, as: UTF8.self), result.errorText)
    } catch  where error.code == ENOENT {
      throw Diagnostic(.error, .crontabFailed, "there is no 'crontab' command on the PATH", file: nil)
        .help("install cron (Debian: 'apt-get install cron'), or use 'flow schedule install systemd'")
    } catch {
      throw Diagnostic(.error, .crontabFailed, "cannot run 'crontab': \(error.message)", file: nil)
    }
  }
}

extension DiagnosticCode {
  /// The `crontab` command is missing or failed while `flow schedule install cron --apply` ran.
  public static let crontabFailed: Self = "crontab-failed"
}
