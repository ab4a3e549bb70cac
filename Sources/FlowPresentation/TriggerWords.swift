import FlowDiagnostics
import FlowModel

/// A trigger of `on:` as a person reads it, after "Starts when": "a PDF appears in ~/Downloads",
/// "Wi-Fi joins HomeNet", "the battery falls below 15%"; and as `flow list` shows it, short.
public enum TriggerWords {
  public static func words(_ trigger: Trigger) -> String {
    switch trigger.condition {
    case .file(let file):
      let place = "in " + file.folder.value + (file.recursive ? " or a folder inside it" : "")
      let subject = subject(file.pattern)
      let verbs = file.events.map { event in
        switch event {
        case .created: "appears"
        case .changed: "changes"
        case .deleted: "is deleted"
        }
      }
      return "\(subject) \(List.or(verbs)) \(place)"
    case .drive(let label, let event):
      let drive = label.map { "the drive labelled \($0.value)" } ?? "a removable drive"
      return "\(drive) is \(event.rawValue)"
    case .wifi(let ssid, let event):
      let network = ssid.map(\.value) ?? "any network"
      return "Wi-Fi \(event == .joined ? "joins" : "leaves") \(network)"
    case .network(let event):
      return event == .connected ? "the machine connects to a network" : "the machine loses its network"
    case .power(let condition):
      switch condition {
      case .plugged: return "the charger is plugged in"
      case .unplugged: return "the charger is unplugged"
      case .batteryBelow(let percentage): return "the battery falls below \(percentage)%"
      case .batteryAbove(let percentage): return "the battery rises above \(percentage)%"
      }
    case .session(let event):
      switch event {
      case .login: return "you log in"
      case .lock: return "the screen locks"
      case .unlock: return "the screen unlocks"
      case .beforeSleep: return "the machine is about to sleep"
      case .afterResume: return "the machine wakes from sleep"
      }
    case .hotkey(let chord):
      return "you press \(chord.value)"
    case .app(let id, let event):
      return "\(id.value) \(event == .opened ? "opens" : "closes")"
    }
  }

  /// `file ~/Downloads/*.pdf`, `wifi HomeNet`, `power below 15%`: the kind and what it waits for.
  public static func short(_ trigger: Trigger) -> String {
    let kind = trigger.kind.rawValue
    switch trigger.condition {
    case .file(let file):
      let path = file.folder.value + (file.pattern.map { "/" + $0 } ?? "")
      return "\(kind) \(path)"
    case .drive(let label, let event): return "\(kind) \(label?.value ?? event.rawValue)"
    case .wifi(let ssid, let event): return "\(kind) \(ssid?.value ?? event.rawValue)"
    case .network(let event): return "\(kind) \(event.rawValue)"
    case .power(let condition):
      switch condition {
      case .plugged: return "\(kind) plugged"
      case .unplugged: return "\(kind) unplugged"
      case .batteryBelow(let percentage): return "\(kind) below \(percentage)%"
      case .batteryAbove(let percentage): return "\(kind) above \(percentage)%"
      }
    case .session(let event): return "\(kind) \(event.rawValue)"
    case .hotkey(let chord): return "\(kind) \(chord.value)"
    case .app(let id, _): return "\(kind) \(id.value)"
    }
  }

  /// "a PDF" for `*.pdf`, "a file matching 2026-*" for other patterns, "a file" for none.
  static func subject(_ pattern: String?) -> String {
    guard let pattern else { return "a file" }
    let rest = pattern.dropFirst(2)
    if pattern.hasPrefix("*."), (1...4).contains(rest.count), rest.allSatisfy({ $0.isLetter || $0.isNumber }) {
      let acronym = rest.uppercased()
      // "an MP3", "a PDF": the article goes by how the first letter is said.
      let article = "AEFHILMNORSX".contains(acronym.first ?? "P") ? "an" : "a"
      return "\(article) \(acronym)"
    }
    return "a file matching \(pattern)"
  }
}
