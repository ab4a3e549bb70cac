/// A user `.service` and `.timer` per workflow for systemd (systemd.timer(5)): the timer's `OnCalendar=`
/// lines say the workflow's cron expressions exactly, in their zones; `Persistent=true` runs a fire
/// missed while the machine was off once when it is back; the service runs `flow run` unattended.
public enum SystemdUnits {
  public struct Unit: Sendable, Hashable {
    /// `flow-favourites-digest.timer`.
    public var fileName: String
    public var contents: String
  }

  /// The service and the timer of `workflow`, in that order.
  public static func units(for workflow: ScheduledWorkflow) -> [Unit] {
    let name = workflow.unitName()
    let header = "# Written by 'flow schedule install systemd' for \(workflow.path); run it again after editing.\n"
    let description = escapeSpecifiers("flow: \(workflow.name)")
    let command = [workflow.executable, "run", "--no-input", "--trigger", "systemd", workflow.path]
    let service = """
      \(header)[Unit]
      Description=\(description)

      [Service]
      Type=oneshot
      ExecStart=\(command.map(quote).joined(separator: " "))

      """ + secretLines(workflow.secrets)
    var calendar: [String] = []
    for entry in workflow.schedule.entries {
      calendar.append("# \(entry.expression.text) (\(entry.zoneName)): \(entry.expression.words)")
      calendar += entry.expression.onCalendar(zone: entry.zoneName).map { "OnCalendar=\($0)" }
    }
    let timer = """
      \(header)[Unit]
      Description=\(description)

      [Timer]
      \(calendar.joined(separator: "\n"))
      # A fire missed while the machine was off or asleep runs once when it is back.
      Persistent=true
      # Fire on the minute, as cron does, rather than within systemd's default minute of slack.
      AccuracySec=1s
      Unit=\(name).service

      [Install]
      WantedBy=timers.target

      """
    return [Unit(fileName: "\(name).service", contents: service), Unit(fileName: "\(name).timer", contents: timer)]
  }

  /// How the secrets reach the run: from the keyring on the session bus, which must be unlocked when the
  /// timer fires; else from files, by the line left commented out (Secrets.md, "Without a keyring").
  static func secretLines(_ secrets: [String]) -> String {
    guard !secrets.isEmpty else { return "" }
    return """
      # Reads the secrets \(secrets.joined(separator: ", ")) from the keyring (the Secret Service on the session
      # bus), which must be unlocked when the timer fires (log in, or unlock it at login). Without a keyring,
      # store them with 'FLOW_SECRETS=file flow secrets set NAME' and uncomment the next line (Secrets.md).
      #Environment=FLOW_SECRETS=file

      """
  }

  /// One word of `ExecStart=`: bare when it is plain, else double-quoted with `\` and `"` escaped;
  /// `%` (specifiers) and `$` (variables) are doubled either way, so paths arrive as written.
  static func quote(_ word: String) -> String {
    if isPlain(word) { return word }
    var quoted = "\""
    for character in word {
      switch character {
      case "\\": quoted += "\\\\"
      case "\"": quoted += "\\\""
      case "%": quoted += "%%"
      case "$": quoted += "$$"
      default: quoted.append(character)
      }
    }
    return quoted + "\""
  }

  /// Whether `word` needs no quoting for systemd nor for `/bin/sh`: letters, digits and `/._-+:@=,`.
  static func isPlain(_ word: String) -> Bool {
    !word.isEmpty
      && word.unicodeScalars.allSatisfy { scalar in
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
          || "/._-+:@=,".unicodeScalars.contains(scalar)
      }
  }

  /// Text where systemd expands `%` specifiers (`Description=`).
  static func escapeSpecifiers(_ text: String) -> String {
    text.replacingEvery("%", with: "%%")
  }
}
