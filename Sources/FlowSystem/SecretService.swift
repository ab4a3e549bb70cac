import FlowDiagnostics
import FoundationEssentials

/// The freedesktop.org Secret Service (`org.freedesktop.secrets`: GNOME Keyring, KWallet, KeePassXC) on the
/// session bus, reached through flow's own D-Bus client (``DBusConnection``), so that reading a secret loads
/// no library (Secrets.md says why not libsecret).
///
/// Items carry libsecret's attributes — `xdg:schema` = ``schema`` and `service` = `flow`, `account` = the
/// secret's name — so `secret-tool lookup service flow account NAME` and Seahorse see them. Values travel
/// in a `plain` session: the socket is the user's own, and any process that could read the bus could ask
/// the service for the value itself (Secrets.md, "The session").
///
/// Every call is bounded: without a bus, without an owner of the service, or with a keyring that only a
/// prompt could unlock and nobody to answer it, a call fails within ``timeout`` and never waits on a person
/// it cannot reach.
public struct SecretService: Sendable {
  public static let service = "org.freedesktop.secrets"
  /// The `xdg:schema` attribute of flow's items, libsecret's convention for telling applications apart.
  public static let schema = "dev.flow.Secret"
  static let root = "/org/freedesktop/secrets"
  static let serviceInterface = "org.freedesktop.Secret.Service"
  static let itemInterface = "org.freedesktop.Secret.Item"

  public let environment: [String: String]
  public let uid: UInt32
  /// How long the whole of one operation may take when nobody is asked anything.
  public var timeout: Duration = .seconds(2)

  public init(environment: [String: String], uid: UInt32) {
    self.environment = environment
    self.uid = uid
  }

  /// Why the service cannot be used, in words that finish "cannot reach the keyring: …".
  public enum Failure: Error, Sendable, Equatable {
    /// No session bus, or nobody owns `org.freedesktop.secrets` on it.
    case unavailable(String)
    /// The items are in a locked collection and unlocking it needs a prompt nobody can answer here.
    case locked(String)
    /// The service answered with an error, or too late.
    case failed(String)

    public var why: String {
      switch self {
      case .unavailable(let why), .locked(let why), .failed(let why): why
      }
    }
  }

  /// The attributes that find the secret `name` (or, without a name, every secret of flow's).
  static func attributes(_ name: String?) -> DBusValue {
    var pairs = [("xdg:schema", schema), ("service", "flow")]
    if let name { pairs.append(("account", name)) }
    return .array(element: "{ss}", pairs.map { .dictEntry(.string($0.0), .string($0.1)) })
  }

  // MARK: - Operations

  /// The values of `names` that the keyring holds, by name; a name it does not hold is absent.
  public func values(of names: [String]) throws(Failure) -> [String: String] {
    try withSession { session throws(Failure) in
      var found: [String: String] = [:]
      var items: [String: String] = [:]
      for name in Set(names) {
        guard let item = try session.unlockedItems(matching: Self.attributes(name)).first else { continue }
        items[item] = name
      }
      guard !items.isEmpty else { return [:] }
      let reply = try session.call(
        Self.root, Self.serviceInterface, "GetSecrets",
        [.array(element: "o", items.keys.sorted().map { .objectPath($0) }), .objectPath(session.path)])
      for entry in reply.first?.items ?? [] {
        guard case .dictEntry(let path, .struct(let fields)) = entry, let name = path.string.flatMap({ items[$0] }),
          fields.count >= 3, let bytes = fields[2].bytes
        else { continue }
        found[name] = String(decoding: bytes, as: UTF8.self)
      }
      return found
    }
  }

  /// Stores `value` as the secret `name` in the default collection, replacing what it held.
  public func store(_ name: String, value: String) throws(Failure) {
    try withSession { session throws(Failure) in
      guard
        let alias = try session.call(Self.root, Self.serviceInterface, "ReadAlias", [.string("default")]).first?
          .string, alias != "/"
      else {
        throw .failed(
          "the Secret Service has no default collection (a keyring to keep items in); create one in Seahorse (Passwords and Keys)"
        )
      }
      try session.unlock([alias])
      let properties: DBusValue = .array(
        element: "{sv}",
        [
          .dictEntry(.string("org.freedesktop.Secret.Item.Label"), .variant(.string("flow: \(name)"))),
          .dictEntry(.string("org.freedesktop.Secret.Item.Attributes"), .variant(Self.attributes(name))),
        ])
      let secret: DBusValue = .struct([
        .objectPath(session.path), .array(element: "y", []), .array(element: "y", value.utf8.map { .byte($0) }),
        .string("text/plain; charset=utf8"),
      ])
      let reply = try session.call(
        alias, "org.freedesktop.Secret.Collection", "CreateItem", [properties, secret, .boolean(true)])
      if let prompt = reply.dropFirst().first?.string, prompt != "/" {
        throw .locked("the keyring asks for a confirmation to store '\(name)', and nobody can answer it here")
      }
    }
  }

  /// Removes the secret `name`; false when the keyring holds no such secret.
  public func remove(_ name: String) throws(Failure) -> Bool {
    try withSession { session throws(Failure) in
      let (unlocked, locked) = try session.search(Self.attributes(name))
      try session.unlock(locked)
      for item in unlocked + locked {
        let reply = try session.call(item, Self.itemInterface, "Delete", [])
        if let prompt = reply.first?.string, prompt != "/" {
          throw .locked("the keyring asks for a confirmation to remove '\(name)', and nobody can answer it here")
        }
      }
      return !(unlocked + locked).isEmpty
    }
  }

  /// The names of flow's secrets, sorted, locked ones included (an item's attributes are readable while its
  /// collection is locked).
  public func names() throws(Failure) -> [String] {
    try withSession { session throws(Failure) in
      let (unlocked, locked) = try session.search(Self.attributes(nil))
      var names: Set<String> = []
      for item in unlocked + locked {
        let reply = try session.call(
          item, "org.freedesktop.DBus.Properties", "Get", [.string(Self.itemInterface), .string("Attributes")])
        if let name = reply.first?.unwrapped.dictionary?["account"]?.string { names.insert(name) }
      }
      return names.sorted()
    }
  }

  // MARK: - The session

  /// A connection to the service with an open `plain` session, for one operation.
  final class Session {
    let bus: DBusConnection
    let deadline: ContinuousClock.Instant
    var path = "/"

    init(bus: DBusConnection, deadline: ContinuousClock.Instant) {
      self.bus = bus
      self.deadline = deadline
    }

    func call(_ object: String, _ interface: String, _ member: String, _ body: [DBusValue]) throws(Failure)
      -> [DBusValue]
    {
      do {
        return try bus.call(
          .methodCall(
            destination: SecretService.service, path: object, interface: interface, member: member, body: body),
          until: deadline)
      } catch .timedOut {
        throw .failed("the Secret Service did not answer '\(member)' in time")
      } catch {
        throw .failed("the Secret Service refused '\(member)': \(error.why)")
      }
    }

    /// The items matching `attributes`: those readable now, and those in a locked collection.
    func search(_ attributes: DBusValue) throws(Failure) -> (unlocked: [String], locked: [String]) {
      let reply = try call(SecretService.root, SecretService.serviceInterface, "SearchItems", [attributes])
      guard reply.count == 2 else { throw .failed("SearchItems answered \(reply.count) values, not 2") }
      return (reply[0].items?.compactMap(\.string) ?? [], reply[1].items?.compactMap(\.string) ?? [])
    }

    /// The matching items, unlocked first when that needs no prompt.
    func unlockedItems(matching attributes: DBusValue) throws(Failure) -> [String] {
      let (unlocked, locked) = try search(attributes)
      guard unlocked.isEmpty, !locked.isEmpty else { return unlocked }
      try unlock(locked)
      return locked
    }

    /// Unlocks `objects` when the service can without asking anyone; a prompt is refused, since a run
    /// with nobody at the desktop would wait for it forever.
    func unlock(_ objects: [String]) throws(Failure) {
      guard !objects.isEmpty else { return }
      let reply = try call(
        SecretService.root, SecretService.serviceInterface, "Unlock",
        [.array(element: "o", objects.map { .objectPath($0) })])
      let prompt = reply.dropFirst().first?.string ?? "/"
      if prompt != "/" {
        // Nobody will answer it: dismiss it so the service does not keep it open.
        _ = try? call(prompt, "org.freedesktop.Secret.Prompt", "Dismiss", [])
        throw .locked("the keyring is locked, and unlocking it needs a password typed at the desktop")
      }
    }
  }

  private func withSession<T>(_ body: (Session) throws(Failure) -> T) throws(Failure) -> T {
    let deadline = ContinuousClock.now + timeout
    let bus: DBusConnection
    do {
      bus = try DBusConnection.open(DBusAddress.session(environment: environment, uid: uid), timeout: timeout)
    } catch .timedOut {
      throw .unavailable("the session bus did not answer in time")
    } catch {
      throw .unavailable("there is no session bus: \(error.why)")
    }
    let session = Session(bus: bus, deadline: deadline)
    // Straight to the service: the bus answers ServiceUnknown at once when nothing provides it (and starts
    // one that is activatable), so no round trip asks first.
    let opened: [DBusValue]
    do throws(DBusError) {
      opened = try bus.call(
        .methodCall(
          destination: Self.service, path: Self.root, interface: Self.serviceInterface, member: "OpenSession",
          body: [.string("plain"), .variant(.string(""))]),
        until: deadline)
    } catch .remote(let name, _)
      where name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
    {
      throw .unavailable("nothing on the session bus provides \(Self.service) (no keyring is running)")
    } catch .timedOut {
      throw .failed("the Secret Service did not answer 'OpenSession' in time")
    } catch {
      throw .failed("the Secret Service refused 'OpenSession': \(error.why)")
    }
    guard opened.count == 2, let path = opened[1].string else {
      throw .failed("OpenSession answered \(opened.count) values, not 2")
    }
    session.path = path
    // Closed without waiting for the answer: the connection ends right after anyway.
    defer {
      bus.send(
        .methodCall(
          destination: Self.service, path: path, interface: "org.freedesktop.Secret.Session", member: "Close"))
    }
    return try body(session)
  }
}
