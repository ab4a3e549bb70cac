/// What started a run, as run history records it and `flow run --trigger` sets it.
public enum RunTrigger: String, Sendable, Hashable, CaseIterable, Codable {
  /// `flow run` by hand (the default).
  case manual
  /// `flow do PHRASE…`.
  case `do`
  /// The scheduler (`flow schedule`), at a fire time.
  case scheduled
  /// The scheduler, once after downtime for fires it missed.
  case catchUp = "catch-up"
  /// A crontab line from `flow schedule install cron`.
  case cron
  /// A systemd timer from `flow schedule install systemd`.
  case systemd
  /// A Kubernetes CronJob from `flow schedule install kubernetes`.
  case kubernetes
  /// An MCP client calling the workflow's tool (`flow mcp`).
  case mcp
  /// The desktop's application launcher: an entry `flow launcher add` wrote, which reports through a
  /// notification.
  case launcher
  // A trigger of `on:` (SPEC §10), by its kind: what the scheduler passes with `--trigger-event`.
  case file, drive, wifi, network, power, session, hotkey, app
}
