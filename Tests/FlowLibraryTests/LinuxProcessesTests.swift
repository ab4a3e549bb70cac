import Foundation
import Testing

@testable import FlowLibrary

/// Telling a run still going from one whose process died, through /proc (run history's "interrupted").
struct LinuxProcessesTests {
  @Test func thisProcessIsRunningAndAnotherStartOrBootIsNot() {
    let processes = LinuxProcesses()
    let me = processes.current()
    #expect(me.pid == getpid())
    #expect(me.bootID.utf8.count == 36)
    #expect(me.startTime > 0)
    #expect(processes.isRunning(me))
    var reused = me
    reused.startTime += 1
    #expect(!processes.isRunning(reused))
    var rebooted = me
    rebooted.bootID = String(repeating: "0", count: 36)
    #expect(!processes.isRunning(rebooted))
  }

  /// The command name in /proc/PID/stat may hold spaces and parentheses; the fields after it are found
  /// from the last ')'. A process that has exited but is not yet reaped (a zombie) is not running.
  @Test func aNameWithParenthesesAndAZombie() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("procs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let odd = folder.appendingPathComponent("a) (b c)")
    try FileManager.default.createSymbolicLink(atPath: odd.path, withDestinationPath: "/bin/cat")
    // cat reading an open pipe runs until the pipe closes: no timing involved.
    var input: [Int32] = [0, 0]
    #expect(pipe(&input) == 0)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[0], 0)
    posix_spawn_file_actions_addclose(&actions, input[1])
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup(odd.path), nil]
    defer { free(argv[0]) }
    #expect(posix_spawn(&pid, odd.path, &actions, nil, argv, nil) == 0)
    close(input[0])

    let started = try #require(LinuxProcesses.startTime(of: pid))
    let processes = LinuxProcesses()
    let child = ProcessIdentity(pid: pid, bootID: processes.current().bootID, startTime: started)
    #expect(processes.isRunning(child))
    // Clock ticks since boot, between this process's start and now: the right field, not its neighbours.
    let uptime = try String(contentsOfFile: "/proc/uptime", encoding: .utf8).split(separator: " ")[0]
    let now = UInt64((Double(uptime) ?? 0) * Double(sysconf(Int32(_SC_CLK_TCK)))) + 1
    #expect(started >= processes.current().startTime)
    #expect(started <= now)

    // Closing its input ends cat; WNOWAIT waits for that and leaves it unreaped.
    close(input[1])
    var info = siginfo_t()
    #expect(waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == 0)
    #expect(LinuxProcesses.startTime(of: pid) == nil)
    #expect(!processes.isRunning(child))
    var status: Int32 = 0
    #expect(waitpid(pid, &status, 0) == pid)
    #expect(LinuxProcesses.startTime(of: pid) == nil)
  }
}
