import CLinux
import FlowBasics
import FlowDiagnostics
import FlowIntents
import FoundationEssentials
import Glibc
import Synchronization

/// Runs `run-shell`'s commands as ``Subprocess``es (a process group each, pipes for standard output
/// and error, input through a pipe or `/dev/null`), and leaves nothing running.
/// - One `poll` waits for everything at once on a thread of its own: both output pipes (never one
///   blocking while the child fills the other), the input pipe as it drains, the child's end (a
///   pidfd), a cancellation, and the timeout.
/// - When the child has ended, or on timeout or cancellation, the group is ended: SIGTERM, then
///   SIGKILL after ``grace``, and every member is reaped. flow makes itself the "child subreaper", so a
///   background job the script left (`sleep 1000 &`) becomes its child when the script exits and can be
///   reaped — an init that never reaps (a container's) would otherwise keep it a zombie, still in the
///   group. A program that leaves the group on purpose (`setsid`) is its own business.
public struct SpawnCommandRunner: CommandRunner {
  /// The environment every child starts from (the run's; the CLI reads it, this module never does).
  public let environment: [String: String]
  /// The most bytes of standard output kept (the run's text limit, ValueLimits).
  public let outputLimit: Int
  /// How long a group has between SIGTERM and SIGKILL: short, since Ctrl-C must not be kept waiting
  /// (flow exits 0.9 s after it whatever is still running; Interrupts.swift).
  public var home: String? { environment["HOME"] }
  public static let grace: Duration = .milliseconds(200)
  /// How long a command is waited for on the calling thread before a thread of its own takes over.
  static let inlineWait: Duration = .milliseconds(3)

  /// Where a warning goes: a fenced command on a kernel without Landlock, which runs unfenced.
  let warn: @Sendable (String) -> Void
  /// The rulesets of this run's fences, made once each: a fence's rules hold the folders its paths named
  /// when first used (a folder replaced later is not in it: refused, never widened).
  private let rulesets = Rulesets()

  public init(
    environment: [String: String], outputLimit: Int = 16 << 20, warn: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.environment = environment
    self.outputLimit = outputLimit
    self.warn = warn
    _ = Self.reaper
  }

  /// The message when a fence cannot be enforced here.
  public static let landlockMissing =
    "Landlock is missing here (Linux 5.13 or later, with Landlock enabled), so this step runs unfenced: it may do anything your account can"

  private static let reaper: Bool = clinux_become_child_subreaper() == 0

  public func run(_ command: CommandRequest) async throws -> CommandResult {
    try Task.checkCancellation()
    var ruleset: Int32 = -1
    if let fence = command.fence {
      if let abi = LandlockFence.abi(environment: environment) {
        ruleset = try rulesets.ruleset(for: fence, abi: abi)
      } else {
        warn(Self.landlockMissing)
      }
    }
    let child = try Child.start(command, environment: environment, ruleset: ruleset)
    return try await withTaskCancellationHandler {
      // Most commands end within a moment (`true`, `git status`): waited for here, they cost no thread
      // and no hop back (Scripts/bench-shell.sh). A longer one is waited for on a thread of its own, never
      // holding one of the cooperative pool's few.
      if let result = try child.wait(for: Self.inlineWait) { return result }
      return try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<CommandResult, any Error>) in
        DetachedThread.run(stackSize: 256 << 10) {
          continuation.resume(
            with: Result {
              guard let result = try child.wait() else { throw CancellationError() }
              return result
            })
        }
      }
    } onCancel: {
      child.cancel()
    }
  }

  /// Landlock rulesets by fence, kept open for the run and closed with it.
  private final class Rulesets: Sendable {
    private let made = Mutex<[ShellFence.Limits: Int32]>([:])

    func ruleset(for limits: ShellFence.Limits, abi: Int) throws(CommandFailure) -> Int32 {
      try made.withLock { (made) throws(CommandFailure) -> Int32 in
        if let ruleset = made[limits] { return ruleset }
        let ruleset = try LandlockFence.ruleset(limits, abi: abi)
        made[limits] = ruleset
        return ruleset
      }
    }

    deinit {
      made.withLock { made in made.values.forEach { close($0) } }
    }
  }

  /// One started child and the descriptors that watch it.
  private final class Child: @unchecked Sendable {
    let command: CommandRequest
    let pid: pid_t
    let outputLimit: Int
    /// Readable when the child ends; -1 on a kernel without pidfds (then polled every 10 ms).
    let exitDescriptor: Int32
    var output: Int32
    var errors: Int32
    var input: Int32
    /// A pipe whose write end ``cancel()`` writes to; closed in `deinit`, after both ends are done.
    let cancelRead: Int32
    let cancelWrite: Int32
    var status: Int32?

    init(
      command: CommandRequest, pid: pid_t, outputLimit: Int, output: Int32, errors: Int32, input: Int32,
      cancelPipe: (Int32, Int32)
    ) {
      self.command = command
      self.pid = pid
      self.outputLimit = outputLimit
      self.output = output
      self.errors = errors
      self.input = input
      (cancelRead, cancelWrite) = cancelPipe
      exitDescriptor = clinux_pidfd_open(pid)
    }

    deinit {
      close(cancelRead)
      close(cancelWrite)
    }

    func cancel() {
      var byte: UInt8 = 1
      _ = write(cancelWrite, &byte, 1)
    }

    // MARK: Starting

    static func start(_ command: CommandRequest, environment base: [String: String], ruleset: Int32) throws -> Child {
      var environment = base
      for (key, value) in command.environment { environment[key] = value }
      do {
        let cancel = try Subprocess.pipe()
        var script: Int32 = -1
        defer { if script >= 0 { close(script) } }
        if let text = command.script {
          script = clinux_memfd_create("run-shell script")
          guard script >= 0 else { throw CommandFailure("cannot hold the script: \(errorText())") }
          // The child's fd 3 is the script; a memfd that is 3 already would keep its close-on-exec flag.
          if script == 3 {
            script = fcntl(3, F_DUPFD_CLOEXEC, 4)
            close(3)
          }
          let written = text.withUnsafeBytes { write(script, $0.baseAddress, $0.count) }
          guard written == text.count, lseek(script, 0, SEEK_SET) == 0 else {
            throw CommandFailure("cannot hold the script: \(errorText())")
          }
        }
        let arguments = command.arguments.map { $0 == CommandRequest.scriptPlaceholder ? "/dev/fd/3" : $0 }
        let child: Subprocess
        do {
          var options = Subprocess.Options(
            executable: command.executable, arguments: arguments, name: command.name, environment: environment,
            workingDirectory: command.workingDirectory, standardInput: command.input == nil ? .null : .pipe,
            descriptors: script >= 0 ? [3: script] : [:])
          options.ruleset = ruleset
          child = try Subprocess.spawn(options)
        } catch {
          close(cancel.read)
          close(cancel.write)
          throw error
        }
        // The poll loop reads and writes without blocking.
        for descriptor in [child.standardOutput, child.standardError, child.standardInput, cancel.read, cancel.write]
        where descriptor >= 0 {
          _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        return Child(
          command: command, pid: child.pid, outputLimit: command.outputLimit, output: child.standardOutput,
          errors: child.standardError, input: child.standardInput, cancelPipe: cancel)
      } catch let error as SubprocessError {
        throw CommandFailure(error.message, help: error.help)
      }
    }

    // MARK: Waiting

    // What the loop has gathered, kept across ``wait(for:)`` calls.
    private var standardOutput: [UInt8] = []
    private var standardError: [UInt8] = []
    private var written = 0
    private var ending: CommandResult.Ending?
    private var groupEnded = false
    private lazy var buffer = [UInt8](repeating: 0, count: 64 << 10)
    private lazy var deadline = command.timeout.map { ContinuousClock.now + $0 }

    /// Waits for the child's end while reading its output, then ends what is left of its group; nil
    /// when `budget` passed first (call again to go on waiting).
    func wait(for budget: Duration? = nil) throws -> CommandResult? {
      // A child that stops reading its input makes our write fail with EPIPE rather than SIGPIPE.
      try Subprocess.withoutPipeSignal { () throws -> CommandResult? in
        do {
          guard let result = try loop(until: budget.map { ContinuousClock.now + $0 }) else { return nil }
          finish()
          return result
        } catch {
          finish()
          throw error
        }
      }
    }

    private func finish() {
      for descriptor in [output, errors, input, exitDescriptor] where descriptor >= 0 { close(descriptor) }
      (output, errors, input) = (-1, -1, -1)
      Subprocess.reaped(pid)
    }

    private func loop(until end: ContinuousClock.Instant?) throws -> CommandResult? {
      // Until the child has ended and its pipes are closed: a child may close its output and go on.
      while output >= 0 || errors >= 0 || status == nil {
        if status != nil, !groupEnded {
          // The child has gone; anything still holding its pipes is a job it left behind.
          endGroup()
          groupEnded = true
        }
        var watched: [pollfd] = [pollfd(fd: cancelRead, events: Int16(POLLIN), revents: 0)]
        if output >= 0 { watched.append(pollfd(fd: output, events: Int16(POLLIN), revents: 0)) }
        if errors >= 0 { watched.append(pollfd(fd: errors, events: Int16(POLLIN), revents: 0)) }
        if input >= 0 { watched.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
        if status == nil, exitDescriptor >= 0 {
          watched.append(pollfd(fd: exitDescriptor, events: Int16(POLLIN), revents: 0))
        }
        var timeout: Int32 = -1
        if let deadline { timeout = Self.milliseconds(until: deadline) }
        if status == nil, exitDescriptor < 0 { timeout = timeout < 0 ? 10 : min(timeout, 10) }
        if groupEnded { timeout = timeout < 0 ? 100 : min(timeout, 100) }
        if let end {
          let left = Self.milliseconds(until: end)
          timeout = timeout < 0 ? left : min(timeout, left)
        }
        let ready = poll(&watched, nfds_t(watched.count), timeout)
        if ready < 0 {
          if errno == EINTR { continue }
          throw CommandFailure("cannot wait for '\(command.executable)': \(errorText())")
        }
        if let deadline, ContinuousClock.now >= deadline {
          ending = .timedOut
          break
        }
        if ready == 0, let end, ContinuousClock.now >= end, !groupEnded { return nil }
        if ready == 0, groupEnded { break }  // held open by a process outside the group: stop reading
        for entry in watched where entry.revents != 0 {
          switch entry.fd {
          case cancelRead:
            endGroup()
            throw CancellationError()
          case output:
            _ = read(&output, into: &standardOutput, buffer: &buffer)
          case errors:
            _ = read(&errors, into: &standardError, buffer: &buffer)
            if standardError.count > 2 * CommandResult.errorTail {
              standardError.removeFirst(standardError.count - CommandResult.errorTail)
            }
          case input:
            writeInput(&written)
          default:
            reapChild(blocking: true)
          }
        }
        if standardOutput.count > outputLimit {
          ending = .outputTooLarge
          break
        }
        if exitDescriptor < 0, status == nil { reapChild(blocking: false) }
      }
      if ending != nil || status == nil { endGroup() }
      if standardError.count > CommandResult.errorTail {
        standardError.removeFirst(standardError.count - CommandResult.errorTail)
      }
      let result: CommandResult.Ending
      if let ending {
        result = ending
      } else if let status {
        switch Termination(waitStatus: status) {
        case .exited(let code): result = .exited(code)
        case .signalled(let signal): result = .signalled(signal)
        }
      } else {
        result = .signalled(SIGKILL)
      }
      return CommandResult(ending: result, standardOutput: standardOutput, standardError: standardError, pid: pid)
    }

    /// Reads what is there; at the end of the stream closes the descriptor and sets it to -1.
    private func read(_ descriptor: inout Int32, into bytes: inout [UInt8], buffer: inout [UInt8]) -> Bool {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        bytes.append(contentsOf: buffer[..<count])
        return true
      }
      if count == 0 || (errno != EAGAIN && errno != EINTR) {
        close(descriptor)
        descriptor = -1
      }
      return false
    }

    /// Writes the next part of the input; closes the pipe when all is written or the child stopped
    /// reading.
    private func writeInput(_ written: inout Int) {
      guard let bytes = command.input else { return }
      if written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { rest in
          Glibc.write(input, rest.baseAddress, min(rest.count, 64 << 10))
        }
        if count > 0 { written += count }
        if count < 0, errno == EAGAIN || errno == EINTR { return }
        if count < 0 { written = bytes.count }  // EPIPE: it reads no more
      }
      if written >= bytes.count {
        close(input)
        input = -1
      }
    }

    private func reapChild(blocking: Bool) {
      guard status == nil else { return }
      var wait: Int32 = 0
      let result = waitpid(pid, &wait, blocking ? 0 : WNOHANG)
      if result == pid { status = wait } else if result < 0, errno == ECHILD { status = Int32(SIGKILL) }
      if status != nil, input >= 0 {
        close(input)
        input = -1
      }
    }

    /// Ends every process left in the child's group — SIGTERM, then SIGKILL after the grace — and reaps
    /// them all (they are ours: the child, or orphans handed to us as the subreaper).
    private func endGroup() {
      let group = pid
      func gone() -> Bool {
        reapGroup()
        return status != nil && kill(-group, 0) != 0 && errno == ESRCH
      }
      let signalled = kill(-group, SIGTERM) == 0
      if status != nil, !signalled { return }  // the common case: nothing was left
      if status == nil { kill(pid, SIGTERM) }  // also when it left its group
      if waitUntil(gone, for: SpawnCommandRunner.grace) { return }
      kill(-group, SIGKILL)
      if status == nil { kill(pid, SIGKILL) }
      reapChild(blocking: true)
      // Without a subreaper an orphan's zombie may never go; do not wait for it for ever.
      _ = waitUntil(gone, for: .seconds(2))
    }

    private func reapGroup() {
      while true {
        var wait: Int32 = 0
        let reaped = waitpid(-pid, &wait, WNOHANG)
        guard reaped > 0 else { return }
        if reaped == pid, status == nil { status = wait }
      }
    }

    /// Checks `condition` every 2 ms until it holds or `duration` passes.
    private func waitUntil(_ condition: () -> Bool, for duration: Duration) -> Bool {
      let end = ContinuousClock.now + duration
      while !condition() {
        if ContinuousClock.now >= end { return false }
        _ = poll(nil, 0, 2)
      }
      return true
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
      let left = ContinuousClock.now.duration(to: deadline)
      if left <= .zero { return 0 }
      let (seconds, attoseconds) = left.components
      return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
  }
}

private func errorText() -> String { String(cString: strerror(errno)) }
