import CLinux
import FlowDiagnostics
import FlowYAML
import FoundationEssentials
import Glibc

/// The one way flow reads a file a person or a workflow names (workflows, `run-workflow` targets, input
/// files, `config.yml`): regular files only, and never more than a limit.
///
/// `stat` cannot be trusted for either: it says 0 bytes for `/dev/zero` and for everything in `/proc`, and
/// a FIFO blocks the first `read` forever. So the file is opened without blocking, the *opened* descriptor is
/// examined (a name checked and then opened could be swapped in between), and bytes are counted as they
/// arrive, stopping one past the limit whatever the size claimed.
public enum RegularFile {
  /// Why a file was not read.
  public enum Problem: Error, Sendable, Hashable {
    /// Nothing is there (or a link leads nowhere).
    case missing
    case directory
    /// A device, a FIFO or a socket: its contents are not a file's, and reading one may never end.
    case special(kind: String)
    /// A regular-looking file in a kernel file system (`/proc`, `/sys`): generated on reading, sized 0, and
    /// holding things like the environment, which must never be echoed as a workflow's lines.
    case kernel
    /// More than the limit: `size` when the file said so before it was read, nil when the reading stopped at
    /// the limit.
    case tooLarge(size: Int?)
    /// The system's words ("Permission denied").
    case system(String)

    /// What a diagnostic says, after the path: "is a character device, not a workflow file".
    public var reason: String {
      switch self {
      case .missing: "no such file"
      case .directory: "is a directory, not a workflow file"
      case .special(let kind): "is \(kind), not a workflow file"
      case .kernel: "is a file the kernel makes up (in /proc or /sys), not a workflow file"
      case .tooLarge: "is too large"
      case .system(let message): "cannot read the file: \(message)"
      }
    }
  }

  /// The bytes of the regular file at `path` (links followed), at most `limit` of them.
  public static func read(_ path: String, limit: Int) -> Result<[UInt8], Problem> {
    // Not the authority (the descriptor's fstat below is), but it keeps flow from opening a device at all:
    // opening some has effects of its own.
    var named = stat()
    if stat(path, &named) != 0 { return .failure(errno == ENOENT || errno == ENOTDIR ? .missing : systemProblem()) }
    if let problem = problem(named) { return .failure(problem) }
    // O_NONBLOCK: were a FIFO swapped in after the check, neither open nor read would wait for a writer.
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { return .failure(errno == ENOENT ? .missing : systemProblem()) }
    defer { close(descriptor) }
    var opened = stat()
    guard fstat(descriptor, &opened) == 0 else { return .failure(systemProblem()) }
    if let problem = problem(opened) { return .failure(problem) }
    var system = statfs()
    if fstatfs(descriptor, &system) == 0, kernelFileSystems.contains(Int64(system.f_type)) {
      return .failure(.kernel)
    }
    return readAll(descriptor, size: Int(opened.st_size), limit: limit)
  }

  /// Reads to the end, or to one byte past `limit` (which makes the answer "too large").
  private static func readAll(_ descriptor: Int32, size: Int, limit: Int) -> Result<[UInt8], Problem> {
    // A file that says it is too large is believed without reading it; one that says less is counted.
    if size > limit { return .failure(.tooLarge(size: size)) }
    let cap = limit == .max ? limit : limit + 1
    var bytes: [UInt8] = []
    // The size is a hint only; the count decides. A file is read as one call for what its size says and
    // one more byte, then in chunks of 4 KB growing to 64 KB (a file that grew, or says 0 as procfs does):
    // zeroing a 64 KB buffer for a 40-byte workflow cost a one-step run 31 page faults.
    bytes.reserveCapacity(min(max(size, 0) + 1, cap))
    var chunk = 4096
    while true {
      let promised = size - bytes.count
      let want = min(promised > 0 ? promised + 1 : chunk, cap - bytes.count)
      if promised <= 0 { chunk = min(chunk * 2, 64 * 1024) }
      let start = bytes.count
      bytes.append(contentsOf: repeatElement(0, count: want))
      let count = bytes.withUnsafeMutableBytes { buffer in
        buffer.baseAddress.map { Glibc.read(descriptor, $0 + start, want) } ?? 0
      }
      let error = errno
      bytes.removeSubrange((start + max(count, 0))...)
      if count < 0 {
        if error == EINTR { continue }
        return .failure(.system(String(cString: strerror(error))))
      }
      if bytes.count > limit { return .failure(.tooLarge(size: nil)) }
      if count == 0 { return .success(bytes) }
    }
  }

  private static func problem(_ status: stat) -> Problem? {
    switch status.st_mode & S_IFMT {
    case S_IFREG: nil
    case S_IFDIR: .directory
    case S_IFCHR: .special(kind: "a character device")
    case S_IFBLK: .special(kind: "a block device")
    case S_IFIFO: .special(kind: "a named pipe (FIFO)")
    case S_IFSOCK: .special(kind: "a socket")
    default: .special(kind: "an unknown kind of file")
    }
  }

  /// procfs, sysfs, debugfs, tracefs, securityfs, configfs and efivarfs (`statfs(2)`'s magic numbers):
  /// file systems whose files are made up on reading.
  ///
  /// An array, not a set: the first `Set<Int64>` of a process makes the runtime scan every protocol
  /// conformance for `Int64: Hashable` (0.4 M instructions, on every `flow run`), and seven numbers are
  /// found as fast in a row.
  private static let kernelFileSystems: [Int64] = [
    0x9fa0, 0x6265_6572, 0x6462_6720, 0x7472_6163, 0x7363_6673, 0x6265_6570, 0xde5e_81e4,
  ]

  private static func systemProblem() -> Problem {
    .system(String(cString: strerror(errno)))
  }
}

extension RegularFile {
  /// The file at `path` (as the person wrote it; `location` is where it is) as a ``SourceFile``, or the
  /// diagnostic that says why not. Only a file named like a workflow (`.yml`, `.yaml`) has its lines quoted
  /// in diagnostics: any other file a workflow names could hold secrets (`run-workflow: ~/.aws/credentials`).
  public static func source(_ path: String, at location: String, limits: YAMLLimits = .workflow) -> Result<
    SourceFile, Diagnostic
  > {
    switch read(location, limit: limits.maxFileSize) {
    case .success(let bytes):
      return .success(SourceFile(path: path, bytes: bytes, isQuotable: isWorkflowName(path)))
    case .failure(let problem):
      return .failure(problem.diagnostic(path: path, limits: limits))
    }
  }

  /// Whether `path` is named as a workflow or a settings file is.
  public static func isWorkflowName(_ path: String) -> Bool {
    path.hasSuffix(".yml") || path.hasSuffix(".yaml")
  }
}

extension RegularFile.Problem {
  /// The diagnostic for the file at `path` (as the person wrote it). It never quotes the file.
  public func diagnostic(path: String, limits: YAMLLimits = .workflow) -> Diagnostic {
    switch self {
    case .tooLarge(let size):
      size.flatMap { limits.checkFileSize($0, path: path) } ?? limits.streamTooLarge(path: path)
    default:
      Diagnostic(.error, .fileNotFound, reason, file: path)
    }
  }
}

extension DiagnosticCode {
  /// A file named on the command line (or by a workflow) cannot be read: missing, not a regular file, or
  /// refused by the system.
  public static let fileNotFound: Self = "file-not-found"
}
