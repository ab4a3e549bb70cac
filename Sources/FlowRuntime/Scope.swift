import FlowIntents
import FlowModel

/// The magic variables visible at one point of a run (SPEC §1).
struct Scope: Sendable {
  /// Step outputs named with `as`, and variables made with `set` / `append`.
  var names: [String: FlowValue] = [:]
  /// The previous step's output: Shortcuts' implicit chaining.
  var previous: FlowValue = .nothing
  /// The innermost `repeat` or `for-each` pass: `${item}`, `${index}` (from 1), and the item's `as` name.
  var loop: Loop?
  /// How many UTF-8 bytes a text a template builds may have (``ValueLimits/textBytes``).
  var textLimit = Int.max
  /// What the lists `append` grows hold, measured as they grow (see ``ValueLimits``); a name is dropped
  /// when anything else assigns it.
  var appended: [String: ValueLimits.Measure] = [:]
  /// `${run.error}`: inside `on-failure:`, what made the run fail; nil elsewhere.
  var runError: FlowValue?
  /// The workflow's inputs by name.
  let inputs: FlowDictionary
  /// `${workflow.name}`, `${run.id}` and the allow-listed `${env.NAME}`.
  let builtIns: BuiltIns

  /// Dry runs only: the variables (`previous` among them) that hold a stand-in for the output of a step
  /// the dry run did not perform, with the label text shows instead (`⟨save-bookmark output⟩`).
  var standIns: [String: String] = [:]
  /// The label of the output the current step made, when it is a stand-in.
  var outputStandIn: String?
  /// Entity types of which stand-ins were made: a lookup of one may fail only because the dry run did
  /// not make it.
  var standInTypes: Set<String> = []

  struct Loop: Sendable {
    var item: FlowValue
    var index: Int
    var itemName: String?
  }

  struct BuiltIns: Sendable {
    var workflowName: String
    var runID: String
    var environment: [String: String]
    var clock: any FlowClock
    /// `${trigger}`: what fired; nil in a run started by hand.
    var trigger: FlowValue?
    /// The names the workflow's `env:` lists, for actions that read the environment (`get-env`).
    var environmentNames: [String] = []
    /// `${secret.NAME}`: the values of the secrets the workflow lists under `secrets:`, read before step 1.
    var secrets: [String: String] = [:]
  }

  /// `${input}`: the one input when the workflow declares one, otherwise all of them by name.
  var input: FlowValue {
    inputs.count == 1 ? inputs.values[0] : .dictionary(inputs)
  }
}
