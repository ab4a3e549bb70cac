import FlowIntents

/// Reads an environment variable the workflow lists under `env:`: what `${env.NAME}` gives, as a step.
struct GetEnvIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Environment Variable"
  static let description = IntentDescription(
    "Read an environment variable the workflow lists under 'env:' (as '${env.NAME}' does); a name it does not list is refused before the run, and one that is not set gives the default, or fails without one."
  )
  static let environmentNameParameters: Set<String> = ["name"]

  @Parameter(title: "Name", primary: true)
  var name: String

  @Parameter(title: "Default", description: "the value when the variable is not set", key: "default")
  var defaultValue: String?

  @Dependency var environment: WorkflowEnvironment

  static var parameterSummary: some ParameterSummary {
    Summary("Get environment variable \(\.$name)") {
      \.$defaultValue
    }
  }

  func perform() async throws -> some ReturnsValue<String> {
    // A computed name reaches here unchecked: the same rule as the checker's, at run time.
    guard environment.allowed.contains(name) else {
      throw AppIntentError.failed(
        "'\(name)' is not listed under 'env:'",
        help: "a workflow reads only the environment variables it lists: add 'env: [\(name)]'")
    }
    if let value = environment.values[name] ?? defaultValue { return .result(value: value) }
    throw AppIntentError.failed(
      "environment variable '\(name)' is not set",
      help:
        "set it before the run (export \(name)=…; cron and systemd pass only a few variables), or give 'get-env' a 'default'"
    )
  }
}
