import FlowBasics
import FlowIntents
import FoundationEssentials
import Glibc

/// Opens URLs with `xdg-open`, the freedesktop way, found on the `PATH` of the environment it is given.
///
/// The environment comes from the caller (the CLI reads it), so this module never does.
public struct XDGOpenLauncher: URLLauncher {
  public let environment: [String: String]

  public init(environment: [String: String]) { self.environment = environment }

  public func open(_ url: URL) async throws {
    let options = Subprocess.Options(
      executable: "xdg-open", arguments: [url.absoluteString], environment: environment, standardOutput: .null,
      standardError: .null)
    let result: Subprocess.Collected
    do {
      // xdg-open hands the URL over and returns; waiting for it is short and reports a failure.
      result = try await Subprocess.collectOnThread(options)
    } catch  where error.code == ENOENT {
      throw AppIntentError.failed(
        "cannot open \(url.absoluteString): 'xdg-open' is not installed",
        help: "install it with 'apt-get install xdg-utils', or use 'show' to print the URL")
    } catch {
      throw AppIntentError.failed("cannot open \(url.absoluteString): \(error.message)")
    }
    guard result.termination == .exited(0) else {
      throw AppIntentError.failed(
        "cannot open \(url.absoluteString): 'xdg-open' exited with status \(result.termination.shellStatus)",
        help: "check that a browser is set up for this desktop session")
    }
  }
}
