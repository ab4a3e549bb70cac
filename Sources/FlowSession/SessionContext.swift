import FlowDiagnostics
import FlowHTTP
import FlowIntents
import FlowLibrary
import FoundationEssentials
import Glibc

/// What a command may touch: the console, the environment, the working directory, the clock and the
/// network.
///
/// Commands read it from ``SessionContext/current`` (a task-local value) rather than from globals, so tests
/// run the real commands in-process with a captured console and an environment of their own.
public struct SessionContext: Sendable {
  public var console: any Console
  public var environment: [String: String] {
    didSet { paths = FlowPaths(environment: environment) }
  }
  /// Where flow keeps its files, from this context's environment: made with it, once, where a run asked
  /// for it a dozen times and each time built three URLs (0.23 M instructions of a one-step run).
  public private(set) var paths: FlowPaths
  public var workingDirectory: String
  public var clock: any FlowClock
  public var transport: any HTTPTransport
  /// Whether Ctrl-C should cancel the run: true for the real process, false in in-process tests.
  public var handlesInterrupts = false

  public init(
    console: any Console, environment: [String: String], workingDirectory: String,
    clock: any FlowClock = SystemClock(), transport: any HTTPTransport = CurlTransport()
  ) {
    self.console = console
    self.environment = environment
    paths = FlowPaths(environment: environment)
    self.workingDirectory = workingDirectory
    self.clock = clock
    self.transport = transport
  }

  /// The real process: standard streams, its environment, its working directory.
  public static var live: SessionContext {
    var context = SessionContext(
      console: StandardConsole(),
      environment: processEnvironment(),
      workingDirectory: FileManager.default.currentDirectoryPath
    )
    context.handlesInterrupts = true
    return context
  }

  /// The process's environment, read from `environ` as `ProcessInfo.environment` reads it (a name's last
  /// entry wins; an entry without `=` is no variable), byte by byte: Foundation's reading took 1.2 M
  /// instructions, 28,000 a variable, of every command.
  ///
  /// Sized up front, never grown: of the copies of `[String: String]`'s growing code, the linker keeps
  /// ArgumentParser's (its objects come first), which is built without flow's
  /// `-disable-concrete-type-metadata-mangled-name-accessors` and finds its new storage's type by name;
  /// the runtime then checks `String: Hashable` by scanning all 7,000 conformance records, 0.43 M
  /// instructions, a sixth of a one-step run. `Naming`'s cache is sized for the same reason.
  public static func processEnvironment() -> [String: String] {
    var count = 0
    while environ[count] != nil { count += 1 }
    var environment = [String: String](minimumCapacity: count)
    var entry = environ
    while let pointer = entry.pointee {
      let bytes = UnsafeBufferPointer(
        start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
      if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
        environment[String(decoding: bytes[..<equals], as: UTF8.self)] = String(
          decoding: bytes[(equals + 1)...], as: UTF8.self)
      }
      entry += 1
    }
    return environment
  }

  @TaskLocal public static var current = SessionContext.live

  /// Whether what goes to `stream` is coloured: only at a terminal, and neither when `NO_COLOR` holds
  /// anything (no-color.org: an empty `NO_COLOR=` is as good as unset) nor when `TERM=dumb` says the
  /// terminal understands no escape sequences. Every colour decision comes here.
  public func colors(_ stream: ConsoleStream) -> Bool {
    guard console.isTerminal(stream) else { return false }
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
    return environment["TERM"] != "dumb"
  }

  /// Diagnostics on standard error, coloured as ``colors(_:)`` decides.
  public var diagnosticRenderer: DiagnosticRenderer {
    DiagnosticRenderer(colors: colors(.error))
  }

  /// Colour for what goes to standard output (`flow show`), as ``colors(_:)`` decides.
  public var outputColors: Bool { colors(.output) }

  /// The width to lay standard output out in: `COLUMNS` when set (as shells export it and tests fix it),
  /// else the terminal's, else 80.
  public var outputWidth: Int { outputWidthLimit ?? 80 }

  /// As ``outputWidth``, but nil when standard output has no width: piped to a file or a program
  /// without `COLUMNS`. A table (`flow list`) then leaves nothing out for a width nobody sees.
  public var outputWidthLimit: Int? {
    if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
    return console.columns(.output) ?? (console.isTerminal(.output) ? 80 : nil)
  }

  public func print(_ text: String) { console.write(text + "\n", to: .output) }

  /// Prints a value or a file's text on standard output, its control characters shown rather than sent to a
  /// terminal (``Console/writeShown(_:to:)``).
  public func printShown(_ text: String) { console.writeShown(text + "\n", to: .output) }

  public func report(_ diagnostics: Diagnostics) {
    console.write(diagnosticRenderer.render(diagnostics), to: .error)
  }

  /// A path as given, made absolute against the working directory, as text: what `url(for: path).path`
  /// gives, without building a URL (``FlowLibrary/FileSystemPath``).
  public func absolutePath(_ path: String) -> String { FileSystemPath.absolute(path, in: workingDirectory) }

  /// A path as given, resolved against the working directory when relative.
  ///
  /// Joined as text, not with `appendingPathComponent`, which builds a `Set<UInt8>` at every call.
  public func url(for path: String) -> URL {
    if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
    let directory = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
    return URL(fileURLWithPath: directory + path)
  }
}
