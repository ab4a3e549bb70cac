import FlowBasics
import FlowDiagnostics
import FlowPresentation
import FlowRuntime
import FlowSession
import Foundation
import Synchronization

/// The card's soundness as a property (issue 28): a workflow generated from the input — file actions on
/// a small tree, references to earlier outputs, conditions, branches, loops, `on-error`, `on-failure` —
/// is analysed, then run for real in a sandbox home with every layer held to its card. An effect the
/// run performs is always in the card's set: a step refused as "not on the card" is a gap in the
/// analysis, and the finding. (The run is also how the property is checked in the normal test run,
/// over seeded inputs: FlowFuzzingTests.)
enum CardTarget {
  static func run(_ bytes: [UInt8]) {
    // libFuzzer calls from its own thread, never one of Swift's cooperative ones, so waiting here blocks
    // nothing the run needs.
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      await check(bytes)
      done.signal()
    }
    done.wait()
  }

  /// The property for one input: traps with the workflow when its run did what its card did not show.
  static func check(_ bytes: [UInt8]) async {
    var generator = WorkflowGenerator(bytes: bytes)
    let yaml = generator.workflow()
    if let gap = await Sandbox.shared.gap(in: yaml) {
      fatalError("the card missed what the run did: \(gap)\n--- workflow\n\(yaml)")
    }
  }
}

extension CardTarget {
  /// Whether the workflow `bytes` make checks: the property is worth only as much as the runs it sees.
  static func generatesValidWorkflow(_ bytes: [UInt8]) -> Bool {
    var generator = WorkflowGenerator(bytes: bytes)
    let check = WorkflowCheck(registry: Catalogs.registry, files: NoWorkflowFiles())
    let (workflow, diagnostics) = check.check(SourceFile(path: "card.yml", text: generator.workflow()), asIfIn: "/")
    return workflow != nil && !diagnostics.hasErrors
  }
}

/// Builds a workflow from a stream of choices: each byte picks what comes next, so that libFuzzer's
/// mutations of the bytes are mutations of the workflow.
struct WorkflowGenerator {
  private var bytes: [UInt8]
  private var offset = 0
  /// Output names given so far (`as:`), which later steps may refer to.
  private var names: [String] = []
  private var variables: [String] = []

  init(bytes: [UInt8]) { self.bytes = bytes }

  static let paths = [
    "~/a.txt", "~/b.txt", "~/keep", "~/keep/*.txt", "~/tmp/*.tmp", "~/new.txt", "~/keep/x.txt", "~/tmp",
  ]

  private mutating func pick(_ count: Int) -> Int {
    guard offset < bytes.count else { return 0 }
    defer { offset += 1 }
    return Int(bytes[offset]) % count
  }

  private mutating func choice<T>(_ options: [T]) -> T { options[pick(options.count)] }

  /// A value naming files: a path written out, or an earlier output.
  private mutating func files() -> String {
    let references = ["${previous}"] + names.map { "${\($0)}" } + variables.map { "${\($0)}" }
    return pick(2) == 0 ? choice(Self.paths) : choice(references)
  }

  mutating func workflow() -> String {
    var lines = ["flow: 1", "steps:"]
    lines += steps(depth: 0, indent: "  ", count: 1 + pick(6))
    if pick(3) == 0 {
      lines.append("on-failure:")
      lines += steps(depth: 1, indent: "  ", count: 1 + pick(2))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private mutating func steps(depth: Int, indent: String, count: Int) -> [String] {
    (0..<count).flatMap { _ in step(depth: depth, indent: indent) }
  }

  private mutating func step(depth: Int, indent: String) -> [String] {
    var lines: [String]
    switch pick(depth < 2 ? 13 : 9) {
    case 0: lines = ["- get-file: \"\(files())\""]
    case 1: lines = ["- get-folder-contents: \"\(choice(["~/keep", "~/tmp"]))\""]
    case 2:
      lines = ["- delete-files:", "    files: \"\(files())\"", "    permanently: \(pick(2) == 0)"]
    case 3:
      lines = [
        "- save-file:", "    content: x", "    path: \"\(choice(Self.paths.filter { !$0.contains("*") }))\"",
        "    if-exists: \(choice(["fail", "replace", "keep-both", "append"]))",
      ]
    case 4, 5:
      lines = [
        "- \(pick(2) == 0 ? "copy-file" : "move-file"):", "    file: \"\(files())\"",
        "    to: \"\(choice(["~/keep", "~/new.txt", "~/b.txt", "~/tmp"]))\"",
        "    if-exists: \(choice(["fail", "replace", "keep-both"]))",
      ]
    case 6: lines = ["- read-file: \"\(files())\""]
    case 7: lines = ["- text: \"\(choice(Self.paths))\""]
    case 8: lines = ["- filter: \"\(files())\""]
    case 9:
      lines = ["- if: ${previous} == x", "  then:"]
      lines += steps(depth: depth + 1, indent: "", count: 1 + pick(2)).map { "    " + $0 }
      if pick(2) == 0 {
        lines.append("  else:")
        lines += steps(depth: depth + 1, indent: "", count: 1 + pick(2)).map { "    " + $0 }
      }
    case 10:
      lines = ["- repeat: 2", "  do:"]
      lines += steps(depth: depth + 1, indent: "", count: 1 + pick(3)).map { "    " + $0 }
    case 11:
      lines = ["- for-each: \"\(files())\"", "  do:"]
      variables.append("item")
      lines += steps(depth: depth + 1, indent: "", count: 1 + pick(2)).map { "    " + $0 }
      variables.removeLast()
    default:
      lines = ["- set: v", "  to: \"\(files())\""]
      if !variables.contains("v") { variables.append("v") }
    }
    // What may leave `${previous}` as it was: a condition, or a failure the run goes on after.
    if pick(4) == 0 { lines.append("  when: ${previous} == x") }
    if pick(4) == 0 { lines.append("  on-error: continue") }
    if pick(4) == 0, lines.first?.hasPrefix("- if") == false, lines.first?.hasPrefix("- set") == false {
      let name = "out\(names.count)"
      lines.append("  as: \(name)")
      names.append(name)
    }
    return lines.map { indent + $0 }
  }
}

/// A home of its own, filled with the same small tree before each run.
final class Sandbox: @unchecked Sendable {
  static let shared = Sandbox()
  let home: String

  private init() {
    home = NSTemporaryDirectory() + "flow-card-\(getpid())"
  }

  private func reset() {
    let manager = FileManager.default
    try? manager.removeItem(atPath: home)
    for folder in ["keep", "tmp", "work"] {
      try? manager.createDirectory(atPath: home + "/" + folder, withIntermediateDirectories: true)
    }
    for file in ["a.txt", "b.txt", "keep/x.txt", "keep/y.txt", "tmp/z.tmp"] {
      manager.createFile(atPath: home + "/" + file, contents: Data(file.utf8))
    }
  }

  /// Runs `yaml` held to its card; what a step was refused as "not on the card", if anything was.
  func gap(in yaml: String) async -> String? {
    reset()
    let context = SessionContext(
      console: BufferConsole(), environment: ["HOME": home, "XDG_DATA_HOME": home + "/data"],
      workingDirectory: home + "/work")
    let check = WorkflowCheck(registry: Catalogs.registry, files: NoWorkflowFiles())
    let (loaded, diagnostics) = check.check(SourceFile(path: "card.yml", text: yaml), asIfIn: home)
    guard let workflow = loaded, !diagnostics.hasErrors else { return nil }
    let contract = CapabilityAnalysis(registry: Catalogs.registry, loader: check).analyze(workflow).contract
    let outcome = Outcome()
    guard
      let services = try? ActionSettings(yes: true).intentContext(
        context, prompter: ConfirmingPrompter(base: UnattendedPrompter()), announce: { _ in })
    else { return nil }
    let interpreter = Interpreter(
      registry: Catalogs.registry, context: services.holding(to: contract), loader: check, observer: outcome)
    do {
      _ = try await interpreter.run(workflow, inputs: [:])
    } catch let error as RunError {
      outcome.add(error.diagnostics.all.map(\.message))
    } catch {}
    return outcome.messages.withLock { $0.first { $0.contains("not on the card") } }
  }

  /// Every failure the run met, a step's that the run went on after (`on-error: continue`) included.
  private final class Outcome: RunObserver {
    let messages = Mutex<[String]>([])
    var recordsSteps: Bool { false }

    func add(_ found: [String]) { messages.withLock { $0 += found } }

    func record(_ event: RunEvent) {
      if case .finished(let record) = event, let error = record.error { add([error]) }
    }
  }
}
