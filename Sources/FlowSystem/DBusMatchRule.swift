/// A match rule (`AddMatch`): which signals the bus sends this connection. Values are quoted here, so a
/// name cannot widen the rule.
public struct DBusMatchRule: Sendable, Hashable {
  /// A well-known name matches whoever owns it at the time, so a rule outlives a service's restarts.
  public var sender: String?
  public var interface: String?
  public var member: String?
  public var path: String?
  /// Every object at or below this path.
  public var pathNamespace: String?
  /// The first argument, when a string: the interface of `PropertiesChanged`, the name of `NameOwnerChanged`.
  public var arg0: String?

  public init(
    sender: String? = nil, interface: String? = nil, member: String? = nil, path: String? = nil,
    pathNamespace: String? = nil, arg0: String? = nil
  ) {
    self.sender = sender
    self.interface = interface
    self.member = member
    self.path = path
    self.pathNamespace = pathNamespace
    self.arg0 = arg0
  }

  /// `PropertiesChanged` of the objects at `path` (or below `pathNamespace`) of `sender`.
  public static func propertiesChanged(sender: String, path: String? = nil, pathNamespace: String? = nil)
    -> DBusMatchRule
  {
    DBusMatchRule(
      sender: sender, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", path: path,
      pathNamespace: pathNamespace)
  }

  /// The rule as the bus reads it.
  public var text: String {
    let keys: [(String, String?)] = [
      ("sender", sender), ("interface", interface), ("member", member), ("path", path),
      ("path_namespace", pathNamespace), ("arg0", arg0),
    ]
    return (["type='signal'"] + keys.compactMap { key, value in value.map { "\(key)=\(Self.quoted($0))" } })
      .joined(separator: ",")
  }

  /// The specification's quoting: inside single quotes nothing is special, and a quote is written `'\''`.
  static func quoted(_ value: String) -> String {
    "'" + value.replacingEvery("'", with: #"'\''"#) + "'"
  }
}
