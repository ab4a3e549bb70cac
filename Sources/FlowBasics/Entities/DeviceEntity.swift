import FlowDiagnostics
import FlowIntents
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The machine a workflow runs on: what `device-details` outputs (Shortcuts' "Get Device Details").
struct DeviceEntity: AppEntity {
  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Device"
  static let defaultQuery = DeviceQuery()

  /// The host name: one machine, one device.
  var id: String

  @Property(title: "Host Name") var hostName: String
  @Property(title: "User") var user: String
  /// The distribution's name, from os-release (`Debian GNU/Linux`).
  @Property(title: "OS") var os: String
  /// Its version (`12`), empty for a rolling release that gives none.
  @Property(title: "OS Version") var osVersion: String
  /// The kernel release (`uname -r`).
  @Property(title: "Kernel") var kernel: String
  /// The hardware name (`uname -m`: `x86_64`, `aarch64`).
  @Property(title: "Architecture") var architecture: String

  var displayRepresentation: DisplayRepresentation {
    DisplayRepresentation(title: "\(hostName)", subtitle: "\(os) \(osVersion)")
  }

  init(hostName: String, user: String, os: String, osVersion: String, kernel: String, architecture: String) {
    self.id = hostName
    self.hostName = hostName
    self.user = user
    self.os = os
    self.osVersion = osVersion
    self.kernel = kernel
    self.architecture = architecture
  }

  /// This machine, read from the system: `uname(2)`, the password database, and os-release.
  static func current(osReleasePaths: [String] = ["/etc/os-release", "/usr/lib/os-release"]) -> DeviceEntity {
    var names = utsname()
    uname(&names)
    func field<T>(_ value: T) -> String {
      withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    // The account's name, not $USER, which anything can set (and cron may not).
    let user = getpwuid(getuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? String(getuid())
    // The first file that exists, as the os-release specification says to look.
    let release =
      osReleasePaths.lazy.compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }.first.map(osRelease) ?? [:]
    return DeviceEntity(
      hostName: field(names.nodename), user: user, os: release["NAME"] ?? field(names.sysname),
      osVersion: release["VERSION_ID"] ?? "", kernel: field(names.release), architecture: field(names.machine))
  }

  /// The variables of an os-release file (shell-style `KEY=value` lines, values optionally quoted).
  static func osRelease(_ text: String) -> [String: String] {
    var values: [String: String] = [:]
    for line in text.split(whereSeparator: \.isNewline) {
      let trimmed = line.trimmingWhitespace()
      guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
      var value = trimmed[trimmed.index(after: equals)...]
      if let quote = value.first, quote == "\"" || quote == "'", value.count >= 2, value.last == quote {
        value = value.dropFirst().dropLast()
      }
      // Inside double quotes the shell escapes \", \\, \$ and \` stand for the character.
      var unescaped = ""
      var escaping = false
      for character in value {
        if escaping || character != "\\" {
          unescaped.append(character)
          escaping = false
        } else {
          escaping = true
        }
      }
      values[String(trimmed[..<equals])] = unescaped
    }
    return values
  }
}

/// Devices are not looked up: `device-details` makes the one there is.
struct DeviceQuery: EntityQuery {
  func entities(for identifiers: [String]) async throws -> [DeviceEntity] {
    let device = DeviceEntity.current()
    return identifiers.contains(device.id) ? [device] : []
  }
}
