import FlowIntents
import FlowTestSupport
import Foundation
import Testing

@testable import FlowBasics
@testable import FlowSystem

/// `env:` is the list of what a workflow may read of the environment: the file actions refuse the files
/// in /proc that hold it, by what the opened file is (procfs, and the name the kernel gives it), so that
/// every way of naming one — `self`, `thread-self`, a pid, `/dev/fd/N`, a link, `..` — is refused alike.
struct ProcessSecretsTests {
  @Test func theEnvironmentIsNotReadAroundEnv() async throws {
    let box = try FileSandbox()
    let pid = String(getpid())
    let held = open("/proc/self/environ", O_RDONLY | O_CLOEXEC)
    #expect(held >= 0)
    defer { close(held) }
    try FileManager.default.createSymbolicLink(atPath: box.home + "/env", withDestinationPath: "/proc/self/environ")
    var report: [String] = []
    for path in [
      "/proc/self/environ", "/proc/thread-self/environ", "/proc/\(pid)/environ", "/proc/\(pid)/task/\(pid)/environ",
      "/dev/fd/\(held)", "~/env", "/proc/self/../self/environ", "/proc/self/mem", "/proc/self/auxv",
    ] {
      report.append(await box.failure("read-file", ["file": .text(path)]))
    }
    report.append(await box.failure("copy-file", ["file": "/proc/self/environ", "to": "~/copy"]))
    report.append(await box.failure("copy-file", ["file": "/proc/self", "to": "~/process"]))
    report.append(await box.failure("copy-file", ["file": "~/env", "to": "~/copy"]))
    let text = report.joined(separator: "\n").replacingOccurrences(of: "/\(pid)/", with: "/PID/")
      .replacingOccurrences(of: "/dev/fd/\(held)", with: "/dev/fd/N")
    assertGolden(text + "\n", named: "process-secrets.txt")
    #expect(!text.contains("PATH="))
    #expect(!box.exists("~/copy"))
    #expect(!box.exists("~/process"))
  }

  /// What /proc shows of a process besides its environment and memory stays readable, as `ps` shows it.
  @Test func otherProcFilesStayReadable() async throws {
    let box = try FileSandbox()
    let command = try await box.run("read-file", ["file": "/proc/self/cmdline"])
    #expect(command.text.count > 0)
    let load = try await box.run("read-file", ["file": "/proc/loadavg"])
    #expect(load.text.contains("/"))
  }
}
