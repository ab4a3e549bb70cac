import CLinux
import Glibc

/// The process that ends what flow started once flow is gone (`clinux_start_keeper`, CLinux/spawn.h).
///
/// A child that ends with flow gets SIGKILL from the kernel when flow dies (`PR_SET_PDEATHSIG`), but
/// what that child started (a script's `sleep 1000 &`, an MCP server's workers) gets nothing. They stay
/// in the child's process group, so the keeper, told of each group as it starts and as it is reaped,
/// kills the groups still listed when its socket closes: when flow exits or is killed, even by
/// `kill -9`. Started with the first such child; one per flow process.
enum Keeper {
  /// flow's end of the socket, or -1 when the keeper could not be started (then only the death signal
  /// holds).
  /// Started before the first child that ends with flow, which lists its own group through it before
  /// it runs anything (`clinux_spawn`).
  static let socket: Int32 = {
    var ends: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
      return -1
    }
    let pid = clinux_start_keeper(ends[1])
    close(ends[1])
    guard pid > 0 else {
      close(ends[0])
      return -1
    }
    return ends[0]
  }()

  /// Lists a group (`started`) or forgets one that was reaped, whose number may be used again. (A child
  /// lists itself; flow forgets it.)
  static func tell(started: Bool, group: pid_t) {
    guard socket >= 0 else { return }
    var message = clinux_keeper_message(start: started ? 1 : 0, group: group)
    // MSG_NOSIGNAL: a keeper that is gone must not end flow with SIGPIPE.
    _ = send(socket, &message, MemoryLayout<clinux_keeper_message>.size, Int32(MSG_NOSIGNAL))
  }
}
