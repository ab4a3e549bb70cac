import CLinux
import FlowDiagnostics
import FlowMCP
import FoundationEssentials
import Glibc
import Synchronization

/// A listening TCP socket on a loopback address that hands each connection to a thread of its own,
/// up to a bound: blocking sockets and a thread per connection, since flow has no event loop and an
/// MCP client keeps only a few connections (one per call in flight, plus one for its answers).
final class HTTPListener: Sendable {
  /// Why the socket could not be opened (the port is taken, say).
  struct Failure: Error, Sendable, CustomStringConvertible {
    var description: String
  }

  let address: LoopbackAddress
  /// The port listened on: the one asked for, or the one the system chose for port 0.
  let port: UInt16
  private let descriptor: Int32
  private let maximumConnections: Int
  /// A connection quiet this long between requests is closed (`SO_RCVTIMEO`), so that clients that
  /// keep idle connections cannot hold every thread.
  private let idleSeconds: Int

  private struct State {
    var open: Set<Int32> = []
    /// The connections waiting for a request or reading one, by when they began to (a count): the
    /// ones a new client may push out.
    var waiting: [Int32: Int] = [:]
    var ticks = 0
    var stopped = false
  }
  private let state = Mutex(State())

  init(address: LoopbackAddress, maximumConnections: Int = 32, idleSeconds: Int = 60) throws(Failure) {
    self.address = address
    self.maximumConnections = maximumConnections
    self.idleSeconds = idleSeconds
    let family = address.isIPv6 ? AF_INET6 : AF_INET
    let socket = Glibc.socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { throw Failure(description: "cannot open a socket: \(Self.errorText())") }
    var yes: Int32 = 1
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    /// Binds to an IPv4 or IPv6 socket address, whose C types differ only in size.
    func bind<Address>(to socketAddress: Address) -> Int32 {
      withUnsafePointer(to: socketAddress) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.bind(socket, $0, socklen_t(MemoryLayout<Address>.size))
        }
      }
    }
    let bound: Int32
    if address.isIPv6 {
      setsockopt(socket, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
      var socketAddress = sockaddr_in6()
      socketAddress.sin6_family = sa_family_t(AF_INET6)
      socketAddress.sin6_port = address.port.bigEndian
      inet_pton(AF_INET6, address.host, &socketAddress.sin6_addr)
      bound = bind(to: socketAddress)
    } else {
      var socketAddress = sockaddr_in()
      socketAddress.sin_family = sa_family_t(AF_INET)
      socketAddress.sin_port = address.port.bigEndian
      inet_pton(AF_INET, address.host, &socketAddress.sin_addr)
      bound = bind(to: socketAddress)
    }
    if bound != 0 || listen(socket, 64) != 0 {
      let text = Self.errorText()
      close(socket)
      throw Failure(description: "cannot listen on \(address): \(text)")
    }
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    let networkPort = withUnsafeBytes(of: &storage) { bytes in
      // sin_port and sin6_port both sit right after the family, in network order.
      UInt16(bytes[2]) << 8 | UInt16(bytes[3])
    }
    self.descriptor = socket
    self.port = networkPort
  }

  /// Accepts connections on a thread of its own until ``stop()``, and runs `serve` for each on a
  /// thread of its own; `serve` owns nothing: the listener closes the socket when it returns.
  func start(_ serve: @escaping @Sendable (Int32) -> Void) {
    signal(SIGPIPE, SIG_IGN)
    DetachedThread.run { [self] in acceptLoop(serve) }
  }

  /// Stops accepting; the connections open go on until ``closeConnections()``.
  func stop() {
    let first = state.withLock { state in
      defer { state.stopped = true }
      return !state.stopped
    }
    // shutdown(2) wakes the thread blocked in accept(2), which then closes the socket.
    if first { shutdown(descriptor, Int32(SHUT_RDWR)) }
  }

  /// Marks `connection` as waiting for (or reading) a request, which a new client may push it out of when
  /// every place is taken, or as being answered, which it may not.
  func setWaiting(_ connection: Int32, _ waiting: Bool) {
    state.withLock { state in
      guard state.open.contains(connection) else { return }
      guard waiting else {
        state.waiting[connection] = nil
        return
      }
      // A connection already waiting keeps its place in the order.
      guard state.waiting[connection] == nil else { return }
      state.ticks += 1
      state.waiting[connection] = state.ticks
    }
  }

  /// Ends every open connection: their threads' reads and writes fail, and they return.
  func closeConnections() {
    for socket in state.withLock({ $0.open }) { shutdown(socket, Int32(SHUT_RDWR)) }
  }

  private func acceptLoop(_ serve: @escaping @Sendable (Int32) -> Void) {
    while true {
      // Close-on-exec from the start, so that a program a run starts does not keep a client's
      // connection open.
      let connection = clinux_accept4(descriptor, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
      if connection < 0 {
        if errno == EINTR || errno == ECONNABORTED { continue }
        if state.withLock({ $0.stopped }) { break }
        if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM { continue }
        break
      }
      var timeout = timeval(tv_sec: idleSeconds, tv_usec: 0)
      setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      var yes: Int32 = 1
      setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
      // When every place is taken, the connection that has waited longest for its request makes room:
      // idle and slow clients (slowloris, a byte at a time or nothing) cannot lock a working client out;
      // only connections that are being answered are never pushed out.
      let admitted = state.withLock { state -> Bool in
        guard !state.stopped else { return false }
        if state.open.count >= maximumConnections {
          guard let oldest = state.waiting.min(by: { $0.value < $1.value })?.key else { return false }
          state.waiting[oldest] = nil
          state.open.remove(oldest)
          shutdown(oldest, Int32(SHUT_RDWR))
        }
        state.open.insert(connection)
        // Waiting for its first request from the start, before its thread runs.
        state.ticks += 1
        state.waiting[connection] = state.ticks
        return true
      }
      guard admitted else {
        HTTPResponseWriter(socket: connection).refuse(
          HTTPRequestProblem(503, "too many connections are open (at most \(maximumConnections))"), keepAlive: false)
        close(connection)
        continue
      }
      DetachedThread.run { [self] in
        serve(connection)
        state.withLock {
          _ = $0.open.remove(connection)
          $0.waiting[connection] = nil
        }
        close(connection)
      }
    }
    close(descriptor)
  }

  private static func errorText() -> String { String(cString: strerror(errno)) }
}
