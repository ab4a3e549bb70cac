import FoundationEssentials

/// Kubernetes objects that run workflows on a cluster's schedule: per workflow a ConfigMap holding the
/// file and a `batch/v1` CronJob per cron expression, printed as one YAML stream for `kubectl apply -f -`.
///
/// The CronJob carries flow's guarantees as the controller understands them: `concurrencyPolicy: Forbid`
/// (never two runs at once), `startingDeadlineSeconds` (one catch-up), `timeZone`, `backoffLimit: 0`
/// (a failed run is not started again: it may have done half its work), and the Raindrop token from a
/// Secret, never inline.
public enum KubernetesManifest {
  public struct Options: Sendable {
    public var image: String
    public var namespace: String?
    /// The Secret holding the Raindrop token, under the key `token`.
    public var secret: String

    public init(image: String, namespace: String? = nil, secret: String = "flow-raindrop") {
      self.image = image
      self.namespace = namespace
      self.secret = secret
    }
  }

  /// Where the ConfigMap is mounted in the pod.
  static let mountPath = "/etc/flow/workflows"

  /// Why an expression cannot become a CronJob schedule, if it cannot.
  ///
  /// The controller reads schedules with robfig/cron, which treats `*/2` in a day field as restricted:
  /// with the other day field restricted too it fires when either matches, where cron needs both. No
  /// CronJob says "odd days that are Mondays", so such a schedule is refused rather than changed.
  public static func problem(with expression: CronExpression) -> String? {
    let days = expression.values(.dayOfMonth).count, weekdays = expression.values(.dayOfWeek).count
    let stepped =
      (expression.dayOfMonthStar && days < 31 && weekdays < 7)
      || (expression.dayOfWeekStar && weekdays < 7 && days < 31)
    return stepped
      ? "a Kubernetes CronJob would fire '\(expression.text)' when either day field matches; cron, and flow, need both"
      : nil
  }

  /// The YAML stream for `workflows`.
  public static func stream(for workflows: [ScheduledWorkflow], options: Options) -> String {
    var documents: [String] = []
    for workflow in workflows {
      let name = workflow.unitName(limit: 52)
      let file = workflow.fileStem + ".yml"
      documents.append(
        """
        # \(workflow.name) (\(workflow.path)), written by 'flow schedule install kubernetes'
        apiVersion: v1
        kind: ConfigMap
        metadata:
        \(metadata(name: name, options: options))
        data:
          \(quote(file)): \(block(workflow.contents, indent: "    "))
        """)
      let entries = workflow.schedule.entries
      for (index, entry) in entries.enumerated() {
        let jobName = entries.count == 1 ? name : suffixed(name, index + 1)
        let args = ["run", "--no-input", "--trigger", "kubernetes", "--backend", "raindrop", "\(mountPath)/\(file)"]
        documents.append(
          """
          # \(entry.expression.text) in \(entry.zoneName): \(entry.expression.words)
          apiVersion: batch/v1
          kind: CronJob
          metadata:
          \(metadata(name: jobName, options: options))
          spec:
            schedule: \(quote(schedule(entry.expression)))
            timeZone: \(quote(entry.zoneName))
            concurrencyPolicy: Forbid
            # A start missed while the controller was down still runs, once, until the next regular fire.
            startingDeadlineSeconds: \(startingDeadline(entry.expression))
            successfulJobsHistoryLimit: 3
            failedJobsHistoryLimit: 3
            jobTemplate:
              spec:
                backoffLimit: 0
                template:
                  metadata:
                    labels:
                      app.kubernetes.io/name: flow
                      app.kubernetes.io/instance: \(quote(name))
                  spec:
                    restartPolicy: Never
                    containers:
                      - name: flow
                        image: \(quote(options.image))
                        command: ["flow"]
                        args: [\(args.map(quote).joined(separator: ", "))]
                        env:
                          - name: RAINDROP_TOKEN
                            valueFrom:
                              secretKeyRef:
                                name: \(quote(options.secret))
                                key: token
                                # Workflows that never touch Raindrop run without the Secret.
                                optional: true
                          - name: XDG_STATE_HOME
                            value: /tmp/flow/state
                          - name: XDG_DATA_HOME
                            value: /tmp/flow/data
                          - name: XDG_CONFIG_HOME
                            value: /tmp/flow/config\(secretEnvironment(workflow.secrets))
                        volumeMounts:
                          - name: workflow
                            mountPath: \(mountPath)
                            readOnly: true\(secretMount(workflow.secrets))
                    volumes:
                      - name: workflow
                        configMap:
                          name: \(quote(name))\(secretVolume(workflow.secrets, options: options))
          """)
      }
    }
    return documents.map { $0 + "\n" }.joined(separator: "---\n")
  }

  /// The secrets a workflow reads (`secrets:`) reach it as files, one per name, from the Kubernetes Secret
  /// `flow-secrets`, mounted where flow's file store reads credentials (Secrets.md, "Without a keyring").
  private static func secretEnvironment(_ secrets: [String]) -> String {
    guard !secrets.isEmpty else { return "" }
    return """

                      - name: FLOW_SECRETS
                        value: file
                      - name: CREDENTIALS_DIRECTORY
                        value: \(secretsPath)
      """
  }

  private static func secretMount(_ secrets: [String]) -> String {
    guard !secrets.isEmpty else { return "" }
    return """

                      - name: secrets
                        mountPath: \(secretsPath)
                        readOnly: true
      """
  }

  private static func secretVolume(_ secrets: [String], options: Options) -> String {
    guard !secrets.isEmpty else { return "" }
    let literals = secrets.map { "--from-literal=\($0)=…" }.joined(separator: " ")
    return """

                  # The secrets \(secrets.joined(separator: ", ")), one key each: kubectl create secret generic flow-secrets \(literals)
                  - name: secrets
                    secret:
                      secretName: flow-secrets
                      defaultMode: 0400
      """
  }

  static let secretsPath = "/run/flow-secrets"

  private static func metadata(name: String, options: Options) -> String {
    var lines = ["  name: \(quote(name))"]
    if let namespace = options.namespace { lines.append("  namespace: \(quote(namespace))") }
    lines += [
      "  labels:", "    app.kubernetes.io/name: flow", "    app.kubernetes.io/managed-by: flow-schedule-install",
    ]
    return lines.joined(separator: "\n")
  }

  /// `name-N`, still within the 52 characters a CronJob name may have.
  private static func suffixed(_ name: String, _ number: Int) -> String {
    let suffix = "-\(number)"
    var cut = String(name.prefix(52 - suffix.count))
    while cut.hasSuffix("-") { cut.removeLast() }
    return cut + suffix
  }

  /// The five fields in numbers only, as robfig/cron reads them (no names, no 7, no macros); a day
  /// field keeps `*` only when cron saw one, so that the day rule means the same.
  static func schedule(_ expression: CronExpression) -> String {
    func list(_ field: CronField, star: Bool) -> String {
      let values = expression.values(field)
      if star && values.count == field.width { return "*" }
      return CronExpression.runs(values).map { run in
        run.count >= 3 ? "\(run[0])-\(run[run.count - 1])" : run.map(String.init).joined(separator: ",")
      }.joined(separator: ",")
    }
    return [
      list(.minute, star: true), list(.hour, star: true), list(.dayOfMonth, star: expression.dayOfMonthStar),
      list(.month, star: true), list(.dayOfWeek, star: expression.dayOfWeekStar),
    ].joined(separator: " ")
  }

  /// The shortest time between two fires of `expression` (in UTC, so daylight saving does not shorten
  /// it): a missed start may run until the next regular fire would have started it anyway, so a late
  /// run never piles onto the next one.
  static func startingDeadline(_ expression: CronExpression) -> Int64 {
    guard let utc = TimeZoneName.zone(named: "UTC") else { return 60 }
    let schedule = Schedule([Schedule.Entry(expression, timeZone: utc)])
    var shortest = Int64.max
    var cursor: Int64 = 1_735_689_600  // 2025-01-01, before a year of fires
    var previous: Int64?
    for _ in 0..<2_000 {
      guard let fire = schedule.nextFire(after: cursor) else { break }
      if let previous { shortest = min(shortest, fire.instant - previous) }
      if shortest == 60 || fire.instant > 1_735_689_600 + 400 * 86_400 { break }
      previous = fire.instant
      cursor = fire.instant
    }
    return shortest == .max ? 86_400 : shortest
  }

  /// A YAML double-quoted string: JSON's string escapes are YAML's.
  static func quote(_ text: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
  }

  /// The file as a literal block (`|`), readable in the manifest; a quoted string when a block cannot
  /// hold it exactly (control characters, a first line that starts with a blank, a carriage return).
  static func block(_ text: String, indent: String) -> String {
    let blockable =
      !text.isEmpty && text.first != " " && text.first != "\n"
      && !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F }
    guard blockable else { return quote(text) }
    var body = text
    var chomping = "|"
    if !body.hasSuffix("\n") {
      chomping = "|-"
    } else if body.hasSuffix("\n\n") {
      chomping = "|+"
    }
    if body.hasSuffix("\n") { body.removeLast() }
    let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : indent + $0 }
    return chomping + "\n" + lines.joined(separator: "\n")
  }
}
