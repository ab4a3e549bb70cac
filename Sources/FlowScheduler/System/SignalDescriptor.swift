import CLinux
import FoundationEssentials
import Glibc

/// Signals taken as data on a `signalfd`, read in the scheduler's poll: blocked in the calling thread,
/// which must be the process's only thread (so that no other thread takes them with their default
/// action), as it is where `flow schedule` runs.
struct SignalDescriptor {
  let descriptor: Int32

  init(_ signals: [Int32]) throws(LaunchFailure) {
    var set = sigset_t()
    sigemptyset(&set)
    for number in signals { sigaddset(&set, number) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
    descriptor = signalfd(-1, &set, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
    guard descriptor >= 0 else {
      throw LaunchFailure("cannot take signals (signalfd): \(String(cString: strerror(errno)))")
    }
  }

  /// The signals waiting, in the order they came (several of one kind may count once).
  func take() -> [Int32] {
    var numbers: [Int32] = []
    var info = signalfd_siginfo()
    while read(descriptor, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
      numbers.append(Int32(info.ssi_signo))
    }
    return numbers
  }
}
