import FlowCron
import FlowDiagnostics
import Foundation

/// The user's crontab: read whole, written whole. Behind a protocol so that `--apply` is tested on a
/// crontab of its own.
protocol CrontabStore {
  func read() throws(Diagnostic) -> String
  func write(_ text: String) throws(Diagnostic)
}

/// The `crontab` command found on `PATH`: `crontab -l` reads, `crontab -` installs from standard input.
struct CrontabCommand: CrontabStore {
  let environment: [String: String]

  private var executable: URL? {
    (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
      .map { URL(fileURLWithPath: String($0)).appendingPathComponent("crontab") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  func read() throws(Diagnostic) -> String {
    let (status, output, error) = try run(["-l"], input: nil)
    // "no crontab for USER": nothing installed yet.
    if status != 0, error.contains("no crontab") { return "" }
    guard status == 0 else { throw failure("crontab -l", status, error) }
    return output
  }

  func write(_ text: String) throws(Diagnostic) {
    let (status, _, error) = try run(["-"], input: text)
    guard status == 0 else { throw failure("crontab -", status, error) }
  }

  private func failure(_ command: String, _ status: Int32, _ error: String) -> Diagnostic {
    Diagnostic(
      .error, .crontabFailed,
      "'\(command)' failed with status \(status): \(error.trimmingCharacters(in: .whitespacesAndNewlines))",
      file: nil)
  }

  private func run(_ arguments: [String], input: String?) throws(Diagnostic) -> (Int32, String, String) {
    guard let executable else {
      throw Diagnostic(.error, .crontabFailed, "there is no 'crontab' command on the PATH", file: nil)
        .help("install cron (Debian: 'apt-get install cron'), or use 'flow schedule install systemd'")
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment
    let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    do {
      try process.run()
    } catch {
      throw Diagnostic(.error, .crontabFailed, "cannot run 'crontab': \(error.localizedDescription)", file: nil)
    }
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try? stdin.fileHandleForWriting.close()
    // Both pipes are read to the end before waiting, so a full pipe cannot stall the child.
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let error = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
  }
}

extension DiagnosticCode {
  /// The `crontab` command is missing or failed while `flow schedule install cron --apply` ran.
  public static let crontabFailed: Self = "crontab-failed"
}
