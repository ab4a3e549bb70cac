import FlowSystem

/// The systemd user manager on the session bus: applications started and ended, told by the units
/// launchers start them in (`UnitNew`/`UnitRemoved` of `app-…` units, parsed by ``AppScopeName``).
///
/// systemd sends those signals only while some client has called `Subscribe`, so arming calls it (and
/// again when the manager restarts). Applications already running when arming are the baseline: their
/// end fires, their start did not. A unit reported new twice (systemd loads a unit again when asked
/// about it) fires once.
final class AppScopeWatch: BusServiceWatch {
  static let path = "/org/freedesktop/systemd1"
  static let manager = "org.freedesktop.systemd1.Manager"

  /// The application units open now, by unit name.
  private var open: Set<String> = []

  override var rules: [DBusMatchRule] {
    [
      DBusMatchRule(sender: service, interface: Self.manager, member: "UnitNew", path: Self.path),
      DBusMatchRule(sender: service, interface: Self.manager, member: "UnitRemoved", path: Self.path),
    ]
  }

  override func arm(_ ready: @escaping (String?) -> Void) {
    call(Self.path, Self.manager, "Subscribe") { [weak self] _ in
      // A manager that refuses (a stand-in) may still send the signals; the listing below says more.
      guard let self else { return }
      let patterns: [DBusValue] = [.string("app-*.scope"), .string("app-*.service")]
      self.call(
        Self.path, Self.manager, "ListUnitsByPatterns", [.array(element: "s", []), .array(element: "s", patterns)]
      ) { [weak self] result in
        guard let self else { return }
        if case .success(let reply) = result {
          for unit in reply.body.first?.items ?? [] {
            if case .struct(let fields) = unit, let name = fields.first?.string, AppScopeName.appID(name) != nil {
              self.open.insert(name)
            }
          }
        }
        ready(nil)
      }
    }
  }

  override func disarm() { open = [] }

  override func handle(_ signal: DBusMessage) {
    guard signal.path == Self.path, let unit = signal.body.first?.string, let id = AppScopeName.appID(unit) else {
      return
    }
    switch signal.member {
    case "UnitNew":
      if open.insert(unit).inserted { emit(.app(opened: true, id: id)) }
    case "UnitRemoved":
      if open.remove(unit) != nil { emit(.app(opened: false, id: id)) }
    default:
      break
    }
  }
}
