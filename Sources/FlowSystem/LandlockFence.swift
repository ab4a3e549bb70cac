import CLinux
import FlowBasics
import FlowIntents
import Glibc

/// run-shell's `fence:` as a Landlock ruleset (Linux 5.13), built in flow and enforced by the child on
/// itself before exec (``Subprocess/Options/ruleset``). Documentation/Shell.md, "Fences".
///
/// Everything the kernel's ABI can restrict is handled, so what no rule allows is refused: files (ABI 1;
/// renaming across folders from 2, truncating from 3, device ioctls from 5), TCP connect and bind (4),
/// and abstract Unix sockets and signals to processes outside the fence (6).
public enum LandlockFence {
  /// The variable of the run's environment that stands in for the kernel's answer: a number is the ABI
  /// version, `0` says Landlock is missing. For the tests of the unfenced path on a kernel that has it.
  public static let abiOverride = "FLOW_LANDLOCK_ABI"

  /// This kernel's Landlock ABI version, or nil where it is missing or disabled.
  public static func abi(environment: [String: String]) -> Int? {
    if let text = environment[abiOverride], let number = Int(text), (0...64).contains(number) {
      return number == 0 ? nil : number
    }
    return kernelABI
  }

  private static let kernelABI: Int? = {
    let version = clinux_landlock_abi()
    return version > 0 ? Int(version) : nil
  }()

  /// The system's own folders, readable (and runnable) inside every fence: programs, libraries,
  /// configuration, `/proc`, `/sys` and the devices. Those not on this machine are left out.
  public static let systemFolders = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/proc", "/sys", "/dev", "/run",
    "/nix",
  ]
  /// Writable inside every fence: where output is thrown away.
  static let alwaysWritable = ["/dev/null"]

  // Landlock's access rights (include/uapi/linux/landlock.h).
  private static let execute: UInt64 = 1 << 0
  private static let readFile: UInt64 = 1 << 2
  private static let readDirectory: UInt64 = 1 << 3
  private static let bindTCP: UInt64 = 1 << 0
  private static let connectTCP: UInt64 = 1 << 1
  private static let abstractSockets: UInt64 = 1 << 0
  private static let signals: UInt64 = 1 << 1

  /// Every filesystem right the ABI knows.
  static func filesystemRights(abi: Int) -> UInt64 {
    var rights: UInt64 = (1 << 13) - 1  // execute … make-symlink
    if abi >= 2 { rights |= 1 << 13 }  // refer
    if abi >= 3 { rights |= 1 << 14 }  // truncate
    if abi >= 5 { rights |= 1 << 15 }  // ioctl on devices
    return rights
  }

  /// A ruleset for `limits` (paths already expanded), as a close-on-exec descriptor the caller closes.
  public static func ruleset(_ limits: ShellFence.Limits, abi: Int) throws(CommandFailure) -> Int32 {
    let all = filesystemRights(abi: abi)
    let network = abi >= 4 && !limits.network ? bindTCP | connectTCP : 0
    let scoped = abi >= 6 ? abstractSockets | signals : 0
    let ruleset = clinux_landlock_ruleset(all, network, scoped)
    guard ruleset >= 0 else {
      throw CommandFailure("cannot fence the command: \(String(cString: strerror(errno)))")
    }
    let read = execute | readFile | readDirectory
    func allow(_ path: String, _ access: UInt64, declared: Bool) throws(CommandFailure) {
      guard clinux_landlock_allow(ruleset, path, access) != 0 else { return }
      let error = errno
      if !declared, error == ENOENT || error == EACCES || error == ENOTDIR { return }
      close(ruleset)
      throw CommandFailure(
        "cannot fence the command with '\(path)': \(String(cString: strerror(error)))",
        help: error == ENOENT ? "a fence names paths that are there: create it first, or change 'fence'" : nil)
    }
    for path in systemFolders { try allow(path, read, declared: false) }
    for path in alwaysWritable { try allow(path, all, declared: false) }
    for path in limits.read { try allow(path, read, declared: true) }
    for path in limits.write { try allow(path, all, declared: true) }
    return ruleset
  }
}
