import Foundation
import Testing

@testable import FlowSystem

/// The one way flow starts a program: what every child gets, whoever starts it.
struct SubprocessTests {
  static let environment = ["PATH": "/usr/bin:/bin"]

  static func run(_ script: String, input: [UInt8]? = nil) throws -> Subprocess.Collected {
    try Subprocess.collect(
      Subprocess.Options(executable: "sh", arguments: ["-c", script], environment: environment), input: input)
  }

  @Test func aChildInheritsNoDescriptorFlowMadeForAnother() throws {
    let other = try Subprocess.pipe()
    defer {
      close(other.read)
      close(other.write)
    }
    let listed = try Self.run("ls /proc/self/fd").output
    let descriptors = String(decoding: listed, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) }
    #expect(!descriptors.contains(other.read))
    #expect(!descriptors.contains(other.write))
    #expect(descriptors.contains(0) && descriptors.contains(1) && descriptors.contains(2))
  }

  @Test func aChildStartsWithNoSignalBlockedInAGroupOfItsOwn() throws {
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGINT)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    let status = String(
      decoding: try Self.run("grep SigBlk /proc/self/status; cut -d' ' -f5 /proc/self/stat").output, as: UTF8.self)
    let lines = status.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(lines.first == "SigBlk:\t0000000000000000")
    #expect(lines.last != String(getpgrp()))
  }

  @Test func inputGoesInAndBothStreamsComeBack() throws {
    let result = try Self.run("cat; echo oops >&2; exit 3", input: Array("hello".utf8))
    #expect(result.output == Array("hello".utf8))
    #expect(result.errorText == "oops\n")
    #expect(result.termination == .exited(3))
    #expect(result.termination.shellStatus == 3)
  }

  @Test func aChildThatFillsStandardErrorBeforeItsOutputDoesNotStall() throws {
    let result = try Self.run("head -c 200000 /dev/zero >&2; echo done")
    #expect(result.output == Array("done\n".utf8))
    #expect(result.error.count == Subprocess.errorLimit)
  }

  @Test func aProgramPastItsDeadlineIsEndedAndSaysSo() throws {
    let options = Subprocess.Options(
      executable: "sh", arguments: ["-c", "exec sleep 30"], environment: Self.environment)
    #expect(throws: SubprocessError("sh did not finish within 0 seconds", code: ETIMEDOUT)) {
      try Subprocess.collect(options, deadline: .milliseconds(50))
    }
  }

  @Test func aMissingProgramNamesThePathLookedIn() {
    #expect(
      throws: SubprocessError(
        "'no-such-program-anywhere' is not installed: it is in none of the PATH's folders (/usr/bin, /bin)",
        help: "install it, or give its full path", code: ENOENT)
    ) {
      try Subprocess.collect(Subprocess.Options(executable: "no-such-program-anywhere", environment: Self.environment))
    }
  }

  /// Which groups ``Subprocess/endAll()`` would kill (calling it here would kill the other suites'
  /// children, which run at the same time).
  @Test func aGroupIsRegisteredUntilReapedUnlessHandedOnInOrder() throws {
    let options = Subprocess.Options(
      executable: "true", environment: Self.environment, standardOutput: .null, standardError: .null)
    let registered = try Subprocess.spawn(options)
    #expect(Subprocess.runningGroups.contains(registered.pid))
    #expect(registered.wait() == .exited(0))
    #expect(!Subprocess.runningGroups.contains(registered.pid))
    var handedOn = options
    handedOn.endsWithFlow = false
    let unregistered = try Subprocess.spawn(handedOn)
    #expect(!Subprocess.runningGroups.contains(unregistered.pid))
    #expect(unregistered.wait() == .exited(0))
  }

  /// `PR_SET_PDEATHSIG` fires when the *thread* that started the child ends: a child started on a
  /// thread that ends before flow does must live on (SpawnThread starts it on one that never ends).
  @Test func aChildOutlivesTheThreadThatStartedIt() throws {
    final class Started: @unchecked Sendable {
      var pid: pid_t = -1
      var task = ""
    }
    let started = Started()
    var thread = pthread_t()
    let created = pthread_create(
      &thread, nil,
      { argument in
        guard let argument else { return nil }
        let started = Unmanaged<Started>.fromOpaque(argument).takeRetainedValue()
        var link = [CChar](repeating: 0, count: 64)
        _ = readlink("/proc/thread-self", &link, link.count - 1)
        started.task = String(cString: link)
        started.pid =
          (try? Subprocess.spawn(
            Subprocess.Options(
              executable: "sleep", arguments: ["1000"], environment: SubprocessTests.environment,
              standardOutput: .null, standardError: .null)))?.pid ?? -1
        return nil
      }, Unmanaged.passRetained(started).toOpaque())
    try #require(created == 0)
    pthread_join(thread, nil)
    let pid = started.pid
    try #require(pid > 0)
    defer {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
      Subprocess.reaped(pid)
    }
    // The thread has ended once the kernel has released it (after it signalled any child of its own).
    let deadline = ContinuousClock.now + .seconds(10)
    while access("/proc/\(started.task)", F_OK) == 0, ContinuousClock.now < deadline { sched_yield() }
    var status: Int32 = 0
    #expect(waitpid(pid, &status, WNOHANG) == 0, "the child ended with the thread that started it")
    // Not dying either: no SIGKILL on its way (bit 9 of the pending sets).
    let lines = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8))?.split(separator: "\n") ?? []
    let pending = lines.filter { $0.hasPrefix("SigPnd:") || $0.hasPrefix("ShdPnd:") }
      .compactMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
    #expect(pending.count == 2 && pending.allSatisfy { $0 & (1 << (SIGKILL - 1)) == 0 }, "\(lines)")
  }
}
