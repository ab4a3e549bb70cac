import FlowIntents
import Foundation

/// Opens a URL in the person's browser or the application registered for it; `open-url` uses it.
public protocol URLLauncher: Sendable {
  func open(_ url: URL) async throws
}

/// Opens URLs with `xdg-open`, the freedesktop way, found on the `PATH` it is given.
///
/// The path comes from the caller (the CLI reads the environment), so this module never does.
public struct XDGOpenLauncher: URLLauncher {
  public let searchPath: String

  public init(searchPath: String) { self.searchPath = searchPath }

  /// The `xdg-open` executable on the search path, if there is one.
  public var executable: URL? {
    searchPath.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("xdg-open") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  public func open(_ url: URL) async throws {
    guard let executable else {
      throw AppIntentError.failed(
        "cannot open \(url.absoluteString): 'xdg-open' is not installed",
        help: "install it with 'apt-get install xdg-utils', or use 'show' to print the URL")
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = [url.absoluteString]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw AppIntentError.failed("cannot open \(url.absoluteString): \(error.localizedDescription)")
    }
    // xdg-open hands the URL over and returns; waiting for it is short and reports a failure.
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        process.waitUntilExit()
        continuation.resume()
      }
    }
    guard process.terminationStatus == 0 else {
      throw AppIntentError.failed(
        "cannot open \(url.absoluteString): 'xdg-open' exited with status \(process.terminationStatus)",
        help: "check that a browser is set up for this desktop session")
    }
  }
}
