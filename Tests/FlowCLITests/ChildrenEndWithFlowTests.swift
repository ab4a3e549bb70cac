import CLinux
import FlowTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Nothing flow starts outlives it, however it dies: `kill -9` of a `flow run` whose shell step is
/// still running leaves no shell step running (`PR_SET_PDEATHSIG`, Subprocess). Real processes; the
/// script hands its pid over a FIFO, and the test waits on the child's pidfd, with a deadline that only
/// bounds a failure.
struct ChildrenEndWithFlowTests {
  /// Waits until `descriptor` is readable or `seconds` pass; whether it became readable.
  static func readable(_ descriptor: Int32, within seconds: Int32) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while true {
      let ready = poll(&entry, 1, seconds * 1000)
      if ready < 0, errno == EINTR { continue }
      return ready > 0
    }
  }

  /// The script, by what it leaves running: itself (`exec` keeps the pid), itself under a fence, or a
  /// background job of its own, which has no death signal of its own (the Keeper ends its group).
  static let scripts = [
    "script": #"echo $$ > "$1"; exec sleep 1000"#,
    "fenced script": #"echo $$ > "$1"; exec sleep 1000"#,
    "background job": #"sleep 1000 & echo $! > "$1"; wait"#,
  ]

  @Test(arguments: ["script", "fenced script", "background job"])
  func killingFlowWithSIGKILLEndsItsShellStep(form: String) throws {
    let machine = try RunShellTests.shell("")
    let fifo = machine.directory.appendingPathComponent("pid.fifo").path
    try #require(mkfifo(fifo, 0o600) == 0)
    let script = try #require(Self.scripts[form])
    try machine.write(
      "sleeper.yml",
      """
      flow: 1
      steps:
        - run-shell:
            script: '\(script)'
            arguments: ["\(fifo)"]\(form == "fenced script" ? "\n      fence: {write: [\"\(fifo)\"]}" : "")
      """)
    let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    try #require(reader >= 0)
    defer { close(reader) }
    // posix_spawn rather than Foundation's Process, which learns of an exit from a socket the child
    // inherits: a surviving grandchild would hold it, and the test would hang rather than fail.
    let flow = try Self.start(["run", machine.directory.appendingPathComponent("sleeper.yml").path], machine: machine)
    defer {
      kill(flow, SIGKILL)
      var status: Int32 = 0
      waitpid(flow, &status, 0)
    }

    try #require(Self.readable(reader, within: 60), "the script never wrote its pid")
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = read(reader, &buffer, buffer.count)
    let text = String(decoding: buffer[..<max(count, 0)], as: UTF8.self)
    let pid = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    let child = clinux_pidfd_open(pid)
    try #require(child >= 0, "the shell step had ended before flow was killed")
    defer { close(child) }
    defer { kill(pid, SIGKILL) }  // on failure, do not leave it behind

    kill(flow, SIGKILL)
    #expect(Self.readable(child, within: 20), "the shell step outlived flow")
  }

  /// Starts the flow binary with `machine`'s environment, its streams on `/dev/null`.
  static func start(_ arguments: [String], machine: Machine) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for number: Int32 in 0...2 {
      posix_spawn_file_actions_addopen(&actions, number, "/dev/null", number == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    let argv = ([Machine.executable.path] + arguments).map { strdup($0) } + [nil]
    let envp = machine.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, Machine.executable.path, &actions, nil, argv, envp)
    try #require(status == 0, "posix_spawn: \(String(cString: strerror(status)))")
    return pid
  }
}
