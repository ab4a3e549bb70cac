import CLinux
import FlowDiagnostics
import FoundationEssentials
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

  /// The system bus's sockets: `DBUS_SYSTEM_BUS_ADDRESS`, else the well-known socket every distribution
  /// uses (the specification's default).
  static func system(environment: [String: String]) throws(DBusError) -> [DBusAddress] {
    guard let address = environment["DBUS_SYSTEM_BUS_ADDRESS"], !address.isEmpty else {
      return [.path("/run/dbus/system_bus_socket")]
    }
    let sockets = parse(address)
    guard !sockets.isEmpty else {
      throw .noBus(
        "DBUS_SYSTEM_BUS_ADDRESS ('\(address)') names no Unix socket; flow connects to 'unix:path=…' and 'unix:abstract=…' buses"
      )
    }
    return sockets
  }

  /// The Unix sockets of a server address list (`unix:path=/run/user/1000/bus;tcp:…`), values unescaped.
  static func parse(_ address: String) -> [DBusAddress] {
    address.split(separator: ";").compactMap { entry in
      guard entry.hasPrefix("unix:") else { return nil }
      var keys: [String: String] = [:]
      for pair in entry.dropFirst(5).split(separator: ",") {
        guard let equals = pair.firstIndex(of: "=") else { continue }
        keys[String(pair[..<equals])] = String(pair[pair.index(after: equals)...]).removingPercentEscapes
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
/// Two ways to use it, from one thread at a time. Blocking: ``DBusNotifications`` runs it on a thread of
/// its own; ``interrupt()`` may be called from any thread and makes a waiting read fail with `cancelled`.
/// Polled (``connect(_:environment:uid:timeout:)``): a loop that waits on ``descriptor`` with others calls
/// ``readWaiting(_:)`` when it can be read, and nothing ever waits for a reply — replies go to the handler
/// given with each call — so a service that never answers cannot stall that loop.
public final class DBusConnection: @unchecked Sendable {
  private let fd: Int32
  private var buffer: [UInt8] = []
  private var nextSerial: UInt32 = 1
  /// Messages read while waiting for a reply: signals to hand out later.
  private var pending: [DBusMessage] = []
  /// Descriptors received (SCM_RIGHTS) and not yet given to the message that carries them.
  private var received: [Int32] = []
  /// Polled calls waiting for their reply, by serial; `keeps` when the handler takes the reply's descriptors.
  private var replies: [UInt32: (keeps: Bool, handler: (Result<DBusMessage, DBusError>) -> Void)] = [:]
  /// Who wants to hear that a name's owner changed, by name.
  private var owners: [String: [(String?) -> Void]] = [:]
  /// Why a polled send failed: the next ``readWaiting(_:)`` throws it.
  private var failure: DBusError?
  /// The name the bus gave this connection (`:1.42`), from `Hello`: the portal's request objects are
  /// named after it.
  public private(set) var uniqueName = ""
  /// Set once, from any thread.
  private let interrupted = Mutex(false)
  private var isInterrupted: Bool { interrupted.withLock { $0 } }

  /// Connects to the first of `addresses` that answers, authenticates and says `Hello`.
  static func open(_ addresses: [DBusAddress], timeout: Duration = .seconds(25), passingDescriptors: Bool = false)
    throws(DBusError) -> DBusConnection
  {
    var failures: [String] = []
    for address in addresses {
      do {
        let connection = try DBusConnection(address: address)
        try connection.handshake(timeout: timeout, passingDescriptors: passingDescriptors)
        return connection
      } catch .noBus(let why) {
        failures.append(why)
      }
    }
    throw .noBus(failures.joined(separator: "; "))
  }

  /// A polled connection to `bus`, authenticated, with descriptor passing agreed (logind's `Inhibit`
  /// answers with one) and the socket non-blocking. Connecting waits at most `timeout`: a bus that accepts
  /// and never answers must not hold up whoever arms.
  public static func connect(
    _ bus: DBusBus, environment: [String: String], uid: UInt32, timeout: Duration = .seconds(2)
  ) throws(DBusError) -> DBusConnection {
    let addresses =
      switch bus {
      case .system: try DBusAddress.system(environment: environment)
      case .session: try DBusAddress.session(environment: environment, uid: uid)
      }
    let connection = try open(addresses, timeout: timeout, passingDescriptors: true)
    _ = fcntl(connection.fd, F_SETFL, fcntl(connection.fd, F_GETFL) | O_NONBLOCK)
    return connection
  }

  /// The socket, for a `poll` that waits on it beside other things.
  public var descriptor: Int32 { fd }

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
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(length)) }
    }
    guard result == 0 else {
      let why = String(cString: strerror(errno))
      close(fd)
      throw .noBus("nothing answers at \(address.description) (\(why))")
    }
    self.fd = fd
  }

  deinit {
    close(fd)
    for descriptor in received { close(descriptor) }
  }

  /// Makes a blocked ``readMessage(until:)`` (on another thread) fail with `cancelled`.
  func interrupt() {
    interrupted.withLock { $0 = true }
    shutdown(fd, Int32(SHUT_RDWR))
  }

  // MARK: - Authentication

  private func handshake(timeout: Duration, passingDescriptors: Bool) throws(DBusError) {
    let deadline = ContinuousClock.now + timeout
    // The credentials byte, then EXTERNAL with our uid in hex of its decimal digits; the bus checks it
    // against the socket's peer credentials.
    try send(Array("\0AUTH EXTERNAL \(Hex.encode(Array(String(getuid()).utf8)))\r\n".utf8))
    let answer = try readLine(until: deadline)
    guard answer.hasPrefix("OK ") else {
      throw .noBus("the bus refused to let this user in (it said '\(answer)')")
    }
    if passingDescriptors {
      // A bus that does not agree simply passes no descriptors; the call that needed one then fails.
      try send(Array("NEGOTIATE_UNIX_FD\r\n".utf8))
      _ = try readLine(until: deadline)
    }
    try send(Array("BEGIN\r\n".utf8))
    uniqueName =
      try call(
        .methodCall(
          destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
          member: "Hello"),
        until: deadline
      ).first?.string ?? ""
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
      if let message = try nextMessage() { return message }
      try fill(until: deadline)
    }
  }

  /// The next whole message in the buffer, with the descriptors it carries.
  private func nextMessage() throws(DBusError) -> DBusMessage? {
    guard var message = try DBusMessage.next(from: &buffer) else { return nil }
    let count = min(message.unixFDCount, received.count)
    message.unixFDs = Array(received.prefix(count))
    received.removeFirst(count)
    return message
  }

  private func send(_ bytes: [UInt8]) throws(DBusError) {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { raw in
        Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
      }
      if count < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN || errno == EWOULDBLOCK {
          // A polled connection's socket is full: the bus is behind; wait for room, briefly.
          var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
          guard poll(&descriptor, 1, 2000) > 0 else { throw .timedOut }
          continue
        }
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
      let count = receive()
      if count < 0, errno == EINTR || errno == EAGAIN { continue }
      if isInterrupted { throw .cancelled }
      if count < 0 { throw .io("cannot read from the bus: \(String(cString: strerror(errno)))") }
      if count == 0 { throw .io("the bus closed the connection") }
      return
    }
  }

  /// One `recvmsg`: the bytes to the buffer, the descriptors that came with them to ``received``.
  private func receive() -> Int {
    var chunk = [UInt8](repeating: 0, count: 8192)
    var descriptors = [Int32](repeating: -1, count: 16)
    var count: Int32 = 0
    let length = chunk.withUnsafeMutableBytes { bytes in
      descriptors.withUnsafeMutableBufferPointer { fds in
        clinux_recv_fds(fd, bytes.baseAddress, bytes.count, 0, fds.baseAddress, Int32(fds.count), &count)
      }
    }
    received += descriptors.prefix(Int(count))
    if length > 0 { buffer.append(contentsOf: chunk[0..<length]) }
    return length
  }
}

// MARK: - Polled use

extension DBusConnection {
  /// Sends `message`; `reply` gets its reply (or error reply) inside a later ``readWaiting(_:)``. Without
  /// a handler the call asks for no reply. A reply's descriptors are closed once its handler returns,
  /// unless `keepingDescriptors`, when the handler owns them. Never waits for the answer: when the socket
  /// fails, the next ``readWaiting(_:)`` throws why, and the handler is never called.
  public func send(
    _ message: DBusMessage, keepingDescriptors: Bool = false,
    reply: ((Result<DBusMessage, DBusError>) -> Void)? = nil
  ) {
    guard failure == nil else { return }
    var message = message
    message.serial = nextSerial
    nextSerial &+= 1
    if let reply {
      replies[message.serial] = (keepingDescriptors, reply)
    } else {
      message.flags |= DBusMessage.noReplyExpected
    }
    do {
      try send(message.encoded())
    } catch {
      replies[message.serial] = nil
      failure = error
    }
  }

  /// Asks the bus for the signals `rule` matches. Signals are not sent to a connection that has not asked.
  public func addMatch(_ rule: DBusMatchRule) {
    send(Self.busCall("AddMatch", [.string(rule.text)]))
  }

  /// Every property of `interface` on the object, by name, through `org.freedesktop.DBus.Properties.GetAll`.
  public func getAll(
    _ destination: String, path: String, interface: String,
    reply: @escaping (Result<[String: DBusValue], DBusError>) -> Void
  ) {
    send(
      .methodCall(
        destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "GetAll",
        body: [.string(interface)])
    ) { result in
      reply(result.map { $0.body.first?.dictionary ?? [:] })
    }
  }

  /// One property, unwrapped from its variant, through `org.freedesktop.DBus.Properties.Get`.
  public func get(
    _ destination: String, path: String, interface: String, property: String,
    reply: @escaping (Result<DBusValue, DBusError>) -> Void
  ) {
    send(
      .methodCall(
        destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
        body: [.string(interface), .string(property)])
    ) { result in
      reply(
        result.flatMap { reply in
          guard let value = reply.body.first else { return .failure(.protocolError("Get answered without a value")) }
          return .success(value.unwrapped)
        })
    }
  }

  /// Calls `changed` with the unique name owning `name` now (nil when nobody does), then again whenever
  /// that changes (`NameOwnerChanged`): a service that starts, stops or restarts. Calls may repeat the
  /// same owner.
  public func trackOwner(of name: String, _ changed: @escaping (String?) -> Void) {
    owners[name, default: []].append(changed)
    addMatch(
      DBusMatchRule(
        sender: Self.bus, interface: Self.bus, member: "NameOwnerChanged", path: "/org/freedesktop/DBus",
        arg0: name))
    send(Self.busCall("GetNameOwner", [.string(name)])) { result in
      if case .success(let reply) = result { changed(reply.body.first?.string) } else { changed(nil) }
    }
  }

  /// Reads what the socket holds without waiting and hands out every whole message in order: replies to
  /// their handlers, owner changes to ``trackOwner(of:_:)``'s callers, other signals to `signal`. Throws
  /// when the connection is gone (the bus stopped) or a send failed; the connection is useless after.
  public func readWaiting(_ signal: (DBusMessage) -> Void) throws(DBusError) {
    if let failure { throw failure }
    while !pending.isEmpty { dispatch(pending.removeFirst(), signal) }
    while true {
      while let message = try nextMessage() { dispatch(message, signal) }
      let count = receive()
      if count < 0, errno == EINTR { continue }
      if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { break }
      if count < 0 { throw .io("cannot read from the bus: \(String(cString: strerror(errno)))") }
      if count == 0 { throw .io("the bus closed the connection") }
    }
    if let failure { throw failure }
  }

  private func dispatch(_ message: DBusMessage, _ signal: (DBusMessage) -> Void) {
    var keeps = false
    defer { if !keeps { for descriptor in message.unixFDs { close(descriptor) } } }
    switch message.kind {
    case .methodReturn, .error:
      guard let serial = message.replySerial, let waiting = replies.removeValue(forKey: serial) else { return }
      keeps = waiting.keeps
      if message.kind == .error {
        waiting.handler(
          .failure(.remote(name: message.errorName ?? "an unnamed error", message: message.body.first?.string ?? "")))
      } else {
        waiting.handler(.success(message))
      }
    case .signal:
      if message.sender == Self.bus, message.member == "NameOwnerChanged", message.body.count == 3,
        let name = message.body[0].string, let callbacks = owners[name]
      {
        let owner = message.body[2].string ?? ""
        for callback in callbacks { callback(owner.isEmpty ? nil : owner) }
      } else {
        signal(message)
      }
    case .methodCall:
      // Nothing is served here; a caller that waits for an answer gets one rather than a timeout.
      guard message.flags & DBusMessage.noReplyExpected == 0, let sender = message.sender else { return }
      var answer = DBusMessage(kind: .error)
      answer.fields = [
        .destination: .string(sender), .errorName: .string("org.freedesktop.DBus.Error.UnknownMethod"),
        .replySerial: .uint32(message.serial),
      ]
      answer.body = [.string("flow serves no methods")]
      send(answer)
    }
  }

  static let bus = "org.freedesktop.DBus"

  static func busCall(_ member: String, _ body: [DBusValue]) -> DBusMessage {
    .methodCall(destination: bus, path: "/org/freedesktop/DBus", interface: bus, member: member, body: body)
  }
}
