import FlowDiagnostics
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Where the D-Bus session bus listens, found as `libdbus` and `sd-bus` find it, plus the fallback a cron
/// job needs: `DBUS_SESSION_BUS_ADDRESS`; else `$XDG_RUNTIME_DIR/bus` (the socket a systemd user session
/// makes, which a cron job's environment does not name); else `/run/user/UID/bus`, where
/// `XDG_RUNTIME_DIR` would point (cron sets neither).
enum DBusAddress: Sendable, Equatable {
  case path(String)
  /// A Linux abstract socket (`unix:abstract=…`, older `dbus-launch`).
  case abstract(String)

  /// The session bus's sockets, to try in order, or why there is none.
  static func session(
    environment: [String: String], uid: UInt32,
    exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
  ) throws(DBusError) -> [DBusAddress] {
    if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
      let sockets = parse(address)
      guard !sockets.isEmpty else {
        throw .noBus(
          "DBUS_SESSION_BUS_ADDRESS ('\(address)') names no Unix socket; flow connects to 'unix:path=…' and 'unix:abstract=…' buses"
        )
      }
      return sockets
    }
    let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
    let candidate = (runtime ?? "/run/user/\(uid)") + "/bus"
    guard exists(candidate) else {
      let looked = runtime.map { "XDG_RUNTIME_DIR is '\($0)'" } ?? "XDG_RUNTIME_DIR is not set either"
      throw .noBus("DBUS_SESSION_BUS_ADDRESS is not set, and there is no \(candidate) (\(looked))")
    }
    return [.path(candidate)]
  }

  /// The Unix sockets of a server address list (`unix:path=/run/user/1000/bus;tcp:…`), values unescaped.
  static func parse(_ address: String) -> [DBusAddress] {
    address.split(separator: ";").compactMap { entry in
      guard entry.hasPrefix("unix:") else { return nil }
      var keys: [String: String] = [:]
      for pair in entry.dropFirst(5).split(separator: ",") {
        guard let equals = pair.firstIndex(of: "=") else { continue }
        keys[String(pair[..<equals])] = String(pair[pair.index(after: equals)...]).removingPercentEncoding
      }
      if let path = keys["path"] { return .path(path) }
      if let name = keys["abstract"] { return .abstract(name) }
      return nil
    }
  }

  var description: String {
    switch self {
    case .path(let path): path
    case .abstract(let name): "@" + name
    }
  }
}

/// A connection to a message bus: flow's own client of the D-Bus wire protocol over a Unix socket —
/// `EXTERNAL` authentication, `Hello`, method calls and their replies, and signals — which is all that
/// `notify` needs (Package.swift says why it is not sd-bus or libdbus).
///
/// Blocking, and used from one thread at a time: ``DBusNotifications`` runs it on a thread of its own.
/// ``interrupt()`` may be called from any thread and makes a waiting read fail with `cancelled`.
final class DBusConnection: @unchecked Sendable {
  private let fd: Int32
  private var buffer: [UInt8] = []
  private var nextSerial: UInt32 = 1
  /// Messages read while waiting for a reply: signals to hand out later.
  private var pending: [DBusMessage] = []
  /// Set once, from any thread.
  private let interrupted = Mutex(false)
  private var isInterrupted: Bool { interrupted.withLock { $0 } }

  /// Connects to the first of `addresses` that answers, authenticates and says `Hello`.
  static func open(_ addresses: [DBusAddress], timeout: Duration = .seconds(25)) throws(DBusError) -> DBusConnection {
    var failures: [String] = []
    for address in addresses {
      do {
        let connection = try DBusConnection(address: address)
        try connection.handshake(timeout: timeout)
        return connection
      } catch .noBus(let why) {
        failures.append(why)
      }
    }
    throw .noBus(failures.joined(separator: "; "))
  }

  private init(address: DBusAddress) throws(DBusError) {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw .io("cannot make a socket: \(String(cString: strerror(errno)))") }
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let (bytes, abstract): ([UInt8], Bool) =
      switch address {
      case .path(let path): (Array(path.utf8), false)
      case .abstract(let name): (Array(name.utf8), true)
      }
    let capacity = MemoryLayout.size(ofValue: addr.sun_path)
    guard bytes.count + 1 < capacity else {
      close(fd)
      throw .noBus("the bus socket path \(address.description) is too long")
    }
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      // An abstract name starts with a NUL byte and is not NUL-terminated.
      let start = abstract ? 1 : 0
      for (index, byte) in bytes.enumerated() { raw[start + index] = byte }
    }
    let length =
      abstract ? MemoryLayout<sa_family_t>.size + 1 + bytes.count : MemoryLayout<sockaddr_un>.size
    let result = withUnsafePointer(to: &addr) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(length)) }
    }
    guard result == 0 else {
      let why = String(cString: strerror(errno))
      close(fd)
      throw .noBus("nothing answers at \(address.description) (\(why))")
    }
    self.fd = fd
  }

  deinit { close(fd) }

  /// Makes a blocked ``readMessage(until:)`` (on another thread) fail with `cancelled`.
  func interrupt() {
    interrupted.withLock { $0 = true }
    shutdown(fd, Int32(SHUT_RDWR))
  }

  // MARK: - Authentication

  private func handshake(timeout: Duration) throws(DBusError) {
    let deadline = ContinuousClock.now + timeout
    // The credentials byte, then EXTERNAL with our uid in hex of its decimal digits; the bus checks it
    // against the socket's peer credentials.
    try send(Array("\0AUTH EXTERNAL \(Hex.encode(Array(String(getuid()).utf8)))\r\n".utf8))
    let answer = try readLine(until: deadline)
    guard answer.hasPrefix("OK ") else {
      throw .noBus("the bus refused to let this user in (it said '\(answer)')")
    }
    try send(Array("BEGIN\r\n".utf8))
    _ = try call(
      .methodCall(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
        member: "Hello"),
      until: deadline)
  }

  private func readLine(until deadline: ContinuousClock.Instant) throws(DBusError) -> String {
    while true {
      if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeSubrange(...end)
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
      }
      guard buffer.count < 16_384 else { throw .protocolError("an authentication line over 16 KiB") }
      try fill(until: deadline)
    }
  }

  // MARK: - Messages

  /// Sends a method call and returns its reply's body; an error reply throws ``DBusError/remote(name:message:)``.
  @discardableResult
  func call(_ message: DBusMessage, until deadline: ContinuousClock.Instant) throws(DBusError) -> [DBusValue] {
    var message = message
    message.serial = nextSerial
    nextSerial &+= 1
    try send(message.encoded())
    while true {
      let reply = try readMessage(until: deadline)
      guard reply.replySerial == message.serial, reply.kind == .methodReturn || reply.kind == .error else {
        if reply.kind == .signal { pending.append(reply) }
        continue
      }
      if reply.kind == .error {
        throw .remote(name: reply.errorName ?? "an unnamed error", message: reply.body.first?.string ?? "")
      }
      return reply.body
    }
  }

  /// The next signal, those read while waiting for replies first; throws `timedOut` at the deadline.
  func nextSignal(until deadline: ContinuousClock.Instant) throws(DBusError) -> DBusMessage {
    if !pending.isEmpty { return pending.removeFirst() }
    while true {
      let message = try readMessage(until: deadline)
      if message.kind == .signal { return message }
    }
  }

  private func readMessage(until deadline: ContinuousClock.Instant) throws(DBusError) -> DBusMessage {
    while true {
      if let message = try DBusMessage.next(from: &buffer) { return message }
      try fill(until: deadline)
    }
  }

  private func send(_ bytes: [UInt8]) throws(DBusError) {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { raw in
        Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
      }
      if count < 0 {
        if errno == EINTR { continue }
        if isInterrupted { throw .cancelled }
        throw .io("cannot write to the bus: \(String(cString: strerror(errno)))")
      }
      sent += count
    }
  }

  /// Reads what is there, waiting in `poll` at most until `deadline`.
  private func fill(until deadline: ContinuousClock.Instant) throws(DBusError) {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while true {
      if isInterrupted { throw .cancelled }
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { throw .timedOut }
      let milliseconds = Int32(
        clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
      let ready = poll(&descriptor, 1, milliseconds)
      if ready < 0, errno == EINTR { continue }
      if ready < 0 { throw .io("cannot wait for the bus: \(String(cString: strerror(errno)))") }
      if ready == 0 { continue }
      var chunk = [UInt8](repeating: 0, count: 8192)
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      if isInterrupted { throw .cancelled }
      if count < 0 { throw .io("cannot read from the bus: \(String(cString: strerror(errno)))") }
      if count == 0 { throw .io("the bus closed the connection") }
      buffer.append(contentsOf: chunk[0..<count])
      return
    }
  }
}
