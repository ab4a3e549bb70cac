import CLinux
import Glibc
import Synchronization

/// A program flow starts: the one place a child process is made, with one policy for every caller
/// (`run-shell`, the clipboard tools, `xdg-open`, `crontab`, MCP servers and the scheduler's runs).
///
/// - `clone(CLONE_VM | CLONE_VFORK)` as posix_spawn does it (`clinux_spawn`, CLinux/spawn.h), never
///   `Foundation.Process`: that cannot give the child a process group of its own, and costs a thread hop
///   and a run loop per program (Scripts/bench-shell.sh). posix_spawn itself cannot run code in the
///   child, and two things run there before exec: `PR_SET_PDEATHSIG` and run-shell's Landlock fence.
/// - A child that ``Options/endsWithFlow`` gets SIGKILL from the kernel when flow dies, however it dies.
///   The kernel sends it when the *thread* that started the child ends, so children are started on a
///   thread that lives as long as flow: the main thread, or else ``SpawnThread``.
/// - Every descriptor flow makes is close-on-exec from the moment it exists (`pipe2(O_CLOEXEC)`,
///   `SOCK_CLOEXEC`, `memfd_create(MFD_CLOEXEC)`), so a child started by one thread never inherits
///   another child's pipe; the child gets only what ``Options`` hands it.
/// - The child starts with default signal dispositions and an empty mask (flow blocks Ctrl-C and
///   SIGTERM in every thread to take them on its service thread, and a child would inherit that), and in a
///   process group of its own: Ctrl-C at the terminal reaches flow alone, which then ends the group in
///   order.
/// - Its descendants too: the group is listed with ``Keeper``, a process that ends every listed group
///   when flow dies (a script's `sleep 1000 &` has no death signal of its own).
/// - A group started with ``Options/endsWithFlow`` is registered until it is reaped (``reaped(_:)``):
///   when flow must exit at once (a second Ctrl-C), ``endAll()`` kills every one still running, so
///   nothing flow started outlives it.
public struct Subprocess: Sendable {
  /// Where the child's standard input comes from.
  public enum Input: Sendable, Hashable {
    /// `/dev/null`: nobody answers.
    case null
    /// A pipe whose write end is ``Subprocess/standardInput``.
    case pipe
  }

  /// Where one of the child's output streams goes.
  public enum Output: Sendable, Hashable {
    case null
    /// A pipe whose read end is ``Subprocess/standardOutput`` or ``Subprocess/standardError``.
    case pipe
    /// flow's own descriptor of the same number.
    case inherit
    /// flow's standard error (the scheduler's runs write their output into the service's log).
    case standardError
  }

  /// What to start, and with what.
  public struct Options: Sendable {
    /// A path, or a bare name looked up on the `PATH` of ``environment`` (the child's, never flow's own,
    /// which `posix_spawnp` would search).
    public var executable: String
    /// `argv[1...]`, passed as they are: no shell sees them.
    public var arguments: [String]
    /// `argv[0]`; the executable as written when nil.
    public var name: String?
    /// The child's whole environment.
    public var environment: [String: String]
    /// The child's working directory; flow's own when nil.
    public var workingDirectory: String?
    public var standardInput: Input
    public var standardOutput: Output
    public var standardError: Output
    /// Descriptors of flow's given to the child at other numbers: child number → flow's descriptor.
    public var descriptors: [Int32: Int32]
    /// Whether ``endAll()`` kills the group when flow exits at once, and the kernel kills the child
    /// when flow dies (`PR_SET_PDEATHSIG`, even after `kill -9`); false for children flow hands on in
    /// order itself (the scheduler's runs).
    public var endsWithFlow: Bool
    /// A Landlock ruleset the child enforces on itself before exec (``LandlockFence``), or -1. The
    /// caller keeps and closes it.
    public var ruleset: Int32 = -1

    public init(
      executable: String, arguments: [String] = [], name: String? = nil, environment: [String: String],
      workingDirectory: String? = nil, standardInput: Input = .null, standardOutput: Output = .pipe,
      standardError: Output = .pipe, descriptors: [Int32: Int32] = [:], endsWithFlow: Bool = true
    ) {
      self.executable = executable
      self.arguments = arguments
      self.name = name
      self.environment = environment
      self.workingDirectory = workingDirectory
      self.standardInput = standardInput
      self.standardOutput = standardOutput
      self.standardError = standardError
      self.descriptors = descriptors
      self.endsWithFlow = endsWithFlow
    }
  }

  public let pid: pid_t
  /// flow's ends of the child's pipes (close-on-exec, blocking), or -1; the caller closes them.
  public let standardInput: Int32
  public let standardOutput: Int32
  public let standardError: Int32

  /// The process groups started with ``Options/endsWithFlow`` and not yet reaped.
  private static let running = Mutex<Set<pid_t>>([])

  /// Starts the program; `registered`, when given, runs under the same lock as the spawn, so that a
  /// caller that learns of children's ends elsewhere (a SIGCHLD) knows the pid before it can end.
  public static func spawn(
    _ options: Options, registered: (pid_t) -> Void = { _ in }
  ) throws(SubprocessError) -> Subprocess {
    let executable = try locate(
      options.executable, path: options.environment["PATH"] ?? "/usr/bin:/bin", home: options.environment["HOME"])
    if let directory = options.workingDirectory {
      var info = stat()
      guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
        throw SubprocessError("the working directory '\(directory)' is not a folder")
      }
    }

    var childEnds: [Int32] = []  // closed on every way out of here
    var parentEnds: [Int32] = []  // closed when the spawn fails
    defer { childEnds.forEach { close($0) } }
    var spawned = false
    defer { if !spawned { parentEnds.forEach { close($0) } } }
    func pipe(parentReads: Bool) throws(SubprocessError) -> (parent: Int32, child: Int32) {
      let ends = try Self.pipe()
      let (parent, child) = parentReads ? (ends.read, ends.write) : (ends.write, ends.read)
      parentEnds.append(parent)
      childEnds.append(child)
      return (parent, child)
    }

    // The file actions, in order, for the child to take before exec.
    var actions: [clinux_spawn_action] = []
    var input: Int32 = -1
    switch options.standardInput {
    case .null: actions.append(clinux_spawn_action(fd: STDIN_FILENO, source: -1, flags: O_RDONLY))
    case .pipe:
      let ends = try pipe(parentReads: false)
      input = ends.parent
      actions.append(clinux_spawn_action(fd: STDIN_FILENO, source: ends.child, flags: 0))
    }
    func route(_ output: Output, to number: Int32) throws(SubprocessError) -> Int32 {
      switch output {
      case .null: actions.append(clinux_spawn_action(fd: number, source: -1, flags: O_WRONLY))
      case .inherit: break
      case .standardError: actions.append(clinux_spawn_action(fd: number, source: STDERR_FILENO, flags: 0))
      case .pipe:
        let ends = try pipe(parentReads: true)
        actions.append(clinux_spawn_action(fd: number, source: ends.child, flags: 0))
        return ends.parent
      }
      return -1
    }
    let output = try route(options.standardOutput, to: STDOUT_FILENO)
    let errors = try route(options.standardError, to: STDERR_FILENO)
    for (number, descriptor) in options.descriptors.sorted(by: { $0.key < $1.key }) {
      actions.append(clinux_spawn_action(fd: number, source: descriptor, flags: 0))
    }

    let cArguments = ([options.name ?? options.executable] + options.arguments).map { strdup($0) }
    let cEnvironment = options.environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
    let cExecutable = strdup(executable)
    let cDirectory = options.workingDirectory.map { strdup($0) }
    defer { (cArguments + cEnvironment + [cExecutable, cDirectory ?? nil]).forEach { free($0) } }
    var argv = cArguments + [nil]
    var envp = cEnvironment + [nil]

    var pid: pid_t = 0
    var failure: Int32 = 0
    // Registered before it can run, so that an exit at once (a second Ctrl-C) finds the group.
    running.withLock { running in
      argv.withUnsafeMutableBufferPointer { argv in
        envp.withUnsafeMutableBufferPointer { envp in
          actions.withUnsafeBufferPointer { actions in
            var request = clinux_spawn_request(
              path: cExecutable, argv: argv.baseAddress, envp: envp.baseAddress, actions: actions.baseAddress,
              action_count: Int32(actions.count), directory: cDirectory ?? nil, ruleset: options.ruleset,
              death_signal: options.endsWithFlow ? SIGKILL : 0, parent: getpid(),
              keeper: options.endsWithFlow ? Keeper.socket : -1, error: 0)
            (pid, failure) = SpawnThread.run {
              let pid = clinux_spawn(&request)
              return (pid, pid < 0 ? errno : 0)
            }
          }
        }
      }
      if pid > 0 {
        // Listed with the keeper by the child itself, before it ran anything.
        if options.endsWithFlow { running.insert(pid) }
        registered(pid)
      }
    }
    guard pid > 0 else {
      throw SubprocessError("cannot start \(executable): \(String(cString: strerror(failure)))", code: failure)
    }
    spawned = true
    return Subprocess(pid: pid, standardInput: input, standardOutput: output, standardError: errors)
  }

  /// The program to start: a path as it is, a bare name from `path`.
  public static func locate(_ name: String, path: String, home: String? = nil) throws(SubprocessError) -> String {
    if name.contains("/") {
      guard access(name, X_OK) == 0 else {
        throw SubprocessError("cannot run '\(name)': \(String(cString: strerror(errno)))", code: errno)
      }
      return name
    }
    for folder in path.split(separator: ":", omittingEmptySubsequences: false) {
      let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + name
      var info = stat()
      if access(candidate, X_OK) == 0, stat(candidate, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
        return candidate
      }
    }
    throw SubprocessError(
      "'\(name)' is not installed: it is in none of the PATH's folders (\(folders(of: path, home: home)))",
      help: "install it, or give its full path",
      code: ENOENT)
  }

  /// The PATH's folders as a person reads them: the home folder as `~`, each folder once, and past
  /// four only the first three and how many there are (`~/.local/bin, /usr/local/bin, /usr/bin, … (7
  /// folders)`), since a PATH of 300 characters would bury the program's name.
  public static func folders(of path: String, home: String?) -> String {
    var seen: Set<String> = []
    let folders = path.split(separator: ":", omittingEmptySubsequences: false).map { folder -> String in
      let folder = folder.isEmpty ? "." : String(folder)
      guard let home, !home.isEmpty, home != "/" else { return folder }
      if folder == home { return "~" }
      return folder.hasPrefix(home + "/") ? "~" + folder.dropFirst(home.count) : folder
    }.filter { seen.insert($0).inserted }
    guard folders.count > 4 else { return folders.joined(separator: ", ") }
    return folders.prefix(3).joined(separator: ", ") + ", … (\(folders.count) folders)"
  }

  /// A pipe, both ends close-on-exec from the start.
  public static func pipe() throws(SubprocessError) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    guard clinux_pipe2(&ends, O_CLOEXEC) == 0 else {
      throw SubprocessError("cannot make a pipe: \(String(cString: strerror(errno)))", code: errno)
    }
    return (ends[0], ends[1])
  }

  /// Forgets a group once its leader is reaped: ``endAll()`` no longer kills it.
  public static func reaped(_ pid: pid_t) {
    running.withLock { running in
      if running.remove(pid) != nil { Keeper.tell(started: false, group: pid) }
    }
  }

  /// The groups ``endAll()`` would end now.
  static var runningGroups: Set<pid_t> { running.withLock { $0 } }

  /// Sends SIGKILL to every registered group still running: for flow's last moment when it exits at once.
  public static func endAll() {
    for group in runningGroups { kill(-group, SIGKILL) }
  }

  /// Waits for the child to end (restarting on EINTR) and forgets its group.
  public func wait() -> Termination {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else {
        Self.reaped(pid)
        return .signalled(SIGKILL)
      }
    }
    Self.reaped(pid)
    return Termination(waitStatus: status)
  }

  /// Runs `body` with SIGPIPE blocked on this thread, so that writing to a child that stopped reading
  /// fails with EPIPE instead of ending flow; a SIGPIPE that came meanwhile is taken, not left pending.
  public static func withoutPipeSignal<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previousMask = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previousMask)
    defer {
      var none = timespec()
      while sigtimedwait(&pipeSignal, nil, &none) == SIGPIPE {}
      pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }
    return try body()
  }
}

/// How a child process ended.
public enum Termination: Sendable, Hashable {
  case exited(Int32)
  case signalled(Int32)

  /// `WIFEXITED`/`WEXITSTATUS`/`WTERMSIG`, macros Swift does not import.
  public init(waitStatus status: Int32) {
    self = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
  }

  /// The status as a shell reports it: the exit status, or 128 + the signal's number.
  public var shellStatus: Int32 {
    switch self {
    case .exited(let status): status
    case .signalled(let signal): 128 + signal
    }
  }
}

/// A program that could not be started.
public struct SubprocessError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  public var help: String?
  /// The `errno` behind it, or 0.
  public var code: Int32

  public init(_ message: String, help: String? = nil, code: Int32 = 0) {
    self.message = message
    self.help = help
    self.code = code
  }

  public var description: String { message }
}
