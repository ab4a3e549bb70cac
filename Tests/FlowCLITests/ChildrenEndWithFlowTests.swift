import CLinux
import FlowTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Nothing flow starts outlives it, however it dies: `kill -9` of a `flow run` whose shell step or MCP
/// server is still running leaves neither running (`PR_SET_PDEATHSIG` and the Keeper, Subprocess). Real processes; the
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
    try Self.killFlowAndWatch(
      running: machine.directory.appendingPathComponent("sleeper.yml").path, fifo: fifo, machine: machine)
  }

  /// An MCP server the run started ends with it too: its own group, ended by the Keeper.
  @Test func killingFlowWithSIGKILLEndsItsMCPServer() throws {
    let machine = try ServersCommandTests.machine()
    let fifo = machine.directory.appendingPathComponent("pid.fifo").path
    try #require(mkfifo(fifo, 0o600) == 0)
    let server = try machine.write(
      "holder.py",
      """
      import os
      import time
      from mcp.server import MCPServer

      app = MCPServer("holder")


      @app.tool(description="Says its pid, then holds on")
      def hold(fifo: str) -> str:
          with open(fifo, "w") as f:
              f.write(str(os.getpid()))
          time.sleep(1000)
          return "done"


      app.run()
      """)
    let python = try #require(ReferenceTool("python3", install: "Scripts/setup.sh").venvPath())
    try #require(try machine.runBinary(["servers", "add", "holder", "--", python, server]) == 0)
    let workflow = try machine.write("hold.yml", "flow: 1\nsteps:\n  - holder.hold: {fifo: \"\(fifo)\"}\n")
    try Self.killFlowAndWatch(running: workflow, fifo: fifo, machine: machine)
  }

  /// Runs `workflow`, whose step writes the pid of what it leaves running to `fifo`; kills flow with
  /// SIGKILL once it has, and expects that process to end.
  static func killFlowAndWatch(running workflow: String, fifo: String, machine: Machine) throws {
    let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    try #require(reader >= 0)
    defer { close(reader) }
    // posix_spawn rather than Foundation's Process, which learns of an exit from a socket the child
    // inherits: a surviving grandchild would hold it, and the test would hang rather than fail. With
    // --yes: a tool without annotations may be destructive, and its step asks.
    let flow = try start(["run", workflow, "--yes"], machine: machine)
    defer {
      kill(flow, SIGKILL)
      var status: Int32 = 0
      waitpid(flow, &status, 0)
    }

    try #require(Self.readable(reader, within: 60), "the step never wrote its pid")
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = read(reader, &buffer, buffer.count)
    let text = String(decoding: buffer[..<max(count, 0)], as: UTF8.self)
    let pid = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    let child = clinux_pidfd_open(pid)
    try #require(child >= 0, "what the step started had ended before flow was killed")
    defer { close(child) }
    defer { kill(pid, SIGKILL) }  // on failure, do not leave it behind

    kill(flow, SIGKILL)
    #expect(Self.readable(child, within: 20), "what the step started outlived flow")
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
