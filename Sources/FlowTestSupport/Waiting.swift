import Foundation
import Synchronization

/// Something that happens once, signalled by a test double and awaited by the test: waiting on the
/// event itself rather than polling a flag in a loop.
public final class Occurrence: Sendable {
  private enum State {
    case waiting([CheckedContinuation<Void, Never>])
    case happened
  }

  private let state = Mutex(State.waiting([]))

  public init() {}

  /// Says it happened, and wakes every task waiting for it; later calls do nothing.
  public func signal() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      guard case .waiting(let waiters) = state else { return [] }
      state = .happened
      return waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  public var hasHappened: Bool {
    state.withLock { if case .happened = $0 { true } else { false } }
  }

  /// Returns once it has happened (at once if it already has).
  public func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = state.withLock { state -> Bool in
        guard case .waiting(let waiters) = state else { return true }
        state = .waiting(waiters + [continuation])
        return false
      }
      if now { continuation.resume() }
    }
  }
}

/// Files closed after writing in one folder (or, asked, after reading), through inotify: for a test
/// that waits until another process has written or read something, without reading the file again and
/// again.
public final class FolderWatch {
  public struct Timeout: Error, CustomStringConvertible {
    public var folder: String
    public var description: String { "nothing was written in \(folder) in time" }
  }

  private let descriptor: Int32
  private let folder: String

  /// Starts watching `folder`, which must exist, for files closed after writing, or after reading.
  public init(_ folder: URL, afterReading: Bool = false) throws {
    self.folder = folder.path
    descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    guard inotify_add_watch(descriptor, folder.path, UInt32(afterReading ? IN_CLOSE_NOWRITE : IN_CLOSE_WRITE)) >= 0
    else {
      let code = POSIXErrorCode(rawValue: errno) ?? .EIO
      close(descriptor)
      throw POSIXError(code)
    }
  }

  deinit { close(descriptor) }

  /// Forgets the writes seen so far: those of the test itself, say, as it read what it waits for.
  public func discard() {
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
  }

  /// Blocks until a file in the folder is closed after writing or reading (at once if one was since the last
  /// ``discard()``), and forgets it; throws ``Timeout`` when `timeout` passes first.
  public func next(within timeout: Duration = .seconds(30)) throws {
    var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
    let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    var ready: Int32
    repeat { ready = poll(&descriptor, 1, milliseconds) } while ready < 0 && errno == EINTR
    guard ready > 0 else { throw Timeout(folder: folder) }
    discard()
  }
}
