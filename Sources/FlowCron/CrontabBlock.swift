/// The lines flow keeps in a user's crontab (crontab(5)): one block between marker comments, with
/// `CRON_TZ=` before lines whose zone differs from the machine's, replaced whole on each install and
/// never touching a line outside it.
public enum CrontabBlock {
  public static let begin =
    "# BEGIN flow schedule (written by 'flow schedule install cron --apply'; edits inside are replaced)"
  public static let end = "# END flow schedule"

  /// The block for `workflows`, markers included.
  ///
  /// - Parameters:
  ///   - machineZone: the zone cron uses without `CRON_TZ`; lines in it need none.
  ///   - zoneAfter: the `CRON_TZ` in force after the block: the one the crontab set before it, else
  ///     the machine's. Restored at the end when the block changed it, so lines below keep their zone.
  public static func block(for workflows: [ScheduledWorkflow], machineZone: String, zoneAfter: String? = nil)
    -> [String]
  {
    var lines = [begin]
    let restore = zoneAfter ?? machineZone
    var current = restore
    for workflow in workflows {
      lines.append("# \(workflow.name) (\(workflow.path))")
      if !workflow.secrets.isEmpty {
        // cron has no session: the keyring is reached at /run/user/UID/bus only while the user is logged in.
        lines.append(
          "# reads the secrets \(workflow.secrets.joined(separator: ", ")) from the keyring, which must be unlocked when it fires; "
            + "without one, put FLOW_SECRETS=file before the command (Secrets.md)")
      }
      let command = [workflow.executable, "run", "--no-input", "--trigger", "cron", workflow.path].map(shellQuote)
        .joined(separator: " ")
      for entry in workflow.schedule.entries {
        if entry.zoneName != current {
          lines.append("CRON_TZ=\(entry.zoneName)")
          current = entry.zoneName
        }
        lines.append("\(entry.expression.fields) \(command)")
      }
    }
    if current != restore { lines.append("CRON_TZ=\(restore)") }
    lines.append(end)
    return lines
  }

  /// `crontab` with the block put in place of the previous one, or appended when there was none.
  /// Everything outside the markers stays as it was.
  public static func merge(_ block: [String], into crontab: String) -> String {
    var lines = crontab.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    if let start = lines.firstIndex(of: begin),
      let stop = lines[start...].firstIndex(of: end)
    {
      lines.replaceSubrange(start...stop, with: block)
    } else {
      lines += block
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The `CRON_TZ` set by the lines before the block (or before the end, when there is no block yet).
  public static func zoneBeforeBlock(in crontab: String) -> String? {
    var zone: String?
    for line in crontab.split(separator: "\n") {
      if line == begin { break }
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.hasPrefix("CRON_TZ=") { zone = String(trimmed.dropFirst("CRON_TZ=".count)) }
    }
    return zone
  }

  /// A word for `/bin/sh`: bare when plain, else in single quotes; `%`, which cron turns into a line
  /// break, escaped either way.
  static func shellQuote(_ word: String) -> String {
    if SystemdUnits.isPlain(word) { return word }
    return "'" + word.replacingEvery("'", with: "'\\''").replacingEvery("%", with: "\\%") + "'"
  }
}
