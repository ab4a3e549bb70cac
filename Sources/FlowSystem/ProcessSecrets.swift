import CLinux
import FoundationEssentials
import Glibc

/// The files in `/proc` that hand out a process's environment (or its memory, which holds it): the file
/// actions refuse them as they refuse `/dev/zero`, so that `env:` stays the list of what a workflow may
/// read (`/proc/self/environ` would otherwise read around it). Judged on the *opened* descriptor — its
/// file system and the name the kernel gives it — so `/dev/fd/N`, `/proc/thread-self/…`, a symbolic link
/// or `..` reach the same answer as the plain path. A `run-shell` step is not held by this (Shell.md).
public enum ProcessSecrets {
  /// `PROC_SUPER_MAGIC` (statfs(2)).
  static let procfs: Int64 = 0x9fa0

  /// In a process's folder (`/proc/PID/`, `/proc/PID/task/TID/`): the environment itself, its memory,
  /// the auxiliary vector (the addresses of that memory, and the random bytes the C library seeds its
  /// stack guard with), and what reads that memory page by page. `cmdline` stays readable, as `ps` shows it.
  static let names: Set<String> = ["environ", "mem", "auxv", "pagemap", "stack", "syscall"]

  /// What the file open at `descriptor` is, when it is one of those (or a folder holding them, for a copy):
  /// "the environment of a process"; nil for any other file.
  public static func kind(of descriptor: Int32, folders: Bool = false) -> String? {
    var system = statfs()
    guard fstatfs(descriptor, &system) == 0, Int64(system.f_type) == procfs else { return nil }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
    // A file in /proc whose name cannot be told is refused: better a refused read than a leaked secret.
    guard count > 0 else { return "a file in /proc" }
    let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let components = path.split(separator: "/").map(String.init)
    let isProcess = { (name: String) in name == "self" || name == "thread-self" || name.allSatisfy(\.isNumber) }
    if folders {
      // A copy of a folder holding a process's files would copy its environment with them.
      if components.dropFirst().contains(where: isProcess) || components.count <= 1 {
        return "a process's folder in /proc"
      }
      return nil
    }
    guard components.count >= 2, let name = components.last, names.contains(name),
      isProcess(components[components.count - 2])
    else { return nil }
    return name == "environ" ? "the environment of a process" : "a process's memory or its layout ('\(name)')"
  }
}
